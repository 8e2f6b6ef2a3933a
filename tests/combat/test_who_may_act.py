"""The rules kept at the table: a token whose state forbids acting does not
attack and is not rolled for, in every game; with `attacks_on_turn` on, a
player attacks only on their token's turn while an encounter runs; the GM
acts for NPCs at any time and may overrule. Refused over REST (400 with the
field) and the websocket (an error frame; the socket stays open)."""

import pytest
from rest_framework.test import APIClient

from vtt.combat.services.encounters import (
    encounter_next,
    encounter_set_initiative,
    encounter_start,
)
from vtt.dice import roll_adjudicate
from vtt.tabletop.models import Character
from vtt.tabletop.services import campaign_update
from vtt.tabletop.services.errors import ServiceError

from .battle import attack, log_in_everyone, make_battle, preview
from .test_live import seating

CHECK = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}


def fell(battle, key, **resources):
    character = Character.objects.get(pk=battle.characters[key].pk)
    Character.objects.filter(pk=character.pk).update(resources={**character.resources, **resources})


def refused(code, call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


# ---- a state that forbids acting


def test_an_incapacitated_zombie_does_not_attack_and_is_not_rolled_for(battle):
    fell(battle, "zombie", condition="Incapacitated")
    error = refused("cannot_act", attack, battle, by="gm", attacker="zombie", target="tenrec")
    assert error.field == "attacker_token"
    assert error.message == "Zombie is Incapacitated and cannot act"
    refused("cannot_act", preview, battle, by="gm", attacker="zombie", target="tenrec")
    error = refused(
        "cannot_act",
        roll_adjudicate,
        campaign_id=battle.campaign.pk,
        by=battle.users["gm"],
        request=CHECK,
        character_id=battle.characters["zombie"].pk,
    )
    assert (error.field, error.message) == (
        "character_id",
        "Zombie is Incapacitated and cannot act",
    )
    # Tenrec, still standing, attacks the fallen zombie.
    assert attack(battle).attacker_name == "Tenrec"


def test_the_dead_player_character_is_refused_to_its_player(battle):
    fell(battle, "tenrec", condition="Dead")
    error = refused("cannot_act", attack, battle)
    assert error.message == "Tenrec is Dead and cannot act"
    refused(
        "cannot_act",
        roll_adjudicate,
        campaign_id=battle.campaign.pk,
        by=battle.users["player"],
        request=CHECK,
        character_id=battle.characters["tenrec"].pk,
    )


def test_the_gm_may_overrule_for_a_zombie_that_does_not_stop(battle):
    fell(battle, "zombie", condition="Incapacitated")
    made = attack(
        battle,
        by="gm",
        attacker="zombie",
        target="tenrec",
        options={"overrule": True},
    )
    assert made.attacker_name == "Zombie"
    # Only a GM overrules, and only with true or false.
    error = refused("forbidden", attack, battle, options={"overrule": True})
    assert error.field == "options.overrule"
    refused(
        "invalid",
        attack,
        battle,
        by="gm",
        attacker="zombie",
        target="tenrec",
        options={"overrule": "yes"},
    )


# Each game's states that forbid acting, reached through its own counters.
FALLEN = {
    "fgr": ({"wounds": 16}, "Incapacitated"),
    "rd6": ({"wounds": 30}, "Dead"),
    "apocalyptia": ({"wounds": 12}, "Incapacitated"),
    "xerosum": ({"wound_points": 0}, "Dying"),
}


@pytest.mark.parametrize("game", sorted(FALLEN))
def test_every_game_names_its_own_state(db, game):
    battle = make_battle(game)
    resources, state = FALLEN[game]
    fell(battle, "zombie", **resources)
    error = refused("cannot_act", attack, battle, by="gm", attacker="zombie", target="tenrec")
    assert error.message == f"Zombie is {state} and cannot act"


def test_a_hurt_character_still_acts(db):
    battle = make_battle("fgr")
    fell(battle, "zombie", wounds=12)  # Badly Wounded, one short of out
    assert attack(battle, by="gm", attacker="zombie", target="tenrec").attacker_name == "Zombie"


# ---- whose turn it is


def in_order(battle):
    """An encounter in the order Kobor, Tenrec, Zombie; Kobor's turn."""
    gm = battle.users["gm"]
    encounter = encounter_start(scene_id=battle.scene.pk, by=gm)
    for combatant in encounter.combatants.all():
        value = {"Kobor": 30, "Tenrec": 20, "Zombie": 10}[combatant.name]
        encounter_set_initiative(
            encounter_id=encounter.pk, by=gm, combatant_id=combatant.pk, initiative=value
        )
    return encounter_next(encounter_id=encounter.pk, by=gm)


def on_turn(battle):
    campaign_update(
        campaign_id=battle.campaign.pk, by=battle.users["gm"], settings={"attacks_on_turn": True}
    )


def test_out_of_turn_the_player_is_refused_in_turn_they_attack(battle):
    on_turn(battle)
    encounter = in_order(battle)
    error = refused("not_your_turn", attack, battle)
    assert error.field == "attacker_token"
    assert error.message == "it is Kobor's turn: Tenrec cannot attack now"
    refused("not_your_turn", preview, battle)
    # The GM acts for the zombie whenever; for Tenrec only by overruling.
    assert attack(battle, by="gm", attacker="zombie", target="tenrec").attacker_name == "Zombie"
    refused("not_your_turn", attack, battle, by="gm")
    attack(battle, by="gm", options={"overrule": True})
    encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
    assert attack(battle).attacker_name == "Tenrec"


def test_nobody_attacks_before_the_first_turn_and_anyone_after_the_fight(battle):
    on_turn(battle)
    encounter = encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"])
    error = refused("not_your_turn", attack, battle)
    assert "nobody's turn yet" in error.message
    from vtt.combat.services.encounters import encounter_end

    encounter_end(encounter_id=encounter.pk, by=battle.users["gm"])
    attack(battle)


def test_with_the_setting_off_anyone_attacks_at_any_time(battle):
    in_order(battle)
    assert battle.campaign.settings["attacks_on_turn"] is False
    assert attack(battle).attacker_name == "Tenrec"


# ---- over REST and the websocket


def test_refusals_over_rest_name_the_field_and_the_state(battle):
    fell(battle, "zombie", condition="Incapacitated")
    gm = APIClient()
    gm.force_authenticate(battle.users["gm"])
    body = {
        "attacker_token": battle.tokens["zombie"].pk,
        "target_token": battle.tokens["tenrec"].pk,
    }
    made = gm.post("/api/combat/attacks/", body, format="json")
    assert made.status_code == 400, made.content
    assert made.json()["error"] == {
        "code": "cannot_act",
        "message": "Zombie is Incapacitated and cannot act",
        "field": "attacker_token",
    } | {k: v for k, v in made.json()["error"].items() if k not in ("code", "message", "field")}
    rolled = gm.post(
        f"/api/campaigns/{battle.campaign.pk}/rolls/",
        {"request": CHECK, "character_id": battle.characters["zombie"].pk},
        format="json",
    )
    assert rolled.status_code == 400
    assert (rolled.json()["error"]["code"], rolled.json()["error"]["field"]) == (
        "cannot_act",
        "character_id",
    )


@pytest.mark.django_db(transaction=True)
async def test_refusals_over_the_websocket_keep_the_socket(transactional_db):
    from channels.db import database_sync_to_async

    def arrange():
        battle = log_in_everyone(make_battle("artifice"))
        on_turn(battle)
        in_order(battle)
        fell(battle, "kobor", condition="Dead")
        return battle

    battle = await database_sync_to_async(arrange)()
    async with seating(battle) as sit:
        player = await sit("player")
        turn = await player.ask(
            {
                "type": "attack",
                "id": 1,
                "attacker_token": battle.tokens["tenrec"].pk,
                "target_token": battle.tokens["zombie"].pk,
            }
        )
        assert (turn["type"], turn["code"], turn["field"]) == (
            "error",
            "not_your_turn",
            "attacker_token",
        )
        other = await sit("other")
        rolled = await other.ask(
            {"type": "roll", "id": 2, "request": CHECK, "character": battle.characters["kobor"].pk}
        )
        assert (rolled["type"], rolled["code"]) == ("error", "cannot_act")
        assert rolled["message"] == "Kobor is Dead and cannot act"
        # Both sockets are still open and answer.
        for seat, n in ((player, 3), (other, 4)):
            answer = await seat.ask({"type": "roll", "id": n, "request": CHECK})
            assert answer["type"] == "ack", answer
