"""The process hub keeps each room's events in order and whole even when the
channel layer reorders or loses broadcasts (Redis pub/sub is at-most-once)."""

import asyncio
import contextlib
import json

import pytest
from channels.db import database_sync_to_async
from django.db import transaction

from tests.tabletop.helpers import chat_data
from vtt.live import broadcast, hub, room_reads
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def chat(campaign_id, text):
    campaign = Campaign.objects.get(pk=campaign_id)
    with transaction.atomic():
        return append_event(campaign=campaign, kind="chat", data=chat_data(text)).seq


def lose(monkeypatch, texts):
    """Broadcasts of chat lines with these texts are lost on the way."""
    real = broadcast.publish

    def lossy(message):
        if message["kind"] == "chat" and any(f'"{t}"' in message["texts"][0] for t in texts):
            return
        real(message)

    monkeypatch.setattr(broadcast, "publish", lossy)


async def test_a_lost_broadcast_is_read_from_the_log_when_the_next_arrives(
    room, clients, monkeypatch
):
    lose(monkeypatch, ["lost"])
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    first = await chat(room.campaign_id, "lost")
    await chat(room.campaign_id, "found")
    for client in (gm, player):
        a = await client.event("chat")
        b = await client.event("chat")
        assert (a["seq"], a["data"]["text"]) == (first, "lost")
        assert (b["seq"], b["data"]["text"]) == (first + 1, "found")


async def test_a_lost_last_broadcast_shows_up_at_the_heartbeat(room, clients, monkeypatch):
    monkeypatch.setattr(hub, "HEARTBEAT", 0.1)
    lose(monkeypatch, ["alone"])
    gm = await clients(room, "gm")
    seq = await chat(room.campaign_id, "alone")
    event = await gm.event("chat", timeout=3)
    assert (event["seq"], event["data"]["text"]) == (seq, "alone")


async def test_out_of_order_broadcasts_are_put_back_in_order(room, clients, monkeypatch):
    lose(monkeypatch, ["a", "b", "c"])
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    start = gm.first["seq"]
    for text in ("a", "b", "c"):
        await chat(room.campaign_id, text)
    messages = await database_sync_to_async(room_reads.rendered_since)(room.campaign_id, start)
    the_hub = hub.get_hub()
    for message in reversed(messages):  # c, b, a: as if published out of order
        the_hub.dispatch(message)
    the_hub.dispatch(messages[1])  # and a late duplicate
    for client in (gm, player):
        got = [await client.event("chat") for _ in range(3)]
        assert [e["data"]["text"] for e in got] == ["a", "b", "c"]
        assert [e["seq"] for e in got] == [start + 1, start + 2, start + 3]
        assert not [f for f in await client.drain(0.2) if f["type"] == "event"]


async def test_one_layer_subscription_per_process_and_room(room, clients):
    the_hub = hub.get_hub()
    a = await clients(room, "gm")
    b = await clients(room, "player")
    c = await clients(room, "other")
    assert len(the_hub.rooms[room.campaign_id].members) == 3
    for client in (a, b, c):
        await client.close()
    assert room.campaign_id not in the_hub.rooms


class Elsewhere:
    """Another process in the room's group, as the layer would feed it. One
    receive is kept waiting the whole time: the pub/sub layer forgets a
    channel whose receive was cancelled and drops what the group sends it
    until the next receive, which a timed-out listen would otherwise lose."""

    def __init__(self, layer, channel):
        self.layer, self.channel = layer, channel
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        while True:
            self.inbox.put_nowait(await self.layer.receive(self.channel))

    async def heard(self, kind: str, timeout: float, first=False) -> list[dict]:
        """What of `kind` ("drag": a drag preview) reached this process within
        `timeout` (batches opened). With `first`, what the first message that
        had any of it held, as soon as it came."""
        got = []
        try:
            async with asyncio.timeout(timeout):
                while not (first and got):
                    message = await self.inbox.get()
                    items = message["items"] if message["type"] == "room.batch" else [message]
                    got += [m for m in items if m["type"] == kind or _is_drag(m, kind)]
        except TimeoutError:
            pass
        return got

    async def answer_from(self, the_hub, timeout=2.0) -> bool:
        """Whether the hub answered this process's word within `timeout`
        (its own word comes back first: it is in the group too)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            for m in await self.heard("room.hub", left, first=True):
                if m["hub"] == the_hub.channel and m.get("answer"):
                    return True
        return False


@contextlib.asynccontextmanager
async def elsewhere(room):
    """A process that has joined the room's group and not spoken yet."""
    layer = hub.get_hub().layer
    channel = await layer.new_channel("elsewhere.")
    group = hub.room_group(room.campaign_id)
    await layer.group_add(group, channel)
    other = Elsewhere(layer, channel)
    try:
        yield other
    finally:
        other.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await other.reader
        await layer.group_discard(group, channel)


