"""However a socket ends, it leaves its room; one socket's failure never
touches another's delivery; a socket gone silent is closed."""

import asyncio
import contextlib

import pytest

from vtt.live import hub, protocol, room_reads
from vtt.live.drags import DragRelay
from vtt.live.hub import Hub, RoomFeed, get_hub
from vtt.live.presence import get_presence

from .conftest import connect

pytestmark = pytest.mark.django_db(transaction=True)


async def pinged(client, id_) -> bool:
    await client.send({"type": "ping", "id": id_})
    pong = await client.until(lambda f: f["type"] == "pong" and f["id"] == id_)
    return pong["type"] == "pong"


async def closing_code(client, timeout=10.0) -> int:
    """The close code the server sends, skipping frames before it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        output = await client.ws.receive_output(max(deadline - loop.time(), 0.01))
        if output["type"] == "websocket.close":
            return output["code"]


async def test_a_frame_whose_handler_raises_gets_an_error_and_the_socket_stays(
    room, clients, monkeypatch
):
    def broken(self, intent):
        raise RuntimeError("a bug in a handler")

    gm = await clients(room, "gm")
    monkeypatch.setattr(DragRelay, "drag", broken)
    await gm.send({"type": "token.drag", "id": "d", "token": room.tokens["tenrec"], "x": 2, "y": 2})
    error = await gm.until(lambda f: f["type"] == "error")
    assert error["code"] == "server_error"
    assert await pinged(gm, "still-here")
    chat = await gm.ask({"type": "chat", "id": "c", "text": "still in the room"})
    assert (await gm.event("chat"))["seq"] == chat["seq"]


async def test_a_resync_that_fails_closes_the_socket_to_start_clean(room, clients, monkeypatch):
    """A resync cut short leaves the client with part of a history: it is
    closed (1011, not final), and reconnects from what it holds."""

    def broken(*args):
        raise RuntimeError("the log could not be read")

    gm = await clients(room, "gm")
    watcher = await clients(room, "other")
    monkeypatch.setattr(room_reads, "resync_plan", broken)
    await gm.send({"type": "resync", "id": "r", "since": 0})
    assert await closing_code(gm) == protocol.CLOSE_SERVER_ERROR
    await gm.close()  # the client's side of the closing handshake
    left = await watcher.until(lambda f: f["type"] == "presence" and f["state"] == "leave", 10)
    assert left["user"]["id"] == room.users["gm"]


async def test_a_socket_that_fails_while_joining_leaves_hub_and_presence(
    room, clients, monkeypatch
):
    """The snapshot read fails after the socket joined the hub and presence:
    it is closed with 1011, and neither keeps it."""
    watcher = await clients(room, "gm")

    def broken(*args):
        raise RuntimeError("the snapshot could not be read")

    monkeypatch.setattr(room_reads, "snapshot", broken)
    player = await clients(room, "player", expect=False)
    assert await closing_code(player) == protocol.CLOSE_SERVER_ERROR
    await player.close()
    left = await watcher.until(lambda f: f["type"] == "presence" and f["state"] == "leave", 10)
    assert left["user"]["id"] == room.users["player"]
    members = get_hub().rooms[room.campaign_id].members
    assert {m.user_id for m in members} == {room.users["gm"]}
    online = await get_presence().online(room.campaign_id)
    assert [u["id"] for u in online] == [room.users["gm"]]


async def test_a_cancelled_socket_task_still_leaves_its_room(room, clients):
    """The server cancels an application task (a timeout on close): the
    consumer's own clean-up still runs."""
    gm = await clients(room, "gm")
    player = await connect(room, "player")
    await gm.until(lambda f: f["type"] == "presence" and f["state"] == "join")
    player.ws.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await player.ws.future
    left = await gm.until(lambda f: f["type"] == "presence" and f["state"] == "leave", 10)
    assert left["user"]["id"] == room.users["player"]
    members = get_hub().rooms[room.campaign_id].members
    assert {m.user_id for m in members} == {room.users["gm"]}


class Conn:
    """A stand-in for a room's socket in the hub."""

    def __init__(self, fail=False):
        self.fail, self.events, self.asides, self.broke = fail, [], [], 0
        self.is_gm = True

    def push_event(self, message):
        if self.fail:
            raise ConnectionError("the socket closed under the frame")
        self.events.append(message["seq"])

    def push_aside_message(self, message, wire=None):
        if self.fail:
            raise ConnectionError("the socket closed under the frame")
        self.asides.append(message["text"])

    def broken(self):
        self.broke += 1


async def test_one_failing_socket_never_stops_a_fan_out():
    the_hub = Hub(asyncio.get_running_loop())
    feed = the_hub.rooms[7] = RoomFeed(the_hub, 7)
    feed.last = 0
    failing, fine = Conn(fail=True), Conn()
    # In this order: the failing one is handed each frame first.
    feed.members = [failing, fine]
    feed.offer({"seq": 1, "kind": "chat", "room": 7})
    feed.offer({"seq": 2, "kind": "chat", "room": 7})
    the_hub.dispatch({"type": "room.aside", "room": 7, "text": "presence"})
    assert fine.events == [1, 2] and fine.asides == ["presence"]
    assert failing.broke == 3


async def test_a_silent_socket_is_closed_and_a_pinging_one_stays(room, clients, monkeypatch):
    monkeypatch.setattr(hub, "HEARTBEAT", 0.1)
    talker = await clients(room, "gm")
    silent = await clients(room, "player")
    monkeypatch.setattr(hub, "SILENCE_LIMIT", 1.0)
    for i in range(12):
        assert await pinged(talker, i)
        await asyncio.sleep(0.2)
    assert await closing_code(silent) == protocol.CLOSE_SILENT
    assert await pinged(talker, "last")
