"""Passing the turn goes over combatants out of the fight by their wound
track (Incapacitated, Dead, Dying), unless the campaign's `skip_fallen` is
off; when everyone is out, the turn passes as if nobody were. Rounds still
count when the skipping wraps past the end of the order."""

import pytest

from vtt.combat.services.encounters import (
    encounter_next,
    encounter_remove,
    encounter_set_initiative,
    encounter_start,
)
from vtt.tabletop.models import Character
from vtt.tabletop.services import campaign_update

from .battle import make_battle


def ordered(battle):
    """An encounter in the order Kobor, Tenrec, Zombie, nobody's turn yet."""
    gm = battle.users["gm"]
    encounter = encounter_start(scene_id=battle.scene.pk, by=gm)
    for combatant in encounter.combatants.all():
        value = {"Kobor": 30, "Tenrec": 20, "Zombie": 10}[combatant.name]
        encounter_set_initiative(
            encounter_id=encounter.pk, by=gm, combatant_id=combatant.pk, initiative=value
        )
    return encounter


def fell(battle, key, **resources):
    character = Character.objects.get(pk=battle.characters[key].pk)
    Character.objects.filter(pk=character.pk).update(resources={**character.resources, **resources})


def turns(battle, encounter, count):
    seen = []
    for _ in range(count):
        encounter = encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
        seen.append((encounter.current.name, encounter.round))
    return seen


def test_the_incapacitated_and_the_dead_are_passed_over(battle):
    encounter = ordered(battle)
    fell(battle, "tenrec", condition="Incapacitated")
    assert turns(battle, encounter, 3) == [("Kobor", 1), ("Zombie", 1), ("Kobor", 2)]
    fell(battle, "kobor", condition="Dead")
    assert turns(battle, encounter, 2) == [("Zombie", 2), ("Zombie", 3)]


def test_a_campaign_may_keep_the_fallen_in_the_order(battle):
    campaign_update(
        campaign_id=battle.campaign.pk, by=battle.users["gm"], settings={"skip_fallen": False}
    )
    encounter = ordered(battle)
    fell(battle, "tenrec", condition="Dead")
    assert turns(battle, encounter, 3) == [("Kobor", 1), ("Tenrec", 1), ("Zombie", 1)]


def test_when_everyone_is_out_the_turn_still_passes(battle):
    encounter = ordered(battle)
    for key in ("kobor", "tenrec", "zombie"):
        fell(battle, key, condition="Incapacitated")
    assert turns(battle, encounter, 4) == [
        ("Kobor", 1),
        ("Tenrec", 1),
        ("Zombie", 1),
        ("Kobor", 2),
    ]


def test_removing_the_current_combatant_passes_over_the_fallen(battle):
    encounter = ordered(battle)
    turns(battle, encounter, 1)  # Kobor's turn
    fell(battle, "tenrec", condition="Incapacitated")
    kobor = encounter.combatants.get(name="Kobor")
    after = encounter_remove(
        encounter_id=encounter.pk, by=battle.users["gm"], combatant_id=kobor.pk
    )
    assert after.current.name == "Zombie"


@pytest.mark.django_db
def test_a_dying_xerosum_character_is_passed_over():
    battle = make_battle("xerosum")
    encounter = ordered(battle)
    fell(battle, "tenrec", wound_points=0)
    assert turns(battle, encounter, 2) == [("Kobor", 1), ("Zombie", 1)]