def _is_drag(message: dict, kind: str) -> bool:
    return kind == "drag" and str(message.get("key", "")).startswith("drag:")


async def test_drag_previews_go_through_the_layer_only_while_another_process_serves_the_room(
    room, clients, monkeypatch
):
    monkeypatch.setattr(hub, "HEARTBEAT", 0.2)  # another process is gone after 3 silent beats
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    the_hub = hub.get_hub()
    tenrec = room.tokens["tenrec"]
    async with elsewhere(room) as other:
        # Alone: the GM sees the preview, and nothing of it goes to the layer.
        await player.send({"type": "token.drag", "token": tenrec, "x": 2, "y": 3})
        drag = await gm.until(lambda f: f["type"] == "token.drag")
        assert (drag["x"], drag["y"]) == (2, 3)
        assert await other.heard("drag", 0.3) == []

        # Another process says it serves the room: it is answered at once,
        # and the previews go to it (and to the GM, by the same way).
        here = {"type": "room.hub", "room": room.campaign_id, "hub": other.channel}
        await the_hub.layer.group_send(hub.room_group(room.campaign_id), here)
        assert await other.answer_from(the_hub)
        await asyncio.sleep(0.25)  # the next preview is not merged into the last
        await player.send({"type": "token.drag", "token": tenrec, "x": 4, "y": 3})
        sent = await other.heard("drag", 0.5)
        assert [json.loads(m["text"])["x"] for m in sent] == [4]
        drag = await gm.until(lambda f: f["type"] == "token.drag")
        assert (drag["x"], drag["y"]) == (4, 3)

        # Silent for three heartbeats: gone, and previews stay here again.
        await asyncio.sleep(0.8)
        await player.send({"type": "token.drag", "token": tenrec, "x": 6, "y": 3})
        drag = await gm.until(lambda f: f["type"] == "token.drag")
        assert (drag["x"], drag["y"]) == (6, 3)
        assert await other.heard("drag", 0.3) == []


async def test_events_go_through_the_layer_only_while_another_process_serves_the_room(
    room, clients, monkeypatch
):
    """A committed event reaches this process's sockets straight from the
    commit, once each; another process gets it through the layer only once
    it has said it serves the room."""
    # The heartbeat as deployed: the other process, which speaks once,
    # counts as serving the room for seconds, however slow the commit.
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    the_hub = hub.get_hub()
    async with elsewhere(room) as other:
        alone = await chat(room.campaign_id, "alone")
        for client in (gm, player):
            event = await client.event("chat")
            assert (event["seq"], event["data"]["text"]) == (alone, "alone")
        assert await other.heard("room.event", 0.3) == []

        here = {"type": "room.hub", "room": room.campaign_id, "hub": other.channel}
        await the_hub.layer.group_send(hub.room_group(room.campaign_id), here)
        assert await other.answer_from(the_hub)  # so the hub has taken its word
        assert the_hub.shared(room.campaign_id)
        shared = await chat(room.campaign_id, "shared")
        heard = await other.heard("room.event", 5, first=True)
        heard += await other.heard("room.event", 0.3)  # and never twice
        assert [m["seq"] for m in heard] == [shared]
        for client in (gm, player):
            event = await client.event("chat")
            assert (event["seq"], event["data"]["text"]) == (shared, "shared")
            assert not [f for f in await client.drain(0.2) if f["type"] == "event"]


async def test_an_event_is_delivered_outside_the_committing_threads_context(
    room, clients, monkeypatch
):
    """The event is handed over from the thread that committed it, inside a
    live intent's all_or_nothing(); what it sets off in the sockets (a fresh
    snapshot's reads, say) must not run under that thread's context."""
    from vtt.db import transactions
    from vtt.live import intents
    from vtt.live.protocol import parse_frame
    from vtt.live.receipts import carry_out_once

    gm = await clients(room, "gm")
    seen = []
    offer = hub.RoomFeed.offer

    def offer_and_look(feed, message):
        seen.append(transactions._all_or_nothing.get())
        offer(feed, message)

    monkeypatch.setattr(hub.RoomFeed, "offer", offer_and_look)

    def say():
        from django.contrib.auth import get_user_model

        asker = intents.Asker(get_user_model().objects.get(pk=room.users["gm"]), room.campaign_id)
        frame = parse_frame(json.dumps({"type": "chat", "id": "c1", "text": "hello"}))
        return carry_out_once(intents.once(asker, frame))

    await database_sync_to_async(say)()
    event = await gm.event("chat")
    assert event["data"]["text"] == "hello"
    assert seen and not any(seen)
