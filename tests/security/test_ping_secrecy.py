"""A ping never reaches a member whose sight group cannot see its point:
not live, not in a reconnect's snapshot or resync pages, and never in the
log (so not in a replay, the journal, an export or a REST read of the log,
which all read it). A GM's ping and pull under unexplored fog, and a
player's ping on ground only their own tokens see, are the cases."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from tests.live.conftest import connect, make_room
from vtt.tabletop import services
from vtt.tabletop.models import RoomEvent, Token

pytestmark = pytest.mark.django_db(transaction=True)

WALLS = [[10, 0, 10, 20]]  # the party's Tenrec stands west of it
SECRET = (17.75, 4.25)  # east: never seen by any player
WEST = (3.5, 8.5)


@pytest.fixture
def room(transactional_db):
    return make_room(prefix="ping-")


@database_sync_to_async
def fog_on(room, own_vision=False):
    gm = get_user_model().objects.get(pk=room.users["gm"])
    Token.objects.filter(pk=room.tokens["tenrec"]).update(x=2, y=8)
    if own_vision:
        services.campaign_update_settings(
            campaign_id=room.campaign_id, by=gm, settings={"own_vision": True}
        )
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)


@database_sync_to_async
def log_text(room) -> str:
    rows = RoomEvent.objects.filter(campaign_id=room.campaign_id).values("kind", "data")
    return json.dumps(list(rows))


def holds(frames, point) -> bool:
    """Whether any frame names the point (as a ping's x and y)."""
    return any(f.get("x") == point[0] and f.get("y") == point[1] for f in frames) or (
        str(point[0]) in json.dumps(frames)
    )


async def test_a_gms_ping_and_pull_under_fog_reach_no_player(room, clients):
    await fog_on(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    since = player.first["seq"]
    logged = await log_text(room)

    for id_, pull in (("a", False), ("b", True)):
        ack = await gm.ask(
            {"type": "map.ping", "id": id_, "x": SECRET[0], "y": SECRET[1], "pull": pull}
        )
        assert ack["type"] == "ack"
    # A ping the party sees, sent after: when it arrives the secret ones
    # would have come before it.
    await gm.ask({"type": "map.ping", "id": "c", "x": WEST[0], "y": WEST[1]})
    for client in (player, observer):
        await client.until(lambda f: f["type"] == "map.ping" and f["x"] == WEST[0])
        assert not holds(client.seen + await client.drain(0.2), SECRET)

    # Nothing of it is stored: the log (what replays, the journal, exports
    # and REST read) is as it was, and a reconnect brings nothing back.
    assert await log_text(room) == logged
    for query in (f"since={since}", ""):
        back = await connect(room, "player", query=query)
        try:
            assert not holds([back.first, *await back.drain(0.3)], SECRET)
        finally:
            await back.close()


async def test_with_own_vision_a_ping_reaches_only_the_groups_that_see_it(room, clients):
    await fog_on(room, own_vision=True)
    gm = await clients(room, "gm")
    player = await clients(room, "player")  # Tenrec sees for them (and the party)
    other = await clients(room, "other")  # no token: their own group sees nothing
    observer = await clients(room, "observer")  # the party's eyes

    await player.ask({"type": "map.ping", "id": "p", "x": WEST[0], "y": WEST[1]})
    for client in (gm, observer):
        await client.until(lambda f: f["type"] == "map.ping" and f["x"] == WEST[0])
    # The GM's ping after it reaches `other` nowhere either (they see no
    # ground at all); when the GM's own copy of the ping is handled, the
    # player's would have reached them already.
    await gm.ask({"type": "map.ping", "id": "g", "x": WEST[0] + 1, "y": WEST[1]})
    await player.until(lambda f: f["type"] == "map.ping" and f["x"] == WEST[0] + 1)
    assert not [f for f in other.seen + await other.drain(0.3) if f["type"] == "map.ping"]
