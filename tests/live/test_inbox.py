"""Frames read straight off daphne's socket (vtt.live.inbox): the whole
masked text frames a read brings are taken there, everything else is left
to autobahn, and a frame answered at once never overtakes one of the same
socket's that is still being carried out."""

import asyncio
import dataclasses
import json

import pytest
from websockets.frames import Frame, Opcode

from tests import served
from tests.faults.client import open_socket
from vtt.live.inbox import next_text


def wire(payload, opcode=Opcode.TEXT, fin=True, mask=True) -> bytes:
    """A frame as a client puts it on the wire (masked, as RFC 6455 asks)."""
    data = payload.encode() if isinstance(payload, str) else payload
    return Frame(opcode, data, fin=fin).serialize(mask=mask, extensions=[])


# ------------------------------------------------------------ the reader


@pytest.mark.parametrize("text", ["", "{}", "é" * 60, "x" * 125, "ü" * 200, "y" * 65535])
def test_a_whole_masked_text_frame_is_read_back_as_it_was_sent(text):
    data = b"\x00" + wire(text) + wire("next")
    assert next_text(data, 1) == (text, len(data) - len(wire("next")))


def test_frames_one_after_another_are_read_from_where_the_last_ended():
    data = wire('{"type":"ping","id":"a"}') + wire("été") + wire("z" * 300)
    texts, offset = [], 0
    while (frame := next_text(data, offset)) is not None:
        text, offset = frame
        texts.append(text)
    assert texts == ['{"type":"ping","id":"a"}', "été", "z" * 300]
    assert offset == len(data)


def test_a_frame_not_yet_whole_is_left_for_more():
    data = wire("a text long enough to need a sixteen-bit length " * 4)
    for cut in range(len(data)):
        assert next_text(data[:cut], 0) is None


@pytest.mark.parametrize(
    "data",
    [
        wire(b"\x01\x02", Opcode.BINARY),
        wire(b"", Opcode.PING),
        wire(b"", Opcode.PONG),
        wire(b"\x03\xe8", Opcode.CLOSE),
        wire("part", fin=False),
        wire("rest", Opcode.CONT),
        wire("unmasked", mask=False),
        wire("w" * 65536),  # a 64-bit length
        wire(b"\xff\xfe not UTF-8"),
        wire("é\ud800".encode("utf-8", "surrogatepass")),
        # The 16-bit length used for a short text: autobahn refuses it.
        b"\x81\xfe\x00\x05" + b"\x00\x00\x00\x00" + b"hello",
        # An extension bit (a compressed message) set.
        bytes([0xC1]) + wire("deflated")[1:],
    ],
    ids=[
        "binary",
        "ping",
        "pong",
        "close",
        "fragment",
        "continuation",
        "unmasked",
        "64-bit length",
        "not UTF-8",
        "a surrogate",
        "long length for a short text",
        "extension bit",
    ],
)
def test_anything_but_a_whole_masked_text_frame_is_left_to_autobahn(data):
    assert next_text(data, 0) is None


def test_a_frame_over_the_servers_limit_is_left_to_autobahn():
    data = wire("x" * 200)
    assert next_text(data, 0, limit=199) is None
    assert next_text(data, 0, limit=200) == ("x" * 200, len(data))


# ------------------------------------------------------------ on daphne


def seed() -> dict:
    """The live tests' campaign, in the server's database (in a subprocess)."""
    from tests.live.conftest import make_room

    return dataclasses.asdict(make_room())


@pytest.fixture
def served_room(tmp_path):
    with served.seeded_site(tmp_path, "tests.live.test_inbox:seed") as (port, seeded):
        yield {"port": port, **seeded}


class Socket:
    """A member's websocket that can also put raw bytes on the wire."""

    def __init__(self, ws):
        self.ws = ws

    async def frame(self, timeout=10.0) -> dict:
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))

    async def until(self, predicate, timeout=10.0) -> dict:
        async with asyncio.timeout(timeout):
            while not predicate(frame := await self.frame()):
                pass
            return frame

    def write(self, *chunks: bytes) -> None:
        for chunk in chunks:
            self.ws.transport.write(chunk)


async def join(room, who) -> Socket:
    socket = Socket(await open_socket(room["port"], room["campaign_id"], room["cookies"][who]))
    await socket.until(lambda f: f["type"] == "snapshot")
    return socket


def intent(**fields) -> bytes:
    return wire(json.dumps(fields))


def answered(frame) -> bool:
    return frame["type"] in ("ack", "error", "pong")


async def test_a_ping_sent_after_a_move_is_answered_after_it(served_room):
    player = await join(served_room, "player")
    tenrec = served_room["tokens"]["tenrec"]
    try:
        for step in range(5):
            # In one write: the move goes to the database, the ping behind it
            # could be answered at once, and must not be.
            player.write(
                intent(type="token.move", id=f"m{step}", token=tenrec, x=2 + step, y=1)
                + intent(type="ping", id=f"p{step}")
            )
            first = await player.until(answered)
            second = await player.until(answered)
            assert (first["type"], first["id"]) == ("ack", f"m{step}")
            assert (second["type"], second["id"]) == ("pong", f"p{step}")
    finally:
        await player.ws.close()


async def test_previews_cut_anywhere_or_between_control_frames_arrive_in_order(served_room):
    player = await join(served_room, "player")
    gm = await join(served_room, "gm")
    tenrec = served_room["tokens"]["tenrec"]
    try:
        drags = [intent(type="token.drag", id=f"d{x}", token=tenrec, x=x, y=4) for x in range(2, 8)]
        cut = len(drags[1]) // 2
        player.write(
            drags[0] + drags[1][:cut],  # a frame cut in two reads
            drags[1][cut:] + wire(b"are you there", Opcode.PING) + drags[2],
            wire("frag", fin=False),  # a fragmented text is autobahn's to join
            wire('ment ignored"}', Opcode.CONT),
            drags[3] + drags[4][:3],
            drags[4][3:],
        )
        # Previews faster than the drag rate are merged (the latest wins), so
        # not every x need arrive; those that do come in order, up to the last.
        seen = []
        while not seen or seen[-1] != 6:
            seen.append((await gm.until(lambda f: f["type"] == "token.drag"))["x"])
        assert seen == sorted(set(seen))
        # The fragmented frame was read whole by autobahn: it is not JSON.
        error = await player.until(lambda f: f["type"] == "error")
        assert error["code"] == "bad_json"
        # The socket stays: a ping after all that is answered.
        player.write(intent(type="ping", id="after"))
        assert (await player.until(answered))["id"] == "after"
    finally:
        await player.ws.close()
        await gm.ws.close()


async def test_a_text_that_is_not_utf8_ends_the_connection_and_the_room_goes_on(served_room):
    import websockets

    player = await join(served_room, "player")
    player.write(wire(b'{"type": "ping", "id": "\xff"}'))
    # autobahn fails the connection (RFC 6455, 8.1) by dropping it.
    with pytest.raises(websockets.ConnectionClosed):
        await player.frame()
    again = await join(served_room, "player")
    again.write(intent(type="ping", id="back"))
    assert (await again.until(answered))["id"] == "back"
    await again.ws.close()
