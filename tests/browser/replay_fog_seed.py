"""A played session under fog of war for the replay's browser tests, in
tests/browser/fog_seed.py's Vault (lit, a wall at column 7 with a door,
a window and a second door; a walled closet in the east room's corner). The
player's Tenrec steps west before session 1; in it the GM opens the door,
Tenrec walks through into the east room where the ghoul waits, and the GM
closes the door behind him; the session ends. Besides the ids, the seed
says what the party's fog made of each square when the session ended
(from the server's stored view and explored area): the replay's last step
must draw the same. Run in a subprocess against the database the test's
daphne serves."""

import json

from tests.browser.fog_seed import PASSWORD, vault

DOOR = 1  # WALLS[1]


def squares(scene) -> dict:
    """The party's fog at the middle of each square, as the server keeps it
    now: "x,y" -> "view", "explored" or "unexplored"."""
    import shapely

    from vtt.rules import sight
    from vtt.tabletop.models import SceneSight

    record = SceneSight.objects.get(scene=scene, group="party")
    view, explored = sight.from_path(record.view), sight.from_path(record.explored)
    out = {}
    for x in range(scene.width):
        for y in range(scene.height):
            point = shapely.Point(x + 0.5, y + 0.5)
            what = "unexplored"
            if view.contains(point):
                what = "view"
            elif explored.contains(point):
                what = "explored"
            out[f"{x},{y}"] = what
    return out


def seed() -> dict:
    from vtt import dice
    from vtt.tabletop import services
    from vtt.tabletop.services.scenes import scene_set_door

    table = vault(players_open_doors=False, ghoul_at=(11, 2))
    gm, player, scene, token = table.gm, table.player, table.scene, table.tenrec
    campaign = table.campaign
    services.token_move(token_id=token.pk, by=player, x=4, y=3)  # before the session
    dice.session_start(campaign_id=campaign.pk, by=gm)
    scene_set_door(scene_id=scene.pk, by=gm, wall=DOOR, state="open")
    for x, y in ((6, 3), (8, 3), (9, 2)):
        services.token_move(token_id=token.pk, by=player, x=x, y=y)
    scene_set_door(scene_id=scene.pk, by=gm, wall=DOOR, state="closed")
    dice.session_end(campaign_id=campaign.pk, by=gm)
    scene.refresh_from_db()
    return {
        "campaign": campaign.pk,
        "tenrec": token.pk,
        "ghoul": table.ghoul.pk,
        "wraith": table.wraith.pk,
        "fog_at_end": squares(scene),
        "users": {"gm": gm.pk, "player": player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
