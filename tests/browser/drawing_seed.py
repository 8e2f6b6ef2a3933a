"""A table to draw on for the browser tests: tests/browser/fog_seed.py's
Vault (fog on, the player's Tenrec in the west room, a closet in the east
room walled all round that no player ever sees), with the campaign's
`drawing` setting left at its default, everyone, a second map, the
Crypt, to switch to and back, and a play session running (its replay). Run in a subprocess
against the database the test's daphne serves."""

import json

from tests.browser.fog_seed import PASSWORD, vault


def seed() -> dict:
    from vtt import dice
    from vtt.tabletop import services

    table = vault()
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)  # replayed while it runs
    crypt = services.scene_create(
        campaign_id=table.campaign.pk, by=table.gm, name="Crypt", width=10, height=6
    )
    return {
        "crypt": crypt.pk,
        "campaign": table.campaign.pk,
        "scene": table.scene.pk,
        "tenrec": table.tenrec.pk,
        "users": {"gm": table.gm.pk, "player": table.player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
