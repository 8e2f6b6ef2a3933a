"""The table of the area templates' browser test: an Artifice campaign, a
GM and a player, a hall where the player's sorcerer Kobor (Frost ray, a
30-ft spell) faces a goblin and an orc, a hidden lurker between them that
only the GM sees, and a barrel with no sheet. Run in a subprocess against
the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"
SHEET = {"class": "Warrior", "abilities": {"Finesse": {"dice": 2, "kind": "standard"},
         "Might": {"dice": 2, "kind": "standard"}, "Agility": {"dice": 2, "kind": "standard"},
         "Toughness": {"dice": 3, "kind": "standard"}}}  # fmt: skip
KOBOR = {"class": "Sorcerer", "abilities": {"Arcanum": {"dice": 4, "kind": "class"},
         "Agility": {"dice": 2, "kind": "standard"},
         "Toughness": {"dice": 2, "kind": "standard"}}}  # fmt: skip
FROST_RAY = {"name": "Frost ray", "kind": "spell", "lethality": 1, "range_ft": 30}


def seed() -> dict:
    from tests import factories
    from vtt import dice

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "Hall of echoes")
    scene = factories.scene(campaign, gm, "Hall", active=True, width=14, height=10)
    kobor = factories.character(
        campaign, gm, "Kobor", owner_id=player.pk, sheet=KOBOR, weapons=[FROST_RAY]
    )
    npcs = {
        name: factories.character(campaign, gm, name, kind="npc", sheet=SHEET)
        for name in ("Goblin", "Orc", "Lurker")
    }
    tokens = {
        "kobor": factories.token(
            scene, gm, "Kobor", 2, 4, color="#2266aa", character_id=kobor.pk,
            controllers=[player.pk],
        ),
        "goblin": factories.token(scene, gm, "Goblin", 6, 3, character_id=npcs["Goblin"].pk),
        "orc": factories.token(scene, gm, "Orc", 7, 5, character_id=npcs["Orc"].pk),
        "lurker": factories.token(
            scene, gm, "Lurker", 6, 5, color="#222222", hidden=True,
            character_id=npcs["Lurker"].pk,
        ),
        "barrel": factories.token(scene, gm, "Barrel", 11, 8, color="#886633"),
    }  # fmt: skip
    dice.session_start(campaign_id=campaign.pk, by=gm)
    return {
        "campaign": campaign.pk,
        "tokens": {key: token.pk for key, token in tokens.items()},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
