"""The GM's wall edits over the websocket (wall.add, wall.change,
wall.delete): the players' fog follows at once; a player's edit and bad
input are error frames on a socket that stays open, and change nothing."""

import pytest
from channels.db import database_sync_to_async

from vtt.tabletop.models import Scene

from .test_fog import WALLS, fog_scene

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def walls_of(room) -> list:
    return Scene.objects.get(pk=room.scene_id).walls


async def test_the_gm_moves_deletes_and_adds_a_wall_and_the_party_sees_at_once(room, clients):
    goblin = await fog_scene(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")

    # The door deleted: the goblin east of the wall comes into view.
    deleted = await gm.ask({"type": "wall.delete", "id": "d", "index": 1, "was": [10, 8, 10, 10]})
    assert deleted["type"] == "ack" and deleted["walls"] == [WALLS[0], WALLS[2]]
    opened = await player.event("scene.updated")
    assert [t["name"] for t in opened["data"]["sight"]["enter"]] == ["Goblin"]
    assert opened["data"]["scene"]["walls"] == [WALLS[0], WALLS[2]]

    # Put back as a new segment: the goblin is gone from the view again.
    await gm.ask({"type": "wall.add", "id": "a", "wall": [10, 8, 10, 10, "door"]})
    shut = await player.event("scene.updated")
    assert shut["data"]["sight"] == {"enter": [], "leave": [goblin]}

    # The door's lower end moved up: still a door, still shut.
    moved = await gm.ask(
        {
            "type": "wall.change",
            "id": "m",
            "index": 2,
            "was": [10, 8, 10, 10],
            "wall": [10, 8, 10, 9],
        }
    )
    assert moved["walls"][2] == [10, 8, 10, 9, "door"]
    changed = await player.event("scene.updated")
    assert changed["data"]["scene"]["walls"][2] == [10, 8, 10, 9, "door"]


@pytest.mark.parametrize(
    ("frame", "code", "field"),
    [
        ({"type": "wall.add", "wall": [3, 3, 3, 3]}, "invalid", "wall"),
        ({"type": "wall.add", "wall": [0, 0, 99, 0]}, "invalid", "wall[2]"),
        ({"type": "wall.delete", "index": 7, "was": [0, 0, 1, 1]}, "invalid", "wall"),
        ({"type": "wall.delete", "index": 0, "was": [10, 0, 10, 7]}, "invalid", "was"),
        (
            {"type": "wall.change", "index": 0, "was": [10, 0, 10, 8], "wall": [10, 0, 10, 30]},
            "invalid",
            "wall[3]",
        ),
        (
            {"type": "wall.change", "index": -1, "was": [10, 0, 10, 8], "wall": [1, 1, 2, 2]},
            "invalid",
            "index",
        ),
    ],
)
async def test_bad_edits_are_error_frames_and_the_socket_stays(room, clients, frame, code, field):
    await fog_scene(room)
    gm = await clients(room, "gm")
    refused = await gm.ask({**frame, "id": "x"})
    assert (refused["type"], refused["code"], refused["field"]) == ("error", code, field)
    assert await walls_of(room) == WALLS
    await gm.send({"type": "ping", "id": "still"})
    assert (await gm.until(lambda f: f["type"] == "pong"))["id"] == "still"


async def test_a_player_may_not_edit_walls(room, clients):
    await fog_scene(room)
    player = await clients(room, "player")
    for i, frame in enumerate(
        [
            {"type": "wall.add", "wall": [1, 1, 2, 2]},
            {"type": "wall.change", "index": 0, "was": [10, 0, 10, 8], "wall": [10, 0, 10, 4]},
            {"type": "wall.delete", "index": 0, "was": [10, 0, 10, 8]},
        ]
    ):
        refused = await player.ask({**frame, "id": f"p{i}"})
        assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert await walls_of(room) == WALLS
    assert await player.quiet()
