"""Pings over the websocket (`map.ping`): relayed to the room with the
pinger's name and colour, never stored, kept from a player whose sight group
cannot see the point, limited per member, and refused with an error frame
that keeps the socket when the input is bad or the member may not."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from vtt.tabletop import services
from vtt.tabletop.models import RoomEvent, Token

from .conftest import connect

pytestmark = pytest.mark.django_db(transaction=True)

# A wall down x = 10: the player's Tenrec stands west of it, so the party has
# seen the west half of the map and nothing east of it.
WALLS = [[10, 0, 10, 20]]
WEST = (3.5, 8.5)
EAST = (15.5, 8.5)


@database_sync_to_async
def fog_on(room):
    gm = get_user_model().objects.get(pk=room.users["gm"])
    Token.objects.filter(pk=room.tokens["tenrec"]).update(x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)


@database_sync_to_async
def log_length(room) -> int:
    return RoomEvent.objects.filter(campaign_id=room.campaign_id).count()


def pings(frames) -> list[dict]:
    return [f for f in frames if f["type"] == "map.ping"]


async def alive(client) -> None:
    """The socket still answers after a refusal."""
    await client.send({"type": "ping", "id": "alive"})
    pong = await client.until(lambda f: f["type"] == "pong" and f["id"] == "alive")
    assert pong["seq"] >= client.first["seq"]


async def test_a_ping_reaches_everyone_else_with_the_pingers_name_and_colour(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    observer = await clients(room, "observer")
    before = await log_length(room)

    ack = await player.ask({"type": "map.ping", "id": "p1", "x": 4.5, "y": 3.25})
    colour = ack.pop("color")
    assert ack == {"type": "ack", "id": "p1", "intent": "map.ping", "scene": room.scene_id}
    for client in (gm, other, observer):
        frame = await client.until(lambda f: f["type"] == "map.ping")
        assert frame["x"] == 4.5 and frame["y"] == 3.25 and frame["scene"] == room.scene_id
        assert frame["by"] == {"id": room.users["player"], "name": player.first["you"]["name"]}
        assert frame["color"] == colour and len(colour) == 7 and colour.startswith("#")
        assert frame["pull"] is False
    # Not echoed to the socket that sent it, and nothing stored.
    assert not pings(await player.drain(0.2))
    assert await log_length(room) == before

    # Each member keeps one colour; another member has another.
    await gm.ask({"type": "map.ping", "id": "g1", "x": 1, "y": 1})
    from_gm = await player.until(lambda f: f["type"] == "map.ping")
    again = await player.ask({"type": "map.ping", "id": "p2", "x": 2, "y": 2})
    assert again["type"] == "ack"
    mine_again = await other.until(lambda f: f["type"] == "map.ping" and f["x"] == 2)
    assert mine_again["color"] == frame["color"] != from_gm["color"]


async def test_a_gm_pulls_everyones_view_and_a_player_may_not(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    await gm.ask({"type": "map.ping", "id": "g", "x": 12, "y": 7, "pull": True})
    pulled = await player.until(lambda f: f["type"] == "map.ping")
    assert pulled["pull"] is True and (pulled["x"], pulled["y"]) == (12, 7)

    refused = await player.ask({"type": "map.ping", "id": "p", "x": 3, "y": 3, "pull": True})
    assert refused["type"] == "error"
    assert (refused["code"], refused["field"]) == ("forbidden", "pull")
    assert not pings(await gm.drain(0.2))
    await alive(player)


async def test_an_observer_may_not_ping(room, clients):
    gm = await clients(room, "gm")
    observer = await clients(room, "observer")
    refused = await observer.ask({"type": "map.ping", "id": "o", "x": 3, "y": 3})
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert not pings(await gm.drain(0.2))
    await alive(observer)


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"x": 25, "y": 3}, "out_of_bounds", "x"),  # the map is 20 squares wide
        ({"x": 3, "y": -0.5}, "out_of_bounds", "y"),
        ({"x": "3", "y": 3}, "invalid", "x"),
        ({"x": True, "y": 3}, "invalid", "x"),
        ({"x": None, "y": 3}, "invalid", "x"),
        ({"x": 3}, "invalid", "y"),
        ({"x": 3, "y": 3, "pull": "yes"}, "invalid", "pull"),
        ({"x": 3, "y": 3, "scene": 10**9}, "invalid", "scene"),
        ({"x": 3, "y": 3, "colour": "#000000"}, "unknown_field", "colour"),
    ],
)
async def test_bad_input_is_refused_and_the_socket_stays(room, clients, fields, code, field):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    refused = await player.ask({"type": "map.ping", "id": "bad", **fields})
    assert refused["type"] == "error"
    assert (refused["code"], refused["field"]) == (code, field)
    assert not pings(await gm.drain(0.2))
    await alive(player)


async def test_not_a_finite_number_is_refused(room, clients):
    player = await clients(room, "player")
    # Python's JSON reads NaN and Infinity: they are no place on a map.
    for literal in ("NaN", "Infinity", "-Infinity", "1e400"):
        await player.ws.send_to(
            text_data=f'{{"type": "map.ping", "id": "n", "x": {literal}, "y": 3}}'
        )
        refused = await player.reply("n")
        assert (refused["type"], refused["code"], refused["field"]) == ("error", "invalid", "x")
    await alive(player)


async def test_pings_are_limited_per_member_and_the_socket_stays(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tab = await clients(room, "player")  # the same member's second tab shares the limit
    answers = []
    for i in range(4):
        answers.append(await player.ask({"type": "map.ping", "id": f"r{i}", "x": 1, "y": 1}))
    answers.append(await tab.ask({"type": "map.ping", "id": "r4", "x": 1, "y": 1}))
    assert [a["type"] for a in answers] == ["ack", "ack", "ack", "ack", "error"]
    assert answers[-1]["code"] == "rate_limited" and "wait" in answers[-1]["message"]
    # Another member is not held back by this one.
    assert (await gm.ask({"type": "map.ping", "id": "g", "x": 1, "y": 1}))["type"] == "ack"
    await alive(tab)
    await alive(player)


async def test_on_a_fog_scene_a_ping_reaches_only_those_who_see_the_point(room, clients):
    await fog_on(room)
    gm = await clients(room, "gm")
    second_gm_tab = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")

    # Under unexplored fog: the GM's other tab, nobody else.
    await gm.ask({"type": "map.ping", "id": "e", "x": EAST[0], "y": EAST[1], "pull": True})
    hidden = await second_gm_tab.until(lambda f: f["type"] == "map.ping")
    assert (hidden["x"], hidden["y"]) == EAST
    # On ground the party sees: everyone.
    await gm.ask({"type": "map.ping", "id": "w", "x": WEST[0], "y": WEST[1]})
    for client in (player, observer):
        seen = await client.until(lambda f: f["type"] == "map.ping")
        assert (seen["x"], seen["y"]) == WEST
        assert not [f for f in pings(client.seen + await client.drain(0.2)) if f["x"] == EAST[0]]

    # A player's ping into the dark reaches the GMs alone too.
    await player.ask({"type": "map.ping", "id": "d", "x": EAST[0], "y": EAST[1]})
    assert (await gm.until(lambda f: f["type"] == "map.ping"))["x"] == EAST[0]
    assert not pings(await observer.drain(0.2))


async def test_a_reconnect_brings_no_ping_back(room, clients):
    player = await clients(room, "player")
    gm = await clients(room, "gm")
    since = player.first["seq"]
    await player.close()
    await gm.ask({"type": "map.ping", "id": "g", "x": 5, "y": 5})
    back = await connect(room, "player", query=f"since={since}")
    try:
        frames = [back.first, *await back.drain(0.3)]
        assert not pings(frames)
        assert all(f.get("events", []) == [] for f in frames if f["type"] == "resync")
    finally:
        await back.close()
