"""The light intents: the GM places, changes and removes lights live; a
player turns their token's torch on and off; a refusal is an error frame
naming its field, and the socket stays open."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_gm_places_changes_and_removes_a_light_and_everyone_hears(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    placed = await gm.ask(
        {"type": "light.place", "id": 1, "light": {"x": 3.5, "y": 2.5, "bright": 2, "dim": 4}}
    )
    light = placed["light"]
    assert (light["x"], light["dim"], light["on"]) == (3.5, 4, True)
    event = await player.event("light.changed")
    assert event["data"]["action"] == "placed" and event["data"]["light"]["id"] == light["id"]
    changed = await gm.ask(
        {"type": "light.update", "id": 2, "light": light["id"], "changes": {"on": False}}
    )
    assert changed["light"]["on"] is False
    assert (await player.event("light.changed"))["data"]["light"]["on"] is False
    gone = await gm.ask({"type": "light.remove", "id": 3, "light": light["id"]})
    assert gone["light_id"] == light["id"]
    assert (await player.event("light.changed"))["data"]["action"] == "removed"


async def test_a_player_turns_their_torch_on_and_off_and_nothing_else(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    torch = (
        await gm.ask(
            {
                "type": "light.place",
                "id": 1,
                "token": room.tokens["tenrec"],
                "light": {"bright": 2, "dim": 4},
            }
        )
    )["light"]
    off = await player.ask(
        {"type": "light.update", "id": 2, "light": torch["id"], "changes": {"on": False}}
    )
    assert off["light"]["on"] is False
    wider = await player.ask(
        {"type": "light.update", "id": 3, "light": torch["id"], "changes": {"dim": 9}}
    )
    assert wider["type"] == "error" and wider["code"] == "forbidden"
    placing = await player.ask({"type": "light.place", "id": 4, "light": {"x": 1, "y": 1}})
    assert placing["type"] == "error" and placing["code"] == "forbidden"


@pytest.mark.parametrize(
    "light, code, field",
    [
        ({"x": 1, "y": 1, "bright": 4, "dim": 2}, "invalid", "dim"),
        ({"x": -1, "y": 1}, "invalid", "x"),
        ({"x": 1, "y": 1, "color": "red"}, "invalid", "color"),
        ({"x": 1, "y": 1, "radius": 2}, "unknown_field", "light.radius"),
        ({"x": 1}, "invalid", "y"),
        ("lamp", "invalid", "light"),
    ],
)
async def test_bad_lights_are_refused_by_field_and_the_socket_stays(
    room, clients, light, code, field
):
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "light.place", "id": "bad", "light": light})
    assert (reply["type"], reply["code"], reply["field"]) == ("error", code, field)
    await gm.send({"type": "ping", "id": "after"})
    assert (await gm.until(lambda f: f["type"] == "pong"))["id"] == "after"
