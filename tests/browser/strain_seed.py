"""A table of Strain Sixes (tests/games/sixes.py): the player's Vex, with
Grit, beside the GM's Brute, already a little strained. Seeded
in the process that serves it (tests/browser/seeded_serve.py), which so
knows the game."""

import json

from tests.browser.room_seed import PASSWORD, character_on, joined_table

CLUB = {"name": "Club", "kind": "melee", "range_ft": None, "damage": 0}


def seed() -> dict:
    from tests.browser.seating import gm_and_player
    from tests.games import sixes
    from vtt import games

    games.register(sixes.STRAIN_KIT)
    gm, player = gm_and_player(PASSWORD)
    campaign, scene = joined_table(
        gm, player, "The Strain", sixes.STRAIN_KIT.id, "Pit", width=8, height=5, walls=[]
    )
    vex, _ = character_on(
        scene, gm, "Vex", "pc", player, 2, 2, sheet={"skills": {"Fight": 2}}, weapons=[CLUB]
    )
    brute, character = character_on(
        scene,
        gm,
        "Brute",
        "npc",
        None,
        3,
        2,
        sheet={"skills": {"Fight": 2}},
        weapons=[CLUB],
        resources={"grit": 0, "strain": 1},
    )
    return {"campaign": campaign.pk, "tokens": {"vex": vex, "brute": brute}, "password": PASSWORD}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
