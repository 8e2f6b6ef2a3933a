"""Turn order: start, initiative rolled or set, turns and rounds, the game
clock, the end; players see no hidden combatant; only GMs run it."""

import pytest

from vtt.combat.models import Encounter
from vtt.combat.selectors import scene_encounter
from vtt.combat.services.encounters import (
    encounter_add,
    encounter_end,
    encounter_next,
    encounter_remove,
    encounter_roll_initiative,
    encounter_set_initiative,
    encounter_start,
)
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.policy import event_view
from vtt.tabletop.services import token_set_hidden
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.visibility import Viewer


def start(battle, **kwargs):
    return encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"], **kwargs)


def names(battle, gm=True):
    view = scene_encounter(scene_id=battle.scene.pk, by=battle.users["gm" if gm else "player"])
    return [c["name"] for c in view["order"]], view


def test_initiative_rolls_order_the_fight_and_rounds_count(battle):
    encounter = start(battle)
    # Agility checks in joining order (Tenrec 2D, Zombie 2D, Kobor 2D):
    # Tenrec 1 success, Zombie 0, Kobor 2.
    encounter_roll_initiative(
        encounter_id=encounter.pk, by=battle.users["gm"], faces=[4, 2, 1, 2, 5, 5]
    )
    order, view = names(battle)
    assert order == ["Kobor", "Tenrec", "Zombie"]
    assert [c["initiative"] for c in view["order"]] == [2, 1, 0]
    assert view["round"] == 1 and view["current"] is None
    event = RoomEvent.objects.filter(kind="encounter.initiative").get()
    assert [r["initiative"] for r in event.data["rolls"]] == [1, 0, 2]
    assert event.data["rolls"][0]["request"]["pool"] == 2
    assert event.data["physical"] is True

    seen = []
    for _ in range(4):
        encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
        _, view = names(battle)
        seen.append((view["round"], view["order"][view["turn"]]["name"]))
    assert seen == [(1, "Kobor"), (1, "Tenrec"), (1, "Zombie"), (2, "Kobor")]
    assert view["game_time"] == {"seconds": 20, "round_seconds": 20, "turn_seconds": 10}
    assert RoomEvent.objects.filter(kind="encounter.turn").count() == 4


def test_ties_keep_the_order_of_joining_and_the_gm_may_set_initiative(battle):
    encounter = start(battle, tokens=[battle.tokens["zombie"].pk, battle.tokens["tenrec"].pk])
    assert names(battle)[0] == ["Zombie", "Tenrec"]
    tenrec = encounter.combatants.get(name="Tenrec")
    encounter_set_initiative(
        encounter_id=encounter.pk, by=battle.users["gm"], combatant_id=tenrec.pk, initiative=3
    )
    assert names(battle)[0] == ["Tenrec", "Zombie"]
    encounter_add(
        encounter_id=encounter.pk, by=battle.users["gm"], token_id=battle.tokens["kobor"].pk
    )
    assert names(battle)[0] == ["Tenrec", "Zombie", "Kobor"]


def test_removing_the_current_combatant_passes_the_turn(battle):
    encounter = start(battle)
    encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
    current = Encounter.objects.get(pk=encounter.pk).current
    assert current.name == "Tenrec"
    encounter_remove(encounter_id=encounter.pk, by=battle.users["gm"], combatant_id=current.pk)
    order, view = names(battle)
    assert order == ["Zombie", "Kobor"] and view["order"][view["turn"]]["name"] == "Zombie"


def test_only_a_gm_runs_the_encounter_and_a_player_rolls_their_own(battle):
    with pytest.raises(NotAllowed):
        encounter_start(scene_id=battle.scene.pk, by=battle.users["player"])
    encounter = start(battle)
    for call in (encounter_next, encounter_end):
        with pytest.raises(NotAllowed):
            call(encounter_id=encounter.pk, by=battle.users["player"])
    encounter_roll_initiative(encounter_id=encounter.pk, by=battle.users["player"], faces=[4, 4])
    rolled = {c.name: c.initiative for c in encounter.combatants.all()}
    assert rolled == {"Tenrec": 2, "Zombie": None, "Kobor": None}
    with pytest.raises(ServiceError) as none_left:
        encounter_roll_initiative(encounter_id=encounter.pk, by=battle.users["player"])
    assert none_left.value.code == "nothing_to_roll"
    tenrec = encounter.combatants.get(name="Tenrec")
    with pytest.raises(NotAllowed):  # no re-rolls: that is the GM's call
        encounter_roll_initiative(
            encounter_id=encounter.pk, by=battle.users["player"], combatants=[tenrec.pk]
        )
    zombie = encounter.combatants.get(name="Zombie")
    with pytest.raises(NotAllowed):
        encounter_roll_initiative(
            encounter_id=encounter.pk, by=battle.users["player"], combatants=[zombie.pk]
        )
    with pytest.raises(NotAllowed):
        encounter_set_initiative(
            encounter_id=encounter.pk,
            by=battle.users["player"],
            combatant_id=zombie.pk,
            initiative=9,
        )


def test_one_encounter_runs_per_scene_until_it_ends(battle):
    encounter = start(battle)
    with pytest.raises(ServiceError) as running:
        start(battle)
    assert running.value.code == "encounter_running"
    encounter_end(encounter_id=encounter.pk, by=battle.users["gm"])
    assert scene_encounter(scene_id=battle.scene.pk, by=battle.users["gm"]) is None
    with pytest.raises(ServiceError) as over:
        encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
    assert over.value.code == "encounter_ended"
    assert start(battle).pk != encounter.pk


def test_players_never_see_a_hidden_combatant(battle):
    token_set_hidden(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], hidden=True)
    encounter = start(battle)
    assert names(battle, gm=False)[0] == ["Tenrec", "Kobor"]
    assert names(battle)[0] == ["Tenrec", "Zombie", "Kobor"]
    encounter_roll_initiative(encounter_id=encounter.pk, by=battle.users["gm"])
    encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
    player = Viewer(battle.users["player"].pk, "player")
    gm = Viewer(battle.users["gm"].pk, "gm")
    for event in RoomEvent.objects.filter(kind__startswith="encounter."):
        seen = event_view(event, player)
        assert "Zombie" not in str(seen)
        assert "Zombie" in str(event_view(event, gm))
