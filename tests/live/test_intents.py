"""Every intent, its acknowledgement and its refusals."""

import pytest
from channels.db import database_sync_to_async

from vtt.tabletop.models import Roll, RoomEvent, Token

from .conftest import TIMEOUT

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}


@database_sync_to_async
def token_row(token_id):
    return Token.objects.get(pk=token_id)


@database_sync_to_async
def event_count(campaign_id):
    return RoomEvent.objects.filter(campaign_id=campaign_id).count()


# ---------------------------------------------------------------- roll


async def test_roll_is_adjudicated_recorded_and_broadcast(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    reply = await player.ask({"type": "roll", "id": "r-1", "request": CHECK})
    assert reply["type"] == "ack" and reply["intent"] == "roll" and reply["id"] == "r-1"
    event = await gm.event("roll")
    data = event["data"]
    assert data["roll_id"] == reply["roll_id"]
    assert data["roller"] == {"id": room.users["player"], "name": "player"}
    assert data["physical"] is False and data["visibility"] == "public"
    assert len(data["result"]["dice"]) == 3
    assert data["result"]["outcome"] in ("success", "failure")
    roll = await database_sync_to_async(Roll.objects.select_related("event").get)(
        pk=reply["roll_id"]
    )
    assert roll.result == data["result"]


async def test_physical_dice_are_marked_physical(room, clients):
    player = await clients(room, "player")
    request = {**CHECK, "faces": [2, 2, 1]}
    await player.ask({"type": "roll", "id": 7, "request": request})
    data = (await player.event("roll"))["data"]
    assert data["physical"] is True
    assert [d["face"] for d in data["result"]["dice"]] == [2, 2, 1]
    assert data["result"]["critical_failure"] is True


@pytest.mark.parametrize(
    "request_, code, field",
    [
        ({**CHECK, "color": "red"}, "unknown_field", "request.color"),
        ({**CHECK, "pool": "three"}, "invalid", "request.pool"),
        ({**CHECK, "faces": [5]}, "faces_exhausted", "request.faces"),
        ({**CHECK, "faces": [5, 5, 5, 5]}, "faces_unused", "request.faces"),
        ({**CHECK, "faces": [5, 9, 5]}, "bad_face", "request.faces"),
        ({**CHECK, "system": "rd6", "dice": 2}, "invalid", "request.system"),
        ({"system": "artifice", "action": "juggle"}, "invalid", "request.action"),
    ],
)
async def test_bad_roll_requests_are_refused_with_the_contracts_codes(
    room, clients, request_, code, field
):
    player = await clients(room, "player")
    before = await event_count(room.campaign_id)
    reply = await player.ask({"type": "roll", "id": "bad", "request": request_})
    assert (reply["type"], reply["code"], reply["field"]) == ("error", code, field)
    assert await event_count(room.campaign_id) == before


async def test_bad_visibility_is_invalid(room, clients):
    player = await clients(room, "player")
    reply = await player.ask({"type": "roll", "id": 1, "request": CHECK, "visibility": "loud"})
    assert (reply["code"], reply["field"]) == ("invalid", "visibility")


async def test_observers_may_not_roll(room, clients):
    observer = await clients(room, "observer")
    reply = await observer.ask({"type": "roll", "id": 1, "request": CHECK})
    assert reply["code"] == "forbidden"


# ---------------------------------------------------------------- token.move


async def test_move_is_acknowledged_and_broadcast(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    reply = await player.ask(
        {"type": "token.move", "id": "m", "token": tenrec, "x": 4, "y": 2, "version": 1}
    )
    assert reply["type"] == "ack" and reply["token"]["x"] == 4 and reply["token"]["version"] == 2
    event = await gm.event("token.moved")
    assert event["data"]["from"] == [1, 1] and event["data"]["token"]["y"] == 2


async def test_a_stale_move_is_refused_with_the_current_token(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    await gm.ask({"type": "token.move", "id": "g", "token": tenrec, "x": 6, "y": 6, "version": 1})
    reply = await player.ask(
        {"type": "token.move", "id": "p", "token": tenrec, "x": 2, "y": 2, "version": 1}
    )
    assert reply["type"] == "error" and reply["code"] == "stale_version"
    assert reply["field"] == "version"
    assert (reply["token"]["x"], reply["token"]["y"], reply["token"]["version"]) == (6, 6, 2)
    row = await token_row(tenrec)
    assert (row.x, row.y) == (6, 6)


@pytest.mark.parametrize(
    "who, token, x, y, code",
    [
        ("other", "tenrec", 2, 2, "forbidden"),  # not a controller
        ("observer", "tenrec", 2, 2, "forbidden"),
        ("player", "zombie", 2, 2, "not_found"),  # hidden: does not exist for players
        ("player", "tenrec", 20, 2, "out_of_bounds"),
        ("player", "tenrec", -1, 2, "out_of_bounds"),
    ],
)
async def test_move_refusals(room, clients, who, token, x, y, code):
    client = await clients(room, who)
    reply = await client.ask(
        {"type": "token.move", "id": "m", "token": room.tokens[token], "x": x, "y": y}
    )
    assert reply["type"] == "error" and reply["code"] == code


async def test_a_token_of_another_campaign_is_not_found(room, clients):
    from .conftest import make_room

    elsewhere = await database_sync_to_async(make_room)(prefix="x-")
    gm = await clients(room, "gm")
    reply = await gm.ask(
        {"type": "token.move", "id": "m", "token": elsewhere.tokens["tenrec"], "x": 2, "y": 2}
    )
    assert reply["code"] == "not_found"


# ---------------------------------------------------------------- token.drag


async def test_drag_previews_reach_the_others_coalesced_and_are_never_stored(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    before = await event_count(room.campaign_id)
    tenrec = room.tokens["tenrec"]
    for x in range(1, 11):
        await player.send({"type": "token.drag", "token": tenrec, "x": x, "y": 3})
    frames = await gm.drain(0.4)
    drags = [f for f in frames if f["type"] == "token.drag"]
    assert drags[-1] == {
        "type": "token.drag",
        "token": tenrec,
        "x": 10,
        "y": 3,
        "by": room.users["player"],
        "version": 1,
    }
    assert 1 <= len(drags) < 10  # the first goes at once, the rest are coalesced
    assert not [f for f in await player.drain(0.1) if f["type"] == "token.drag"]
    assert await event_count(room.campaign_id) == before
    row = await token_row(tenrec)
    assert (row.x, row.y) == (1, 1)


async def test_only_controllers_and_gms_may_drag(room, clients):
    other = await clients(room, "other")
    observer = await clients(room, "observer")
    tenrec = room.tokens["tenrec"]
    for client in (other, observer):
        reply = await client.ask({"type": "token.drag", "id": "d", "token": tenrec, "x": 2, "y": 2})
        assert reply["code"] == "forbidden"


# ---------------------------------------------------------------- GM intents


async def test_gm_creates_updates_hides_and_deletes_tokens(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    made = await gm.ask(
        {
            "type": "token.create",
            "id": 1,
            "name": "Kobor",
            "x": 3,
            "y": 4,
            "color": "#AA0000",
            "controllers": [room.users["other"]],
        }
    )
    token = made["token"]
    assert (token["scene_id"], token["color"], token["controllers"]) == (
        room.scene_id,
        "#aa0000",
        [room.users["other"]],
    )
    assert (await player.event("token.created"))["data"]["token"]["id"] == token["id"]
    updated = await gm.ask(
        {
            "type": "token.update",
            "id": 2,
            "token": token["id"],
            "changes": {"name": "Kobor the Wise", "size": 2},
        }
    )
    assert updated["token"]["name"] == "Kobor the Wise" and updated["token"]["size"] == 2
    assert (await player.event("token.updated"))["data"]["token"]["version"] == 2
    hidden = await gm.ask({"type": "token.hide", "id": 3, "token": token["id"]})
    assert hidden["token"]["hidden"] is True
    await player.event("token.removed")
    gone = await gm.ask({"type": "token.delete", "id": 4, "token": token["id"]})
    assert gone == {"type": "ack", "id": 4, "intent": "token.delete", "token_id": token["id"]}
    assert (await gm.event("token.deleted"))["data"]["token"]["id"] == token["id"]
    assert (await player.until(lambda f: f["type"] == "event"))["event"]["type"] == "redacted"


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "token.create", "name": "X", "x": 1, "y": 1},
        {"type": "token.update", "token": "tenrec", "changes": {"name": "Y"}},
        {"type": "token.hide", "token": "tenrec"},
        {"type": "token.delete", "token": "tenrec"},
        {"type": "scene.activate", "scene": "scene"},
    ],
)
async def test_players_may_not_use_gm_intents(room, clients, frame):
    player = await clients(room, "player")
    frame = dict(frame, id="x")
    for key in ("token", "scene"):
        if frame.get(key) == "tenrec":
            frame[key] = room.tokens["tenrec"]
        elif frame.get(key) == "scene":
            frame[key] = room.scene_id
    reply = await player.ask(frame)
    assert reply["type"] == "error" and reply["code"] == "forbidden"


async def test_token_update_refuses_fields_it_does_not_change(room, clients):
    gm = await clients(room, "gm")
    reply = await gm.ask(
        {"type": "token.update", "id": 1, "token": room.tokens["tenrec"], "changes": {"x": 3}}
    )
    assert (reply["code"], reply["field"]) == ("unknown_field", "changes.x")


async def test_scene_activation_brings_the_new_maps_tokens_per_role(room, clients):
    from django.contrib.auth import get_user_model

    from vtt.tabletop.services import scene_create, token_create

    def second_scene():
        gm = get_user_model().objects.get(pk=room.users["gm"])
        scene = scene_create(campaign_id=room.campaign_id, by=gm, name="Hall", width=10, height=10)
        token_create(scene_id=scene.pk, by=gm, name="Lurker", x=2, y=2, hidden=True)
        token_create(scene_id=scene.pk, by=gm, name="Statue", x=3, y=3)
        return scene.pk

    scene_id = await database_sync_to_async(second_scene)()
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    reply = await gm.ask({"type": "scene.activate", "id": "s", "scene": scene_id})
    assert reply == {"type": "ack", "id": "s", "intent": "scene.activate", "scene_id": scene_id}
    for client, names in ((gm, {"Lurker", "Statue"}), (player, {"Statue"})):
        event = await client.event("scene.activated")
        assert event["data"]["scene"]["id"] == scene_id
        # The new map's tokens come in the event itself, numbered with it.
        assert {t["name"] for t in event["data"]["tokens"]} == names
        assert {t["scene_id"] for t in event["data"]["tokens"]} == {scene_id}


async def test_activating_a_scene_of_another_campaign_is_not_found(room, clients):
    from .conftest import make_room

    elsewhere = await database_sync_to_async(make_room)(prefix="x-")
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "scene.activate", "id": "s", "scene": elsewhere.scene_id})
    assert reply["code"] == "not_found"


