"""Fog of war over the websocket: a player's socket carries the tokens their
party sees and nothing of the others (not their names, squares or drags),
the fog itself as vision frames, and the same after a reconnect."""

import json

import pytest
from channels.db import database_sync_to_async

from vtt.tabletop import services
from vtt.tabletop.models import Token

pytestmark = pytest.mark.django_db(transaction=True)

# A wall down x = 10 with a door in it from y = 8 to y = 10 (walls[1]).
WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door"], [10, 10, 10, 20]]


@database_sync_to_async
def fog_scene(room, **extra):
    """Tenrec (the player's) west of the wall; a goblin east of it."""
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(pk=room.users["gm"])
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True, **extra)
    Token.objects.filter(pk=room.tokens["tenrec"]).update(x=2, y=8)
    goblin = services.token_create(scene_id=room.scene_id, by=gm, name="Goblin", x=15, y=8)
    return goblin.pk


async def test_a_player_receives_only_what_the_party_sees(room, clients):
    goblin = await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    snapshot = player.first
    assert snapshot["type"] == "snapshot"
    names = {t["name"] for t in snapshot["tokens"]}
    assert "Goblin" not in names and "Tenrec" in names
    assert snapshot["vision"]["group"] == "party" and snapshot["vision"]["view"]
    assert goblin not in snapshot["vision"]["tokens"]
    assert gm.first["vision"] is None  # the GM sees everything, no fog
    assert "Goblin" in {t["name"] for t in gm.first["tokens"]}

    # The goblin walks about behind the wall: a number, nothing more.
    await gm.ask({"type": "token.move", "id": "m1", "token": goblin, "x": 16, "y": 9})
    await gm.send({"type": "token.drag", "token": goblin, "x": 17, "y": 9})
    moved = await player.until(lambda f: f["type"] == "event")
    assert moved["event"] == {"seq": moved["event"]["seq"], "type": "redacted"}

    # The GM opens the door: the goblin comes into view with the door.
    await gm.ask({"type": "door.set", "id": "d", "wall": 1, "state": "open"})
    opened = await player.event("scene.updated")
    assert [t["name"] for t in opened["data"]["sight"]["enter"]] == ["Goblin"]
    assert opened["data"]["scene"]["walls"][1] == [10, 8, 10, 10, "door", "open"]
    vision = await player.until(lambda f: f["type"] == "vision")
    assert goblin in vision["tokens"]

    # Shut again, the goblin leaves the view.
    await gm.ask({"type": "door.set", "id": "c", "wall": 1, "state": "closed"})
    shut = await player.event("scene.updated")
    assert shut["data"]["sight"] == {"enter": [], "leave": [goblin]}
    await gm.ask({"type": "token.move", "id": "m2", "token": goblin, "x": 18, "y": 12})

    frames = await player.drain(0.3)
    raw = json.dumps(player.seen + frames)
    # Seen at (16, 9) when the door opened; never dragged to 17 nor at 18.
    assert '"x": 17' not in raw and '"x": 18' not in raw
    assert not [f for f in player.seen + frames if f["type"] == "token.drag"]


async def test_a_reconnecting_player_catches_up_without_what_went_unseen(room, clients):
    goblin = await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    since = player.first["seq"]
    await player.close()
    await gm.ask({"type": "token.update", "id": "u", "token": goblin, "changes": {"name": "Grik"}})
    await gm.ask({"type": "token.move", "id": "m", "token": goblin, "x": 16, "y": 9})
    back = await clients(room, "player", query=f"since={since}")
    page = await back.until(lambda f: f["type"] == "resync")
    assert all(e["type"] == "redacted" for e in page["events"])
    vision = await back.until(lambda f: f["type"] == "vision")
    assert goblin not in vision["tokens"]
    assert "Grik" not in json.dumps(back.seen)


async def test_a_player_may_not_walk_through_the_door_nor_drag_an_unseen_token(room, clients):
    goblin = await fog_scene(room)
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    blocked = await player.ask({"type": "token.move", "id": "w", "token": tenrec, "x": 12, "y": 8})
    assert (blocked["type"], blocked["code"], blocked["field"]) == ("error", "blocked", "x")
    drag = await player.ask({"type": "token.drag", "id": "g", "token": goblin, "x": 1, "y": 1})
    assert drag["code"] == "not_found"


async def test_the_gm_previews_the_partys_view(room, clients):
    goblin = await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    reply = await gm.ask({"type": "vision.preview", "id": "p", "group": "party"})
    assert reply["type"] == "ack"
    preview = await gm.until(lambda f: f["type"] == "vision")
    assert preview["group"] == "party" and goblin not in preview["tokens"]
    refused = await player.ask({"type": "vision.preview", "id": "q", "group": "party"})
    assert refused["code"] == "forbidden"
    # A group the table does not have: named, and the socket stays.
    unknown = await gm.ask({"type": "vision.preview", "id": "x", "group": "u999999"})
    assert (unknown["type"], unknown["code"], unknown["field"]) == ("error", "invalid", "group")
    await gm.send({"type": "ping", "id": "still"})
    assert (await gm.until(lambda f: f["type"] == "pong"))["id"] == "still"


async def test_a_party_members_drag_reaches_the_party_on_a_fog_scene(room, clients):
    await fog_scene(room)
    player = await clients(room, "player")
    other = await clients(room, "other")
    await player.send({"type": "token.drag", "token": room.tokens["tenrec"], "x": 3, "y": 8})
    drag = await other.until(lambda f: f["type"] == "token.drag")
    assert drag["token"] == room.tokens["tenrec"]


@database_sync_to_async
def own_vision(room, on: bool):
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(pk=room.users["gm"])
    services.campaign_update_settings(
        campaign_id=room.campaign_id, by=gm, settings={"own_vision": on}
    )


async def test_a_player_connected_when_the_table_gives_each_their_own_view_starts_anew(
    room, clients
):
    """Turning `own_vision` on changes the group a connected player sees
    through: their socket follows at once, with a snapshot of their own view
    (rendering for the party's group any longer would show them what only
    the others' tokens see)."""
    await fog_scene(room)
    player = await clients(room, "player")
    assert player.first["vision"]["group"] == "party"
    await own_vision(room, True)
    fresh = await player.until(lambda f: f["type"] == "snapshot")
    assert fresh["reason"] == "vision_changed"
    assert fresh["vision"]["group"] == f"u{room.users['player']}"
