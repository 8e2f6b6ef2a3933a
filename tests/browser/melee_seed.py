"""A melee for the browser tests: an Artifice table with a map too big for a
phone to show whole at a readable size (30 x 20 squares), eight characters
packed two rows deep in its middle, each at another wound state of the
track (the player's Tenrec among them), an encounter running over them,
and one dice session played and ended (its check, replay and journal
pages). Run in a subprocess against the database the test's daphne
serves; prints one line of JSON."""

import json

from tests.browser.room_seed import PASSWORD, character_on, joined_table

# Name, wound state; the first row from (11, 9), the second under it.
MELEE = (
    ("Tenrec", "Hurt"),
    ("Zombie", "Incapacitated"),
    ("Ghoul", "Wounded"),
    ("Skeleton", "Critical"),
    ("Kobor", "Injured"),
    ("Wight", "Incapacitated"),
    ("Rat swarm", "Hurt"),
    ("Cultist", "Wounded"),
)


def seed() -> dict:
    from tests.browser.seating import gm_and_player
    from vtt import dice
    from vtt.combat.services.encounters import encounter_start
    from vtt.tabletop import services

    gm, player = gm_and_player(PASSWORD)
    campaign, scene = joined_table(
        gm, player, "The Melee", "artifice", "Crossroads", width=30, height=20
    )
    tokens = {}
    for i, (name, state) in enumerate(MELEE):
        owner = player if name == "Tenrec" else None
        tokens[name], character = character_on(
            scene, gm, name, "pc" if owner else "npc", owner, 11 + i % 4, 9 + i // 4
        )
        services.character_update(character_id=character.pk, by=gm, resources={"condition": state})
    dice.session_start(campaign_id=campaign.pk, by=gm)
    dice.session_end(campaign_id=campaign.pk, by=gm)
    encounter_start(scene_id=scene.pk, by=gm)
    return {
        "campaign": campaign.pk,
        "character": character.pk,
        "tokens": tokens,
        "states": dict(MELEE),
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
