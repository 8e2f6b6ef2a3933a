"""Nothing lost, nothing twice: reconnecting with the last sequence number,
asking for a resync, and the race between a resync's reads and live events."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.tabletop.helpers import chat_data
from vtt.live import room_reads
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, RoomEvent
from vtt.tabletop.services import token_move

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def chat_lines(campaign_id, count, start=0):
    campaign = Campaign.objects.get(pk=campaign_id)
    with transaction.atomic():
        for i in range(start, start + count):
            append_event(campaign=campaign, kind="chat", data=chat_data(f"line {i}"))


@database_sync_to_async
def move(room, who, x, y):
    user = get_user_model().objects.get(pk=room.users[who])
    return token_move(token_id=room.tokens["tenrec"], by=user, x=x, y=y)


def pages_events(frames):
    return [e for f in frames if f["type"] == "resync" for e in f["events"]]


async def test_reconnecting_gets_exactly_the_missed_events_then_live_ones(room, clients):
    player = await clients(room, "player")
    last = player.first["seq"]
    await player.close()
    await move(room, "player", 2, 2)
    await chat_lines(room.campaign_id, 3)
    await move(room, "player", 3, 3)

    back = await clients(room, "player", query=f"since={last}")
    assert back.first["type"] == "welcome"
    assert back.first["seq"] == last + 5
    assert back.first["you"]["role"] == "player"
    page = await back.until(lambda f: f["type"] == "resync")
    assert page["more"] is False and page["since"] == last
    assert [e["seq"] for e in page["events"]] == list(range(last + 1, last + 6))
    assert [e["type"] for e in page["events"]] == [
        "token.moved",
        "chat",
        "chat",
        "chat",
        "token.moved",
    ]
    await move(room, "player", 4, 4)
    live = await back.event("token.moved")
    assert live["seq"] == last + 6
    assert await back.quiet(0.2)


async def test_resync_comes_in_pages(room, clients):
    player = await clients(room, "player")
    last = player.first["seq"]
    await player.close()
    await chat_lines(room.campaign_id, room_reads.PAGE + 30)
    back = await clients(room, "player", query=f"since={last}")
    first = await back.until(lambda f: f["type"] == "resync")
    second = await back.until(lambda f: f["type"] == "resync")
    assert (first["more"], second["more"]) == (True, False)
    seqs = [e["seq"] for e in first["events"] + second["events"]]
    assert seqs == list(range(last + 1, last + room_reads.PAGE + 31))


async def test_a_resync_intent_repeats_from_the_given_number(room, clients):
    gm = await clients(room, "gm")
    await chat_lines(room.campaign_id, 3)
    for _ in range(3):
        await gm.event("chat")
    await gm.send({"type": "resync", "id": "y", "since": gm.first["seq"] + 1})
    page = await gm.until(lambda f: f["type"] == "resync")
    assert page["id"] == "y"
    assert [e["data"]["text"] for e in page["events"]] == ["line 1", "line 2"]


async def test_too_far_behind_gets_a_snapshot(room, clients, monkeypatch):
    monkeypatch.setattr(room_reads, "RESYNC_LIMIT", 3)
    gm = await clients(room, "gm")
    last = gm.first["seq"]
    await gm.close()
    await chat_lines(room.campaign_id, 4)
    back = await clients(room, "gm", query=f"since={last}")
    assert back.first["type"] == "snapshot" and back.first["reason"] == "too_far_behind"
    assert back.first["seq"] == last + 4


async def test_an_unknown_sequence_gets_a_snapshot(room, clients):
    back = await clients(room, "gm", query="since=9999")
    assert back.first["type"] == "snapshot" and back.first["reason"] == "unknown_seq"


async def test_a_missed_scene_change_comes_in_the_pages_with_its_tokens(room, clients):
    gm = await clients(room, "gm")
    last = gm.first["seq"]
    await gm.ask({"type": "scene.activate", "id": "s", "scene": room.scene_id})
    back = await clients(room, "gm", query=f"since={last}")
    assert back.first["type"] == "welcome"
    page = await back.until(lambda f: f["type"] == "resync")
    [change] = page["events"]
    assert (change["seq"], change["type"]) == (last + 1, "scene.activated")
    assert {t["id"] for t in change["data"]["tokens"]} == set(room.tokens.values())


async def test_a_scene_change_logged_without_its_tokens_gets_a_snapshot(room, clients):
    """A log kept from before scene changes carried their tokens: such a
    change cannot be replayed, so the client starts afresh."""
    gm = await clients(room, "gm")
    last = gm.first["seq"]

    @database_sync_to_async
    def old_style_change():
        # Written as an older version wrote it: today's declarations refuse it.
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().get(pk=room.campaign_id)
            campaign.event_seq += 1
            campaign.save(update_fields=["event_seq"])
            RoomEvent.objects.create(
                campaign=campaign,
                seq=campaign.event_seq,
                kind="scene.activated",
                data={"scene": {"id": 1}},
                visibility="public",
            )

    await old_style_change()
    back = await clients(room, "gm", query=f"since={last}")
    assert back.first["type"] == "snapshot" and back.first["reason"] == "scene_changed"


async def test_live_events_during_a_resync_arrive_once_and_in_order(room, clients, monkeypatch):
    """An event committed while the resync reads the log must be neither lost
    (it is after the read) nor repeated (it is also live)."""
    gm = await clients(room, "gm")
    last = gm.first["seq"]
    await gm.close()
    await chat_lines(room.campaign_id, 2)
    real = room_reads.views_since
    calls = []

    def racing(campaign_id, after, viewer, limit=room_reads.PAGE):
        views = real(campaign_id, after, viewer, limit)
        if not calls:
            calls.append(after)
            # Committed after the page was read, before it is sent.
            c = Campaign.objects.get(pk=campaign_id)
            with transaction.atomic():
                append_event(campaign=c, kind="chat", data=chat_data("meanwhile"))
        return views

    monkeypatch.setattr(room_reads, "views_since", racing)
    back = await clients(room, "gm", query=f"since={last}")
    frames = await back.drain(0.5)
    seqs = [e["seq"] for e in pages_events(frames)]
    seqs += [f["event"]["seq"] for f in frames if f["type"] == "event"]
    assert seqs == [last + 1, last + 2, last + 3]


async def test_events_while_disconnected_and_live_ones_never_repeat(room, clients):
    """Many reconnects while moves go on: the client's log is exactly 1..N."""
    player = await clients(room, "player")
    seen = [e["seq"] for e in player.first["log"]]
    last = player.first["seq"]
    for round_ in range(4):
        await move(room, "player", 2 + round_, 5)
        await player.close()
        await chat_lines(room.campaign_id, 2, start=round_ * 2)
        player = await clients(room, "player", query=f"since={last}")
        await move(room, "player", 2 + round_, 6)
        frames = await player.drain(0.3)
        got = [e["seq"] for e in pages_events(frames)]
        got += [f["event"]["seq"] for f in frames if f["type"] == "event"]
        seen += got
        last = seen[-1]
    assert seen == list(range(1, last + 1))
