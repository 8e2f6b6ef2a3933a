"""A table to draw on for the browser tests: tests/browser/fog_seed.py's
Vault (fog on, the player's Tenrec in the west room, a closet in the east
room walled all round that no player ever sees), with the campaign's
`drawing` setting left at its default, everyone. Run in a subprocess
against the database the test's daphne serves."""

import json

from tests.browser.fog_seed import PASSWORD, vault


def seed() -> dict:
    table = vault()
    return {
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
