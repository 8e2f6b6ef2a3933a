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


# ------------------------------------------------------------------ the turn order


@database_sync_to_async
def encounter_read(room, who):
    """The running encounter as `who` reads it over REST (the page's load)."""
    from django.test import Client

    client = Client()
    client.cookies["sessionid"] = room.cookies[who]
    response = client.get(f"/api/combat/scenes/{room.scene_id}/encounter/")
    assert response.status_code == 200
    return response.json()


def fighters(value) -> list[dict]:
    """Every combatant and initiative roll anywhere in a frame (objects
    naming a `token_id`)."""
    if isinstance(value, dict):
        found = [value] if "token_id" in value and "name" in value else []
        return found + [f for item in value.values() for f in fighters(item)]
    if isinstance(value, list):
        return [f for item in value for f in fighters(item)]
    return []


def combatants(frame_or_view) -> list[str]:
    encounter = frame_or_view.get("data", frame_or_view).get("encounter", frame_or_view)
    return [c["name"] for c in encounter["order"]]


async def test_the_turn_order_names_only_the_combatants_the_party_sees(room, clients):
    """The goblin behind the wall fights too: the GM's order has it all
    along; the player's frames, resync pages, snapshot log and REST reads
    have nothing of it (name, token, initiative, its roll) until it comes
    into view, and on its turn the player learns only that it is a turn
    out of their sight."""
    goblin = await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    since = player.first["seq"]

    started = await gm.ask({"type": "encounter.start", "id": "s"})
    assert started["type"] == "ack"
    assert "Goblin" in combatants(started["encounter"])
    assert combatants(await player.event("encounter.started")) == ["Tenrec"]
    assert "Goblin" in combatants(await gm.event("encounter.started"))
    fight = started["encounter"]["id"]
    goblin_c = next(c for c in started["encounter"]["order"] if c["name"] == "Goblin")

    await gm.ask({"type": "encounter.initiative", "id": "i", "encounter": fight})
    rolled = await player.event("encounter.initiative")
    assert [r["name"] for r in rolled["data"]["rolls"]] == ["Tenrec"]
    gm_rolled = await gm.event("encounter.initiative")
    assert "Goblin" in [r["name"] for r in gm_rolled["data"]["rolls"]]

    ids = {c["name"]: c["id"] for c in started["encounter"]["order"]}
    for name, initiative in (("Goblin", 99), ("Tenrec", 50), ("Zombie", 1)):
        intent = {"type": "encounter.set", "id": name, "encounter": fight}
        await gm.ask({**intent, "combatant": ids[name], "initiative": initiative})
    await gm.ask({"type": "encounter.next", "id": "n", "encounter": fight})
    turn = (await player.event("encounter.turn"))["data"]["encounter"]
    assert (turn["current"], turn["turn"], turn["unseen_turn"]) == (None, None, True)
    assert (turn["round"], turn["turns"]) == (1, 1)
    gm_turn = (await gm.event("encounter.turn"))["data"]["encounter"]
    assert (gm_turn["current"], gm_turn["unseen_turn"]) == (goblin_c["id"], False)

    # Asking to roll for it by its number finds nobody: not even its name.
    asked = {"type": "encounter.initiative", "id": "x", "encounter": fight}
    refused = await player.ask({**asked, "combatants": [goblin_c["id"]]})
    assert (refused["type"], refused["code"]) == ("error", "not_found")
    assert "Goblin" not in json.dumps(refused)

    # The REST read, a fresh connection's log and a reconnect's pages.
    read = await encounter_read(room, "player")
    assert combatants(read) == ["Tenrec"] and read["unseen_turn"] is True
    assert "Goblin" in combatants(await encounter_read(room, "gm"))
    fresh = await clients(room, "player")
    back = await clients(room, "player", query=f"since={since}")
    page = await back.until(lambda f: f["type"] == "resync")
    for seen in (player.seen, fresh.first["log"], page["events"], read):
        assert "Goblin" not in json.dumps(seen)
        found = fighters(seen)
        assert found and {f["name"] for f in found} == {"Tenrec"}
        assert goblin not in {f["token_id"] for f in found}
        assert goblin_c["id"] not in {f.get("combatant_id", f.get("id")) for f in found}
        assert 99 not in {f["initiative"] for f in found}

    # The door opens: the goblin comes into view, and into the next turn.
    await gm.ask({"type": "door.set", "id": "d", "wall": 1, "state": "open"})
    await player.event("scene.updated")
    assert "Goblin" in combatants(await encounter_read(room, "player"))
    await gm.ask({"type": "encounter.next", "id": "n2", "encounter": fight})
    turn = (await player.event("encounter.turn"))["data"]["encounter"]
    assert combatants(turn) == ["Goblin", "Tenrec"]
    assert (turn["current"], turn["unseen_turn"]) == (ids["Tenrec"], False)


async def test_with_own_vision_each_player_gets_the_order_their_own_tokens_see(room, clients):
    """`other` controls no token: their own view is empty, so the order
    they receive names nobody on the map, while the player's names Tenrec."""
    goblin = await fog_scene(room)
    await own_vision(room, True)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    observer = await clients(room, "observer")
    await gm.ask({"type": "encounter.start", "id": "s"})
    assert combatants(await player.event("encounter.started")) == ["Tenrec"]
    assert combatants(await other.event("encounter.started")) == []
    # Observers look through the party's eyes: Tenrec's.
    assert combatants(await observer.event("encounter.started")) == ["Tenrec"]
    assert combatants(await encounter_read(room, "other")) == []
    assert "Goblin" in combatants(await gm.event("encounter.started"))
    for seat in (player, other, observer):
        assert goblin not in {f["token_id"] for f in fighters(seat.seen)}
