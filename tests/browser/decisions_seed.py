"""A table for the decisions queue: Apocalyptia (the GM applies the damage),
the player's Tenrec with a machete beside the GM's thug. Run in a
subprocess against the database the test's daphne serves."""

import json

from tests.browser.room_seed import PASSWORD, character_on, joined_table


def seed() -> dict:
    from tests.browser.seating import gm_and_player
    from tests.combat.battle import APOCALYPTIA_SHEETS, APOCALYPTIA_WEAPONS

    gm, player = gm_and_player(PASSWORD)
    campaign, scene = joined_table(
        gm, player, "The Docks", "apocalyptia", "Pier", width=10, height=6, walls=[]
    )
    tenrec, _ = character_on(
        scene,
        gm,
        "Tenrec",
        "pc",
        player,
        3,
        3,
        sheet=APOCALYPTIA_SHEETS["tenrec"],
        weapons=APOCALYPTIA_WEAPONS["tenrec"],
    )
    thug, character = character_on(
        scene,
        gm,
        "Thug",
        "npc",
        None,
        4,
        3,
        sheet=APOCALYPTIA_SHEETS["zombie"],
        weapons=APOCALYPTIA_WEAPONS["zombie"],
    )
    return {
        "campaign": campaign.pk,
        "tokens": {"tenrec": tenrec, "thug": thug},
        "thug": character.pk,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
