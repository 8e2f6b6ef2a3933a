"""Fog drawn after the moves in the live rooms: a party token's moves reach
the party as their events at once and as a vision frame soon after (one
for several quick moves), and the frame goes to that group only."""

import pytest
from channels.db import database_sync_to_async

from vtt.live import db
from vtt.tabletop import services
from vtt.tabletop.models import Token

pytestmark = pytest.mark.django_db(transaction=True)

WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door", "open"], [10, 10, 10, 20]]


@database_sync_to_async
def fog_scene(room):
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(pk=room.users["gm"])
    Token.objects.filter(pk=room.tokens["tenrec"]).update(x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)


@database_sync_to_async
def moves_views(room):
    from vtt.tabletop.models import RoomEvent

    moves = RoomEvent.objects.filter(campaign_id=room.campaign_id, kind="token.moved")
    return [e.data["sight"]["views"] for e in moves.order_by("seq")]


async def test_a_moving_eyes_view_follows_its_moves_for_its_group_only(room, clients):
    await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    first = player.first["vision"]
    tenrec = room.tokens["tenrec"]
    for i, y in enumerate((1, 17)):
        reply = await player.ask(
            {"type": "token.move", "id": f"m{i}", "token": tenrec, "x": 8, "y": y}
        )
        assert reply["type"] == "ack"
    frames = await player.drain(1.0)
    visions = [f for f in player.seen + frames if f["type"] == "vision"]
    assert visions and visions[-1]["view"] != first["view"]
    assert visions[-1]["explored"] != first["explored"]
    if db.parallel():
        # The moves' events carried no drawing: it followed them.
        assert await moves_views(room) == [[], []]
    else:
        # SQLite: one database thread for the rooms, so each move draws.
        assert await moves_views(room) == [["party"], ["party"]]
    seen_by_gm = gm.seen + await gm.drain(0.3)
    assert not [f for f in seen_by_gm if f["type"] == "vision"]  # no preview asked


@database_sync_to_async
def own_vision(room):
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(pk=room.users["gm"])
    services.campaign_update_settings(
        campaign_id=room.campaign_id, by=gm, settings={"own_vision": True}
    )


async def test_with_own_vision_a_players_drawing_reaches_them_and_the_gm_looking_as_them(
    room, clients
):
    await fog_scene(room)
    await own_vision(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    mine = f"u{room.users['player']}"
    await gm.ask({"type": "vision.preview", "id": "p", "group": mine})
    await gm.until(lambda f: f["type"] == "vision")
    tenrec = room.tokens["tenrec"]
    reply = await player.ask({"type": "token.move", "id": "m", "token": tenrec, "x": 8, "y": 1})
    assert reply["type"] == "ack"
    drawn = await player.until(lambda f: f["type"] == "vision")
    assert drawn["group"] == mine
    looked = await gm.until(lambda f: f["type"] == "vision" and f["view"] == drawn["view"])
    assert looked["group"] == mine
    frames = other.seen + await other.drain(0.6)
    assert not [f for f in frames if f["type"] == "vision" and f["group"] == mine]
