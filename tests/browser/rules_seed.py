"""The rules kept at the table, seeded: the Artifice demo ("The Tomb") for
the browser tests' GM and player, its Zombie Incapacitated, the Skeleton
archer beside Kobor, and an encounter in which it is Kobor's turn (the demo
campaign keeps attacks to turns). Run in a subprocess against the database
the test's daphne serves; prints one line of JSON."""

import json

from tests.browser.room_seed import PASSWORD

ORDER = {"Kobor": 30, "Tenrec": 20, "Skeleton archer": 10, "Zombie": 5}


def seed() -> dict:
    from django.contrib.auth import get_user_model

    from vtt.combat.services.encounters import (
        encounter_next,
        encounter_set_initiative,
        encounter_start,
    )
    from vtt.demo import DEMOS
    from vtt.demo.build import lay_out
    from vtt.tabletop.models import Campaign, Character, Token

    users = get_user_model().objects
    gm = users.create_user("gm", password=PASSWORD)
    player = users.create_user("player", password=PASSWORD)
    demo = next(d for d in DEMOS if d.game == "artifice")
    lay_out(demo, gm, player)
    campaign = Campaign.objects.get(name=demo.campaign, memberships__user=gm)
    zombie = Character.objects.get(campaign=campaign, name="Zombie")
    zombie.resources = {**zombie.resources, "condition": "Incapacitated"}
    zombie.save(update_fields=["resources"])
    Token.objects.filter(scene_id=campaign.active_scene_id, name="Skeleton archer").update(x=1, y=9)
    encounter = encounter_start(scene_id=campaign.active_scene_id, by=gm)
    for combatant in encounter.combatants.all():
        encounter_set_initiative(
            encounter_id=encounter.pk,
            by=gm,
            combatant_id=combatant.pk,
            initiative=ORDER[combatant.name],
        )
    encounter_next(encounter_id=encounter.pk, by=gm)
    tokens = Token.objects.filter(scene_id=campaign.active_scene_id)
    return {
        "campaign": campaign.pk,
        "tokens": {t.name: t.pk for t in tokens},
        "zombie": zombie.pk,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
