"""A table for the handouts browser test: a GM and two players ("player",
"other") in an Artifice campaign with a scene. Run in a subprocess against
the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-handouts-pass-1"


def seed() -> dict:
    from tests import factories

    gm, player = gm_and_player(PASSWORD)
    other = factories.person("other", PASSWORD)
    campaign = joined_campaign(gm, player, "The Duke's Letter")
    factories.invited(campaign, gm, other)
    factories.scene(campaign, gm, "Hall", active=True)
    return {"campaign": campaign.pk, "password": PASSWORD}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
