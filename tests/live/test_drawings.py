"""Drawings in the room: a stroke's previews relayed live to those who would
see the drawing and never stored, the finished drawing stored with its
event, moved, removed and cleared through intents, each refusal an error
frame that keeps the socket and stores nothing."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from vtt.drawings.models import Drawing
from vtt.tabletop import services
from vtt.tabletop.models import RoomEvent, Token

pytestmark = pytest.mark.django_db(transaction=True)

# As in test_pings: a wall down x = 10, Tenrec west of it, so the party has
# seen the west half of the map and nothing east of it.
WALLS = [[10, 0, 10, 20]]
WEST = [[3.5, 8.5], [4, 9]]
EAST = [[15.5, 8.5], [16, 9]]
ACROSS = [[4, 8], [15, 8]]  # from ground seen into the dark
LINE = {"shape": "line", "color": "#ff0000", "width": 2}


@database_sync_to_async
def fog_on(room):
    gm = get_user_model().objects.get(pk=room.users["gm"])
    Token.objects.filter(pk=room.tokens["tenrec"]).update(x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)


@database_sync_to_async
def log_length(room) -> int:
    return RoomEvent.objects.filter(campaign_id=room.campaign_id).count()


@database_sync_to_async
def stored() -> int:
    return Drawing.objects.count()


@database_sync_to_async
def gm_only_drawing(room):
    gm = get_user_model().objects.get(pk=room.users["gm"])
    services.campaign_update_settings(
        campaign_id=room.campaign_id, by=gm, settings={"drawing": "gm"}
    )


def strokes(frames) -> list[dict]:
    return [f for f in frames if f["type"] == "drawing.stroke"]


def stroke(key="s1", points=WEST, **fields) -> dict:
    return {
        "type": "drawing.stroke",
        "id": f"st-{key}",
        "stroke": key,
        **LINE,
        "points": points,
        **fields,
    }


async def alive(client) -> None:
    await client.send({"type": "ping", "id": "alive"})
    await client.until(lambda f: f["type"] == "pong" and f["id"] == "alive")


async def test_a_stroke_reaches_everyone_else_and_is_never_stored(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    before = await log_length(room)
    pen = [[1, 1], [1.5, 1.25], [2, 2]]
    ack = await player.ask(stroke("k1", pen, shape="pen"))
    assert ack == {"type": "ack", "id": "st-k1", "intent": "drawing.stroke", "scene": room.scene_id}
    for client in (gm, observer):
        frame = await client.until(lambda f: f["type"] == "drawing.stroke")
        assert frame == {
            "type": "drawing.stroke",
            "scene": room.scene_id,
            "stroke": "k1",
            "from": 0,
            "by": {"id": room.users["player"], "name": player.first["you"]["name"]},
            "shape": "pen",
            "layer": "shared",
            "color": "#ff0000",
            "width": 2,
            "points": pen,
            "text": "",
        }
    assert not strokes(await player.drain(0.2))  # not echoed
    assert await log_length(room) == before and await stored() == 0


async def test_the_finished_drawing_is_stored_with_its_stroke_key(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    ack = await player.ask(
        {"type": "drawing.add", "id": "a1", **LINE, "points": WEST, "stroke": "k1"}
    )
    assert ack["type"] == "ack" and ack["intent"] == "drawing.add"
    drawing_id = ack["drawing"]["id"]
    assert ack["drawing"]["by"]["id"] == room.users["player"]
    assert await stored() == 1
    event = await gm.event("drawing.added")
    assert event["data"]["stroke"] == "k1"
    assert event["data"]["drawing"] == ack["drawing"]
    assert (await player.event("drawing.added"))["data"]["drawing"]["id"] == drawing_id
    # A snapshot carries it on its scene.
    late = await clients(room, "other")
    assert [d["id"] for d in late.first["scene"]["drawings"]] == [drawing_id]


async def test_a_member_moves_and_removes_their_own_and_the_gm_clears(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    drawing_id = (await player.ask({"type": "drawing.add", "id": "a", **LINE, "points": WEST}))[
        "drawing"
    ]["id"]
    refused = await other.ask(
        {"type": "drawing.move", "id": "o", "drawing": drawing_id, "dx": 1, "dy": 0}
    )
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    moved = await player.ask(
        {"type": "drawing.move", "id": "m", "drawing": drawing_id, "dx": 1, "dy": -0.5}
    )
    assert moved["drawing"]["points"] == [[4.5, 8], [5, 8.5]]
    event = await other.event("drawing.moved")
    assert event["data"]["drawing"]["points"] == [[4.5, 8], [5, 8.5]]
    off = await player.ask(
        {"type": "drawing.move", "id": "off", "drawing": drawing_id, "dx": 30, "dy": 0}
    )
    assert (off["type"], off["code"]) == ("error", "out_of_bounds")

    # The player's undo of their stroke.
    gone = await player.ask({"type": "drawing.remove", "id": "r", "drawing": drawing_id})
    assert gone["type"] == "ack"
    event = await gm.event("drawing.removed")
    assert (event["data"]["id"], event["data"]["scene"]) == (drawing_id, room.scene_id)
    assert await stored() == 0

    for who in (player, gm):
        await who.ask({"type": "drawing.add", "id": "again", **LINE, "points": WEST})
    refused = await player.ask({"type": "drawing.clear", "id": "c"})
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    cleared = await gm.ask({"type": "drawing.clear", "id": "c", "layer": "shared"})
    assert cleared["type"] == "ack" and len(cleared["ids"]) == 2
    event = await other.event("drawing.cleared")
    assert sorted(event["data"]["ids"]) == sorted(cleared["ids"])
    assert event["data"]["scene"] == room.scene_id and await stored() == 0


async def test_who_may_draw_is_the_tables_setting_and_observers_never(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    for frame in (stroke(), {"type": "drawing.add", "id": "a", **LINE, "points": WEST}):
        refused = await observer.ask(frame)
        assert (refused["type"], refused["code"]) == ("error", "forbidden")
        assert "observer" in refused["message"]
    await gm_only_drawing(room)
    # The stroke relay may take a moment to hear of the setting; the
    # finished drawing is refused at once.
    refused = await player.ask({"type": "drawing.add", "id": "p", **LINE, "points": WEST})
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert await stored() == 0
    assert (await gm.ask({"type": "drawing.add", "id": "g", **LINE, "points": WEST}))[
        "type"
    ] == "ack"
    await alive(observer)
    await alive(player)


async def test_strokes_are_limited_per_member_and_the_socket_stays(room, clients):
    player = await clients(room, "player")
    answers = [await player.ask(stroke(f"r{i}")) for i in range(26)]
    kinds = [a["type"] for a in answers]
    assert "error" in kinds and kinds[0] == "ack"
    refused = next(a for a in answers if a["type"] == "error")
    assert refused["code"] == "rate_limited" and "wait" in refused["message"]
    await alive(player)


async def test_a_huge_drawing_is_refused_and_the_socket_stays(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    before = await log_length(room)
    huge = [[1 + i % 10, 1 + (i // 10) % 5] for i in range(100_000)]
    for kind in ("drawing.add", "drawing.stroke"):
        frame = {"type": kind, "id": "huge", "stroke": "h", **LINE, "shape": "pen", "points": huge}
        # Refused before it is read: its id is not known, so not echoed.
        await player.send(frame)
        refused = await player.until(lambda f: f["type"] == "error")
        assert (refused["code"], refused["id"]) == ("too_large", None)
        assert "2000 points" in refused["message"]
    # 2001 points fit in a frame and are refused by count.
    many = [[1, 1]] * 2001
    refused = await player.ask(
        {"type": "drawing.add", "id": "many", **LINE, "shape": "pen", "points": many}
    )
    assert (refused["code"], refused["field"]) == ("too_many", "points")
    assert "at most 2000" in refused["message"]
    # 2000 points of fractions fit, and are kept.
    full = [[round(1 + (i % 1000) * 0.0137, 3), round(1 + i * 0.00731, 3)] for i in range(2000)]
    ok = await player.ask(
        {"type": "drawing.add", "id": "full", **LINE, "shape": "pen", "points": full}
    )
    assert ok["type"] == "ack"
    assert not strokes(await gm.drain(0.2))
    assert await log_length(room) == before + 1
    await alive(player)


async def test_gm_layer_strokes_and_drawings_reach_the_gms_alone(room, clients):
    gm = await clients(room, "gm")
    second_gm_tab = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    await gm.ask(stroke("secret", layer="gm"))
    seen = await second_gm_tab.until(lambda f: f["type"] == "drawing.stroke")
    assert seen["layer"] == "gm"
    added = await gm.ask({"type": "drawing.add", "id": "a", **LINE, "points": WEST, "layer": "gm"})
    assert added["type"] == "ack"
    assert (await second_gm_tab.event("drawing.added"))["data"]["drawing"]["layer"] == "gm"
    for client in (player, observer):
        frames = await client.drain(0.3)
        assert not strokes(frames)
        assert "drawing.added" not in json.dumps(frames) and "secret" not in json.dumps(frames)


async def test_on_a_fog_scene_a_stroke_reaches_the_groups_that_see_some_of_it(room, clients):
    await fog_on(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    await gm.ask(stroke("dark", EAST))
    await gm.ask(stroke("lit", ACROSS))
    for client in (player, observer):
        seen = await client.until(lambda f: f["type"] == "drawing.stroke")
        assert seen["stroke"] == "lit"
        assert not [f for f in strokes(await client.drain(0.2)) if f["stroke"] == "dark"]
    # A player's stroke into the dark reaches the GM.
    await player.ask(stroke("into", EAST))
    assert (await gm.until(lambda f: f["type"] == "drawing.stroke"))["stroke"] == "into"
    assert not strokes(await observer.drain(0.2))
    # A pen's part drawn on into the dark goes to the GM alone, though the
    # party saw the stroke begin.
    await gm.ask(stroke("on", WEST, shape="pen"))
    for client in (player, observer):
        assert (await client.until(lambda f: f["type"] == "drawing.stroke"))["stroke"] == "on"
    await gm.ask(stroke("on", EAST, shape="pen", **{"from": 2}))
    assert not strokes(await observer.drain(0.3)) and not strokes(await player.drain(0.1))


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"points": [[1, 1], [21, 1]]}, "out_of_bounds", "points[1]"),
        ({"points": [[1, 1], [1, 1], [2, 2]]}, "too_many", "points"),
        ({"points": [[1, 1], [1, 1]] * 1001, "shape": "pen"}, "too_many", "points"),
        ({"color": "red"}, "invalid", "color"),
        ({"width": 9}, "invalid", "width"),
        ({"shape": "star"}, "invalid", "shape"),
        ({"layer": "top"}, "invalid", "layer"),
        ({"stroke": "k" * 41}, "invalid", "stroke"),
        ({"scene": 10**9}, "invalid", "scene"),
        # A part of a pen's stroke past the most points a stroke may have.
        ({"from": 1999, "points": [[1, 1], [2, 2]], "shape": "pen"}, "too_many", "points"),
        ({"from": -1}, "invalid", "from"),
    ],
)
async def test_a_bad_stroke_is_refused_and_the_socket_stays(room, clients, fields, code, field):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    refused = await player.ask({**stroke(), **fields})
    assert refused["type"] == "error"
    assert (refused["code"], refused["field"]) == (code, field)
    assert not strokes(await gm.drain(0.2))
    await alive(player)


class _Hub:
    def __init__(self):
        self.sent = []

    def publish_preview(self, room, text, **extra):
        self.sent.append((json.loads(text), extra))


class _Socket:
    room, user_id, conn_id = 3, 7, "c"

    def __init__(self):
        self.hub = _Hub()


def _frame(points, start=0):
    return {"type": "drawing.stroke", "stroke": "k", "from": start, "points": points}


async def test_held_previews_join_and_a_stored_stroke_drops_its_own():
    from vtt.live.drawing_strokes import StrokeRelay

    socket = _Socket()
    relay = StrokeRelay(socket)
    relay.hold("k", _frame([[1, 1]]), False, None)  # the first goes at once
    relay.hold("k", _frame([[2, 2]], 1), False, ["party"])
    relay.hold("k", _frame([[3, 3], [4, 4]], 2), False, ["u5"])
    assert len(socket.hub.sent) == 1 and relay.flush is not None
    relay.flush.cancel()
    relay.send_later()  # the timer's turn: the parts held meanwhile, as one
    assert [(f["from"], f["points"]) for f, _ in socket.hub.sent] == [
        (0, [[1, 1]]),
        (1, [[2, 2], [3, 3], [4, 4]]),
    ]
    # Whoever saw a part sees the whole; no key, so no socket's queue lets
    # one part replace another.
    assert socket.hub.sent[1][1] == {"origin": "c", "gm_only": False, "groups": ["party", "u5"]}
    relay.hold("k", _frame([[5, 5]], 5), False, ["party"])
    relay.hold("k", _frame([[1, 1], [9, 9]]), False, ["party"])  # whole again: it replaces
    relay.flush.cancel()
    relay.send_later()
    assert socket.hub.sent[2][0]["points"] == [[1, 1], [9, 9]]
    relay.hold("k", _frame([[1, 1]] * 4), True, None)
    relay.forget("k")  # its drawing.add came in: the preview is not sent after it
    relay.flush.cancel()
    relay.send_later()
    assert len(socket.hub.sent) == 3
    relay.cancel()


async def test_a_pens_previews_carry_what_it_gained_and_the_stored_drawing_is_whole(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    pen = [[1, 1], [1.5, 1.25], [2, 2], [2.5, 3]]
    await player.ask(stroke("k2", pen[:2], shape="pen"))
    await player.ask(stroke("k2", pen[2:], shape="pen", **{"from": 2}))
    # The first part goes at once; the second, within the relay's tenth of
    # a second, after it.
    parts = []
    for _ in range(2):
        frame = await gm.until(lambda f: f["type"] == "drawing.stroke")
        parts.append((frame["from"], frame["points"]))
    assert parts == [(0, pen[:2]), (2, pen[2:])]
    added = await player.ask({"type": "drawing.add", "id": "a2", "stroke": "k2", **LINE,
                              "shape": "pen", "points": pen})  # fmt: skip
    assert added["drawing"]["points"] == pen


async def test_strokes_that_come_together_share_one_read_of_the_rooms_map(room):
    from vtt.live.drawing_strokes import room_map

    maps = await asyncio.gather(*(room_map(room.campaign_id) for _ in range(6)))
    assert maps[0].scene == room.scene_id and (maps[0].width, maps[0].height) == (20, 20)
    # One read handed to all six: six reads would make six maps.
    assert all(found is maps[0] for found in maps)
    assert await room_map(room.campaign_id) is maps[0]  # and kept a moment


async def test_a_drawing_moved_out_of_sight_is_gone_for_those_who_saw_it(room, clients):
    await fog_on(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    added = await gm.ask({"type": "drawing.add", "id": "a", **LINE, "points": WEST})
    drawing_id = added["drawing_id"]
    assert (await player.event("drawing.added"))["data"]["drawing"]["id"] == drawing_id
    # Into the dark, east of the wall: the party saw it go, not where.
    await gm.ask({"type": "drawing.move", "id": "m", "drawing": drawing_id, "dx": 11, "dy": 0})
    moved = await gm.event("drawing.moved")
    assert moved["data"]["from"] == WEST  # the GM's copy alone says where it lay
    gone = await player.until(lambda f: f.get("event", {}).get("seq") == moved["seq"])
    assert gone["event"]["type"] == "drawing.removed"
    assert gone["event"]["data"] == {"id": drawing_id, "scene": room.scene_id, "points": WEST}
    # And back: it comes whole, where it now is.
    await gm.ask({"type": "drawing.move", "id": "b", "drawing": drawing_id, "dx": -11, "dy": 0})
    back = await player.event("drawing.moved")
    assert back["data"]["drawing"]["points"] == WEST
    assert "14.5" not in json.dumps(player.seen)  # where it lay in the dark
