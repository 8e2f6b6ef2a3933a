"""A map imported onto the scene the room is on reaches the room at once:
the players' sockets get the scene's new walls, doors and light in its
scene.updated event."""

import pytest
from channels.db import database_sync_to_async

from tests.tabletop.uvtt_files import changed, encode
from vtt.maps.importing import map_import

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@database_sync_to_async
def import_onto_the_room(room):
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(pk=room.users["gm"])
    doc = changed(["resolution", "map_size"], {"x": 20, "y": 20})
    scene, _ = map_import(scene_id=room.scene_id, by=gm, data=encode(doc), replace=True)
    return scene.walls


async def test_the_room_sees_the_imported_map_at_once(room, clients):
    player = await clients(room, "player")
    walls = await import_onto_the_room(room)
    updated = await player.event("scene.updated")
    scene = updated["data"]["scene"]
    assert scene["walls"] == walls and len(walls) == 14
    assert (scene["lighting"], scene["lit"], scene["baked_lighting"]) == ("dim", False, True)
    assert scene["background"].endswith(".webp")
