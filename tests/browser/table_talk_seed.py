"""A table for the log and chat browser tests: a GM and a player in an
Artifice campaign with a scene, where the player has one character
(Tenrec), and a second campaign where the player has two (Ash and Bram).
Run in a subprocess against the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-talk-pass-1"


def seed() -> dict:
    from tests import factories
    from vtt import dice

    gm, player = gm_and_player(PASSWORD)

    def table(name, *characters):
        campaign = joined_campaign(gm, player, name)
        for character in characters:
            factories.character(campaign, gm, character, owner_id=player.pk)
        factories.scene(campaign, gm, "Hall", active=True)
        dice.session_start(campaign_id=campaign.pk, by=gm)
        return campaign.pk

    return {
        "campaign": table("The Long Table", "Tenrec"),
        "two_hands": table("Two Hands", "Ash", "Bram"),
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
