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

from tests.browser.fog_seed import PASSWORD, WALLS

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
    from django.contrib.auth import get_user_model

    from vtt.tabletop import services
    from vtt.tabletop.services.scenes import scene_set_door

    users = get_user_model().objects
    gm = users.create_user("gm", password=PASSWORD)
    player = users.create_user("player", password=PASSWORD)
    campaign = services.campaign_create(owner=gm, name="The Vault", game="artifice")
    invite = services.invite_create(campaign=campaign, by=gm, role="player")
    services.invite_accept(code=invite.code, user=player)
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Vault",
        width=14,
        height=8,
        walls=WALLS,
        fog=True,
        lit=True,
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Tenrec", owner_id=player.pk
    )
    token = services.token_create(
        scene_id=scene.pk,
        by=gm,
        name="Tenrec",
        x=5,
        y=3,
        character_id=tenrec.pk,
        controllers=[player.pk],
    )
    ghoul = services.token_create(scene_id=scene.pk, by=gm, name="Ghoul", x=11, y=2)
    wraith = services.token_create(scene_id=scene.pk, by=gm, name="Closet Wraith", x=13, y=6)
    services.token_move(token_id=token.pk, by=player, x=4, y=3)  # before the session
    services.session_start(campaign_id=campaign.pk, by=gm)
    scene_set_door(scene_id=scene.pk, by=gm, wall=DOOR, state="open")
    for x, y in ((6, 3), (8, 3), (9, 2)):
        services.token_move(token_id=token.pk, by=player, x=x, y=y)
    scene_set_door(scene_id=scene.pk, by=gm, wall=DOOR, state="closed")
    services.session_end(campaign_id=campaign.pk, by=gm)
    scene.refresh_from_db()
    return {
        "campaign": campaign.pk,
        "tenrec": token.pk,
        "ghoul": ghoul.pk,
        "wraith": wraith.pk,
        "fog_at_end": squares(scene),
        "users": {"gm": gm.pk, "player": player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
