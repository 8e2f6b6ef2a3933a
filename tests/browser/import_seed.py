"""A table waiting for a map, for the browser test of the Universal VTT
import (tests/browser/test_uvtt_import.py): an Artifice campaign whose
active scene is the Road (lit, no walls), and the Undercroft, a bare
12 x 10 scene under fog that the GM gives a map by importing a file.
Tenrec, the player's, already stands in the Undercroft's west room at
(2, 4); a goblin waits in the east room at (10, 7). Players may open doors
next to their tokens. Run in a subprocess against the database the test's
daphne serves.

`undercroft()` is the map file the test uploads: the tests' dungeon
(tests/tabletop/uvtt_files.py) with both its doors in the wall between the
rooms, its lights moved so the east room is dark but for an ember in its
far corner, no ambient light, and a picture painted from its geometry."""

import base64
import json

from tests.tabletop.uvtt_files import changed, dungeon, encode, painted, point

PASSWORD = "browser-test-pass-1"

TENREC_AT = (2, 4)
GOBLIN_AT = (10, 7)
# The wall at x = 6 between the rooms: its doors at y 4..5 and 7..8.
DOOR, SECOND_DOOR = (6, 4, 6, 5), (6, 7, 6, 8)


def undercroft(pixels_per_grid=80) -> dict:
    doc = dungeon()
    doc = changed(["line_of_sight", 2], [point(6, 5), point(6, 7)], doc)
    doc["line_of_sight"].append([point(6, 8), point(6, 10)])
    doc = changed(
        ["portals", 1],
        {
            "position": point(6, 7.5),
            "bounds": [point(6, 7), point(6, 8)],
            "rotation": 1.5708,
            "closed": True,
            "freestanding": False,
        },
        doc,
    )
    # A brazier in the west room's south-west corner instead of the east
    # room's lamp: the east room has only the ember in its far corner.
    doc = changed(["lights", 1, "position"], point(1.5, 8.5), doc)
    doc = changed(["lights", 1, "range"], 3, doc)
    doc = changed(["lights", 1, "color"], "ffffc27a", doc)
    doc = changed(["environment", "ambient_light"], "ff101010", doc)
    doc["resolution"]["pixels_per_grid"] = pixels_per_grid
    doc["image"] = base64.b64encode(painted(doc, pixels_per_grid)).decode()
    return doc


def undercroft_file() -> bytes:
    return encode(undercroft())


def seed() -> dict:
    from vtt.tabletop import services

    from .seating import gm_and_player, joined_campaign

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Undercroft")
    services.campaign_update_settings(
        campaign_id=campaign.pk, by=gm, settings={"players_open_doors": True}
    )
    road = services.scene_create(campaign_id=campaign.pk, by=gm, name="Road", width=8, height=6)
    services.scene_activate(scene_id=road.pk, by=gm)
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Undercroft", width=12, height=10, fog=True
    )
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Tenrec", owner_id=player.pk
    )
    token = services.token_create(
        scene_id=scene.pk,
        by=gm,
        name="Tenrec",
        x=TENREC_AT[0],
        y=TENREC_AT[1],
        color="#2266aa",
        character_id=tenrec.pk,
        controllers=[player.pk],
    )
    goblin = services.token_create(
        scene_id=scene.pk, by=gm, name="Goblin", x=GOBLIN_AT[0], y=GOBLIN_AT[1], color="#5f7a2a"
    )
    return {
        "campaign": campaign.pk,
        "scene": scene.pk,
        "road": road.pk,
        "tenrec": token.pk,
        "goblin": goblin.pk,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
