"""A member's open socket when the GM changes their place in the campaign:
from the change on, they get the room as their new role sees it, and a
removed member is closed with 4403 and gets nothing more, however the
change reaches the socket (live, in one batch with later events, inside the
pages of a reconnect, or before the socket has joined the room)."""

import asyncio
import json
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async

from tests.live.conftest import session_cookie
from vtt import dice
from vtt.live import broadcast, room_reads
from vtt.live.hub import get_hub
from vtt.tabletop import services
from vtt.tabletop.models import Campaign

from .conftest import CHECK, leaks, make_secrets

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(transactional_db):
    secrets = make_secrets("wm-")
    return SimpleNamespace(
        campaign_id=secrets.campaign.pk,
        cookies={name: session_cookie(user) for name, user in secrets.users.items()},
        s=secrets,
    )


def set_role(room, who: str, role: str) -> None:
    s = room.s
    services.membership_set_role(
        campaign_id=s.campaign.pk, by=s.users["gm"], user_id=s.users[who].pk, role=role
    )


def remove(room, who: str) -> None:
    s = room.s
    services.membership_remove(campaign_id=s.campaign.pk, by=s.users["gm"], user_id=s.users[who].pk)


def gm_rolls(room, visibility: str) -> int:
    """The GM rolls for the vampire lord; the roll's seq."""
    s = room.s
    dice.roll_adjudicate(
        campaign_id=s.campaign.pk,
        by=s.users["gm"],
        request=CHECK,
        visibility=visibility,
        character_id=s.characters.vampire.pk,
    )
    return Campaign.objects.get(pk=s.campaign.pk).event_seq


async def until_closed(client) -> tuple[int, list[dict]]:
    """The close code, and every frame the socket got before it."""
    frames = []
    while True:
        output = await client.ws.receive_output(3)
        if output["type"] == "websocket.close":
            return output["code"], frames
        frames.append(json.loads(output["text"]))


async def test_a_demoted_gm_gets_the_events_after_the_demotion_as_a_player(
    room, clients, monkeypatch
):
    await database_sync_to_async(set_role)(room, "other", "gm")
    other = await clients(room, "other")
    assert other.first["you"]["role"] == "gm"
    # Under load the hub's publisher sends whatever piled up as one batch:
    # hold the broadcasts and hand them over the same way, so the demotion
    # and the GM's secret roll arrive in one batch.
    held = []
    monkeypatch.setattr(broadcast, "publish", held.append)

    def demote_then_roll() -> int:
        set_role(room, "other", "player")
        return gm_rolls(room, "gm")

    secret = await database_sync_to_async(demote_then_roll)()
    for _ in range(300):
        if any(message["seq"] == secret for message in held):
            break
        await asyncio.sleep(0.01)
    assert held[-1]["seq"] == secret and held[0]["kind"] == "member.updated"
    get_hub().dispatch({"type": "room.batch", "room": room.campaign_id, "items": held})
    snap = await other.until(lambda f: f["type"] == "snapshot")
    assert snap["reason"] == "role_changed" and snap["you"]["role"] == "player"
    after = other.seen[1:]
    roll = next(f["event"] for f in after if f.get("event", {}).get("seq") == secret)
    assert roll == {"seq": secret, "type": "redacted"}
    assert leaks(after) == []


async def test_a_member_removed_while_their_reconnect_is_read_is_closed(room, clients, monkeypatch):
    since = await database_sync_to_async(
        lambda: Campaign.objects.get(pk=room.campaign_id).event_seq
    )()
    plan = room_reads.resync_plan

    def removed_meanwhile(campaign_id, since):
        # The removal commits after the socket joined the room, before the
        # pages are read: it is in the pages, and its message comes too.
        remove(room, "player")
        return plan(campaign_id, since)

    monkeypatch.setattr(room_reads, "resync_plan", removed_meanwhile)
    player = await clients(room, "player", query=f"since={since}", expect=False)
    code, frames = await until_closed(player)
    assert code == 4403
    kinds = [e["type"] for f in frames if f["type"] == "resync" for e in f["events"]]
    assert "member.removed" in kinds


async def test_a_member_removed_between_admission_and_joining_the_room_is_closed(
    room, clients, monkeypatch
):
    admitted = room_reads.membership

    def removed_meanwhile(campaign_id, user):
        place = admitted(campaign_id, user)
        remove(room, "player")
        return place

    monkeypatch.setattr(room_reads, "membership", removed_meanwhile)
    player = await clients(room, "player", expect=False)
    code, frames = await until_closed(player)
    assert (code, frames) == (4403, [])


async def test_a_removed_member_gets_nothing_after_the_removal(room, clients):
    player = await clients(room, "player")

    def remove_then_roll() -> int:
        remove(room, "player")
        return gm_rolls(room, "public")

    await database_sync_to_async(remove_then_roll)()
    code, frames = await until_closed(player)
    assert code == 4403
    # The removal (and the controls it takes away), not the GM's roll after it.
    kinds = [f["event"]["type"] for f in frames if f["type"] == "event"]
    assert "member.removed" in kinds and "roll" not in kinds