# ---------------------------------------------------------------- chat, ping


async def test_chat_is_logged_and_escaped(room, clients):
    gm = await clients(room, "gm")
    observer = await clients(room, "observer")
    text = "<script>alert('x')</script> & co\x07"
    reply = await observer.ask({"type": "chat", "id": "c", "text": "  " + text + "  "})
    assert reply["type"] == "ack" and reply["seq"] > 0
    event = await gm.event("chat")
    assert event["seq"] == reply["seq"]
    assert event["data"] == {
        "from": {"id": room.users["observer"], "name": "observer"},
        "text": "<script>alert('x')</script> & co",
        "html": "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; co",
    }


@pytest.mark.parametrize("text", ["", "   ", "x" * 2001])
async def test_chat_refuses_empty_and_overlong_lines(room, clients, text):
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "chat", "id": "c", "text": text})
    assert (reply["code"], reply["field"]) == ("invalid", "text")


async def test_chat_of_exactly_2000_characters_is_fine(room, clients):
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "chat", "id": "c", "text": "é" * 2000})
    assert reply["type"] == "ack"


async def test_ping_answers_pong_with_the_last_sequence(room, clients):
    gm = await clients(room, "gm")
    await gm.send({"type": "ping", "id": "p"})
    pong = await gm.until(lambda f: f["type"] == "pong", TIMEOUT)
    assert pong == {"type": "pong", "id": "p", "seq": gm.first["seq"]}


async def test_rolling_for_a_character_fills_from_the_sheet(clients):
    from .conftest import make_room

    sheet = {"abilities": {"Might": {"dice": 3}}}
    table = await database_sync_to_async(make_room)(prefix="c-", Hero=sheet)
    player = await clients(table, "player")
    other = await clients(table, "other")
    hero = table.characters["Hero"]
    request = {"system": "artifice", "action": "check", "difficulty": 2, "faces": [5, 3, 6]}
    reply = await player.ask(
        {
            "type": "roll",
            "id": "r",
            "request": request,
            "character": hero,
            "fill": {"pool": "Might"},
        }
    )
    assert reply["type"] == "ack"
    data = (await other.event("roll"))["data"]
    assert data["character"] == {"id": hero, "name": "Hero"}
    assert data["request"]["pool"] == 3 and data["result"]["successes"] == 3
    refused = await other.ask({"type": "roll", "id": "x", "request": request, "character": hero})
    assert refused["code"] == "forbidden"
