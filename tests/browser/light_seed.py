"""A dark room for the browser tests of lights: an Artifice campaign whose
active scene, the Cellar, has fog on and no light at all, a wall down
column 8 cutting off the east end. The player's Tenrec stands at (2, 3);
a rat waits at (5, 3), in the dark four squares east of him; a bat hangs
in the east room behind the wall. No light is on the scene yet. Run in a
subprocess against the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"

WALLS = [[8, 0, 8, 8]]


def seed() -> dict:
    from vtt.tabletop import services

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Cellar")
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Cellar",
        width=12,
        height=8,
        walls=WALLS,
        fog=True,
        lighting="dark",
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Tenrec", owner_id=player.pk
    )
    token = services.token_create(
        scene_id=scene.pk,
        by=gm,
        name="Tenrec",
        x=2,
        y=3,
        color="#2266aa",
        character_id=tenrec.pk,
        controllers=[player.pk],
    )
    rat = services.token_create(scene_id=scene.pk, by=gm, name="Rat", x=5, y=3, color="#7a5c3a")
    bat = services.token_create(scene_id=scene.pk, by=gm, name="Bat", x=10, y=3, color="#553355")
    return {
        "campaign": campaign.pk,
        "scene": scene.pk,
        "tenrec": token.pk,
        "rat": rat.pk,
        "bat": bat.pk,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
