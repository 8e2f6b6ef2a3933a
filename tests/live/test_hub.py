"""The process hub keeps each room's events in order and whole even when the
channel layer reorders or loses broadcasts (Redis pub/sub is at-most-once)."""

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
