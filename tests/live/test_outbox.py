"""A client that cannot keep up is disconnected (4408) rather than queued
without end, and comes back with a resync."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction

from tests.tabletop.helpers import chat_data
from vtt.live import outbox, protocol
from vtt.live.outbox import Outbox
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign

from .conftest import HOST, ORIGIN, application

pytestmark = pytest.mark.django_db(transaction=True)


class Stuck:
    """An ASGI wrapper whose frames stop going out while `jammed` is set,
    like a socket whose client has stopped reading."""

    def __init__(self, app):
        self.app = app
        self.jammed = asyncio.Event()
        self.freed = asyncio.Event()

    async def __call__(self, scope, receive, send):
        async def slow(message):
            if message["type"] == "websocket.send" and self.jammed.is_set():
                await self.freed.wait()
            await send(message)

        return await self.app(scope, receive, slow)


@database_sync_to_async
def chat_lines(campaign_id, count):
    campaign = Campaign.objects.get(pk=campaign_id)
    with transaction.atomic():
        for i in range(count):
            append_event(campaign=campaign, kind="chat", data=chat_data(f"line {i}"))


async def test_a_client_that_stops_reading_is_closed_4408_and_resyncs(room, clients, monkeypatch):
    monkeypatch.setattr(outbox, "MAX_FRAMES", 10)
    stuck = Stuck(application())
    headers = [ORIGIN, HOST, (b"cookie", f"sessionid={room.cookies['player']}".encode())]
    ws = WebsocketCommunicator(stuck, f"/ws/campaigns/{room.campaign_id}/", headers=headers)
    assert (await ws.connect(3))[0]
    try:
        snapshot = json.loads(await ws.receive_from(3))
        stuck.jammed.set()
        await chat_lines(room.campaign_id, 30)
        while True:
            output = await ws.receive_output(3)
            if output["type"] == "websocket.close":
                break
        assert output["code"] == protocol.CLOSE_TOO_SLOW == 4408
    finally:
        stuck.freed.set()
        await ws.disconnect()
    back = await clients(room, "player", query=f"since={snapshot['seq']}")
    page = await back.until(lambda f: f["type"] == "resync")
    assert len(page["events"]) == 30


async def test_frames_with_a_key_replace_their_unsent_predecessor():
    sent = []
    gate = asyncio.Event()

    async def send(message):
        await gate.wait()
        sent.append(message["text"])

    box = Outbox(send, lambda: None)
    box.push("a")
    box.push("drag 1", key="drag:7")
    box.push("b")
    box.push("drag 2", key="drag:7")
    box.push("drag 3", key="drag:7")
    gate.set()
    await box.drain()
    assert sent == ["a", "drag 3", "b"]
    box.close()


async def test_the_queue_bound_counts_bytes_too():
    overflowed = []

    async def never(message):
        await asyncio.Event().wait()

    box = Outbox(never, lambda: overflowed.append(True), max_frames=100, max_bytes=50)
    box.push("x" * 30)
    box.push("x" * 30)
    assert overflowed == [True] and box.closed


def test_only_daphne_sends_are_written_at_once():
    async def send(message):
        pass

    assert not Outbox(send, lambda: None).immediate


def test_frames_skip_the_session_middlewares_wrapper():
    from channels.sessions import InstanceSessionWrapper

    async def send(message):
        pass

    wrapper = InstanceSessionWrapper({"type": "websocket", "cookies": {}}, send)
    assert outbox.frame_sender(wrapper.send) is send


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70001])
def test_a_frame_written_straight_to_the_socket_reads_back_as_its_text(size):
    """Frames for daphne's sockets are framed here, not by autobahn: a
    client's parser (websockets) must read back the same text, whatever the
    length's encoding (7, 16 or 64 bits) and with characters of several bytes."""
    from websockets.frames import Frame, Opcode
    from websockets.streams import StreamReader

    text = ("dé🎲" * size)[:size]
    payload = text.encode()
    reader = StreamReader()
    reader.feed_data(outbox.text_frame(payload))
    reader.feed_eof()
    parse = Frame.parse(reader.read_exact, mask=False)
    with pytest.raises(StopIteration) as done:
        next(parse)
    frame = done.value.value
    assert (frame.opcode, frame.fin, frame.data.decode()) == (Opcode.TEXT, True, text)
    assert reader.at_eof()


@pytest.fixture
def connection():
    """A Twisted TCP connection over one end of a real socket pair, and the
    other end, which plays the client."""
    import socket

    from twisted.internet import reactor, tcp
    from twisted.internet.protocol import Protocol

    ours, theirs = socket.socketpair()
    theirs.setblocking(False)
    conn = tcp.Connection(ours, Protocol(), reactor)
    conn.connected = 1
    yield conn, theirs
    conn.stopWriting()
    ours.close()
    theirs.close()


def _read_all(sock) -> bytes:
    chunks = []
    while True:
        try:
            chunk = sock.recv(1 << 20)
        except BlockingIOError:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_frame_reaches_the_socket_at_once_when_nothing_is_buffered(connection):
    conn, client = connection
    outbox.send_now(conn, b"first")
    outbox.send_now(conn, b"second")
    assert _read_all(client) == b"firstsecond"
    assert not conn._tempDataBuffer and conn not in conn.reactor.getWriters()


def test_what_the_kernel_does_not_take_waits_in_twisted_and_keeps_the_order(connection):
    """A client that stops reading fills the kernel's buffer: the rest of
    the frame, and every frame after it, queue in Twisted's buffer (which
    the outbox bounds) in the order they were written."""
    conn, client = connection
    big = bytes(range(256)) * (64 * 1024)  # 16 MB, more than the kernel holds
    outbox.send_now(conn, big)
    held = outbox._buffered_bytes(conn)
    assert 0 < held < len(big) and conn in conn.reactor.getWriters()
    received = _read_all(client)  # the kernel has room again, Twisted not yet written
    outbox.send_now(conn, b"after")
    assert outbox._buffered_bytes(conn) == held + len(b"after")
    while outbox._buffered_bytes(conn):
        conn.doWrite()
        received += _read_all(client)
    assert received == big + b"after"


def test_a_closing_connection_is_left_to_twisted(connection):
    conn, client = connection
    conn.disconnecting = True
    outbox.send_now(conn, b"late")
    assert _read_all(client) == b"" and outbox._buffered_bytes(conn) == len(b"late")
