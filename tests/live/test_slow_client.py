"""A socket that stops reading, on a real daphne (`python -m vtt.serve`):
the frames it leaves unread pile up in Twisted's transport, and once they
pass the outbox's bound the server gives up on that socket instead of
holding the room's traffic for it without end. The room goes on for
everyone else."""

import asyncio
import json
import socket

import pytest

from tests import served
from vtt.live import protocol
from vtt.live.outbox import MAX_BYTES

LINES = 400  # chat lines of 2000 characters in the log: about 1.7 MB a full resync


def seed() -> dict:
    """A campaign with a long chat log and one signed-in member (run in the
    server's database, in a subprocess)."""
    from tests import factories
    from vtt.live import intents

    gm = factories.person("slow-gm")
    campaign = factories.campaign(gm, name="Long table")
    asker = intents.Asker(gm, campaign.pk)
    for i in range(LINES):
        intents.chat(asker, {"text": f"{i:04d} " + "x" * 1995})
    return {"campaign": campaign.pk, "cookie": factories.session_cookie(gm)}


@pytest.fixture
def room(tmp_path):
    log = tmp_path / "server.log"
    with served.seeded_site(tmp_path, "tests.live.test_slow_client:seed", log) as (port, seeded):
        yield {"port": port, "log": log, **seeded}


async def join(room, sock=None):
    import websockets

    port = room["port"]
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/campaigns/{room['campaign']}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={room['cookie']}"},
        sock=sock,
        max_size=None,
        max_queue=1,
    )


async def test_a_socket_that_stops_reading_is_let_go(room):
    import websockets

    # A small receive window, so what the client does not read stays on the
    # server's side; and a client that reads nothing until told to.
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", room["port"]))
    sock.setblocking(False)
    slow = await join(room, sock)
    # Each resync from 0 sends the whole log again: 40 of them (the burst the
    # rate limit allows) are far more than the bound.
    for i in range(40):
        await slow.send(json.dumps({"type": "resync", "id": f"r{i}", "since": 0}))
    await asyncio.sleep(3)

    # The room goes on for everyone else meanwhile.
    other = await join(room)
    snapshot = json.loads(await asyncio.wait_for(other.recv(), 10))
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == LINES
    await other.send(json.dumps({"type": "ping", "id": "p"}))
    frames = [json.loads(await asyncio.wait_for(other.recv(), 10)) for _ in range(1)]
    assert frames[0]["type"] == "pong"
    await other.close()

    # The slow socket reads now: a bounded amount, then the end.
    received = 0
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            received += len(await asyncio.wait_for(slow.recv(), 10))
    # Let go because of the bound: it says so, and the socket got far less
    # than the 40 resyncs asked for (about 68 MB). Its close frame (4408)
    # waits behind the unread frames, so the client may not live to read it
    # before the server drops the connection.
    assert "stopped reading (4408)" in room["log"].read_text()
    assert received < MAX_BYTES + 8 * 1024 * 1024
    if closed.value.rcvd is not None:
        assert closed.value.rcvd.code == protocol.CLOSE_TOO_SLOW
