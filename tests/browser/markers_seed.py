"""The table of the markers' browser test: an Rd6 campaign (its conditions
carry dice), a GM and a player, a crossroads with the player's Wren, a
bandit everyone sees and a hidden assassin. Run in a subprocess against the
database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"


def seed() -> dict:
    from tests import factories
    from vtt import dice
    from vtt.markers.services import marker_add
    from vtt.tabletop import services

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "Crossroads", game="rd6")
    wren = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Wren", owner_id=player.pk
    )
    scene = factories.scene(campaign, gm, "Crossroads", active=True, width=12, height=8)
    tokens = {
        "wren": factories.token(
            scene, gm, "Wren", 2, 3, color="#2266aa", character_id=wren.pk,
            controllers=[player.pk],
        ),
        "bandit": factories.token(scene, gm, "Bandit", 5, 3, color="#aa5522"),
        "assassin": factories.token(scene, gm, "Assassin", 9, 5, color="#222222", hidden=True),
    }  # fmt: skip
    # The next map, its ferryman marked already: in the open, and in secret.
    ford = factories.scene(campaign, gm, "Ford", width=12, height=8)
    ferryman = factories.token(ford, gm, "Ferryman", 4, 4, color="#556677")
    marker_add(campaign_id=campaign.pk, token_id=ferryman.pk, by=gm, condition_id="disadvantaged")
    marker_add(
        campaign_id=campaign.pk, token_id=ferryman.pk, by=gm, icon="flag", label="Takes a toll",
        gm_only=True,
    )  # fmt: skip
    # The evening's play: its replay shows the markers as they came.
    dice.session_start(campaign_id=campaign.pk, by=gm)
    return {
        "campaign": campaign.pk,
        "wren": wren.pk,
        "tokens": {key: token.pk for key, token in tokens.items()},
        "ford": ford.pk,
        "ferryman": ferryman.pk,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
