"""The wall editor's table: a GM, an Artifice campaign and the demo's tomb
(its painted map and its walls) to draw doors and windows on. Run in a
subprocess against the database the test's daphne serves."""

import json

PASSWORD = "browser-test-pass-1"


def seed() -> dict:
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from tests import factories
    from vtt.games.artifice import demo as artifice
    from vtt.tabletop import services

    gm = get_user_model().objects.create_user("gm", password=PASSWORD)
    campaign = factories.campaign(gm, name="The Tomb", game="artifice")
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Tomb",
        width=artifice.WIDTH,
        height=artifice.HEIGHT,
        walls=artifice.WALLS,
    )
    services.scene_set_background(
        scene_id=scene.pk, by=gm, image=ContentFile(artifice.paint(), name="tomb.jpg")
    )
    return {"campaign": campaign.pk, "scene": scene.pk, "password": PASSWORD}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
