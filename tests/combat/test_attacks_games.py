"""The other four games' chains: Apocalyptia ATK vs DEF with broken weapons,
Rd6 opposed roll with result points into damage dice, Fantasy Ground Rules
damage reduced with Action Points, Xero Sum checks with the GM's damage."""

import pytest

from vtt.combat.models import Attack
from vtt.combat.services.attacks import (
    attack_apply_damage,
    weapon_repair,
)
from vtt.combat.services.reactions import react
from vtt.rules import adjudicate
from vtt.tabletop.models import Character, RoomEvent
from vtt.tabletop.services.errors import NotAllowed, ServiceError

from .battle import apocalyptia_battle, attack, fgr_battle, make_battle, preview


def resources(battle, key):
    return Character.objects.get(pk=battle.characters[key].pk).resources


# ------------------------------------------------------------ Apocalyptia


@pytest.fixture
def apocalyptia(db):
    return apocalyptia_battle()


def test_apocalyptia_the_seed_example_then_the_gm_applies_the_damage(apocalyptia):
    # ATK: a 4 on the die + Melee 6 = 10 against DEF: a 2 + Dodge 3 = 5.
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    result = made.steps[0]["result"]
    assert (result["atk_total"], result["def_total"]) == (10, 5)
    assert made.steps[0]["request"]["defense"] == "dodge"
    assert made.sources == {"attacker": ["Melee"], "defender": ["Dodge"]}
    assert made.outcome == "hit" and made.status == "awaiting_damage"
    assert made.damage == 5 + 3
    assert resources(apocalyptia, "zombie")["wounds"] == 0  # not yet: the GM's click
    with pytest.raises(NotAllowed):
        attack_apply_damage(attack_id=made.pk, by=apocalyptia.users["player"])
    applied = attack_apply_damage(attack_id=made.pk, by=apocalyptia.users["gm"])
    assert applied.status == "applied"
    assert resources(apocalyptia, "zombie")["wounds"] == 8
    event = RoomEvent.objects.filter(kind="combat.damage").get()
    assert event.data["changes"][0]["after"] == 8
    with pytest.raises(ServiceError) as twice:
        attack_apply_damage(attack_id=made.pk, by=apocalyptia.users["gm"])
    assert twice.value.code == "already_applied"


def test_apocalyptia_the_gm_may_apply_another_amount(apocalyptia):
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    attack_apply_damage(attack_id=made.pk, by=apocalyptia.users["gm"], amount=2)
    assert resources(apocalyptia, "zombie")["wounds"] == 2


def test_apocalyptia_a_botched_attack_breaks_the_weapon_until_repaired(apocalyptia):
    # ATK die 1, botch check 1: a Botch (1 + 6 = 7); DEF die 5 + 3 = 8.
    made = attack(apocalyptia, weapon="Machete", faces=[1, 1, 5])
    assert made.steps[0]["result"]["weapon_broken"] == "attacker"
    assert made.outcome == "miss"
    assert made.changes[-1]["field"] == "weapon_broken"
    with pytest.raises(ServiceError) as refused:
        attack(apocalyptia, weapon="Machete")
    assert refused.value.code == "weapon_broken"
    with pytest.raises(NotAllowed):
        weapon_repair(
            character_id=apocalyptia.characters["tenrec"].pk,
            by=apocalyptia.users["player"],
            weapon="Machete",
        )
    weapon_repair(
        character_id=apocalyptia.characters["tenrec"].pk,
        by=apocalyptia.users["gm"],
        weapon="Machete",
    )
    assert attack(apocalyptia, weapon="Machete").pk


def test_apocalyptia_a_botched_block_breaks_the_defenders_weapon(apocalyptia):
    # The defence is the defender's (or the GM's) to choose, not the attacker's.
    with pytest.raises(NotAllowed):
        attack(apocalyptia, weapon="Machete", options={"defense": "block"})
    made = attack(
        apocalyptia, by="gm", weapon="Machete", faces=[3, 1, 1], options={"defense": "block"}
    )
    assert made.steps[0]["result"]["weapon_broken"] == "defender"
    assert made.changes[-1] == {
        "character_id": apocalyptia.characters["zombie"].pk,
        "character": "Zombie",
        "weapon": "Club",
        "field": "weapon_broken",
        "before": False,
        "after": True,
    }


# ------------------------------------------------------------ Rd6


@pytest.fixture
def rd6(db):
    return make_battle(
        "rd6",
        sheets={
            "tenrec": {
                "attributes": {"Agility": "3D", "Strength": "3D"},
                "skills": {"Melee Combat": {"attribute": "Agility", "code": "4D"}},
            },
            "zombie": {"attributes": {"Agility": "2D", "Strength": "4D"}},
        },
        weapons={"tenrec": [{"name": "Axe", "kind": "melee", "damage": "2D+1"}]},
    )


def test_rd6_result_points_become_damage_dice(rd6):
    opposed = {
        "system": "rd6",
        "action": "opposed",
        "actor": {"dice": 4, "pips": 0},
        "opponent": {"dice": 2, "pips": 0},
        "faces": [6, 6, 5, 4, 2, 3],
    }
    expected = adjudicate(opposed)
    extra = expected["damage_dice"]
    assert expected["outcome"] == "actor" and extra > 0
    made = attack(rd6, weapon="Axe", faces=opposed["faces"] + [3] * (2 + extra))
    first, damage = made.steps
    assert first["request"]["actor"]["dice"] == 4
    assert first["request"]["opponent"]["dice"] == 2  # no Dodge: the Agility attribute
    assert made.sources == {"attacker": ["Melee Combat"], "defender": ["Agility"]}
    assert damage["step"] == "damage"
    assert (damage["request"]["dice"], damage["request"]["pips"]) == (2 + extra, 1)
    assert damage["result"]["total"] == 3 * (2 + extra) + 1
    assert made.status == "awaiting_damage" and made.damage == damage["result"]["total"]
    attack_apply_damage(attack_id=made.pk, by=rd6.users["gm"])
    assert resources(rd6, "zombie")["wounds"] == made.damage


def test_rd6_a_draw_is_a_miss(rd6):
    # Equal successes and equal totals: 4D of threes on both sides.
    made = attack(
        rd6, by="gm", weapon="Axe", faces=[3] * 8, overrides={"attack": {"opponent": {"dice": 4}}}
    )
    assert made.steps[0]["result"]["outcome"] == "draw"
    assert made.outcome == "miss" and len(made.steps) == 1


def test_rd6_a_sheet_without_the_skill_or_its_attribute_is_refused(rd6):
    Character.objects.filter(pk=rd6.characters["zombie"].pk).update(
        sheet={"attributes": {"Mind": "2D"}, "skills": {}}
    )
    with pytest.raises(ServiceError) as refused:
        attack(rd6, weapon="Axe")
    assert (refused.value.code, refused.value.field) == ("no_pool", "defense_skill")
    made = attack(rd6, by="gm", weapon="Axe", options={"defense_skill": "Mind"})
    assert made.steps[0]["request"]["opponent"]["dice"] == 2


# ------------------------------------------------------------ Fantasy Ground Rules


@pytest.fixture
def fgr(db):
    return fgr_battle()


def test_fgr_the_defenders_player_spends_action_points_before_the_damage(fgr):
    # The zombie hits (3 dice: 3, 4, 1 = two successes against Moderate 2) for 3 + 4.
    made = attack(
        fgr, by="gm", attacker="zombie", target="tenrec", weapon="Bite", faces=[3, 4, 1, 3, 4]
    )
    assert made.steps[0]["request"] == {
        "system": "fgr",
        "action": "roll",
        "difficulty": 2,
        "skill": 3,
        "faces": [3, 4, 1],
    }
    assert made.status == "awaiting_defender" and made.damage == 7
    assert resources(fgr, "tenrec")["wounds"] == 0
    with pytest.raises(NotAllowed):
        react(
            reaction="reduce_damage",
            attack_id=made.pk,
            by=fgr.users["other"],
            values={"action_points": 1},
        )
    with pytest.raises(ServiceError) as too_many:
        react(
            reaction="reduce_damage",
            attack_id=made.pk,
            by=fgr.users["player"],
            values={"action_points": 6},
        )
    assert too_many.value.code == "insufficient_action_points"
    done = react(
        reaction="reduce_damage",
        attack_id=made.pk,
        by=fgr.users["player"],
        values={"action_points": 2},
    )
    assert done.status == "applied"
    assert done.steps[-1]["result"]["damage"] == 5
    now = resources(fgr, "tenrec")
    assert (now["action_points"], now["wounds"]) == (3, 5)


def test_fgr_an_npc_takes_the_damage_at_once(fgr):
    made = attack(fgr, weapon="Sword", faces=[3, 4, 1, 6, 6])
    assert made.status == "applied" and made.damage == 12
    assert made.sources == {"attacker": ["Melee"]}
    assert resources(fgr, "zombie")["wounds"] == 12


def test_fgr_a_miss_rolls_no_damage(fgr):
    made = attack(fgr, weapon="Sword", faces=[1, 2, 3])
    assert made.outcome == "miss" and len(made.steps) == 1


# ------------------------------------------------------------ Xero Sum


@pytest.fixture
def xerosum(db):
    battle = make_battle(
        "xerosum",
        sheets={
            "tenrec": {
                "attributes": {"Physicality": 2},
                "skills": {"Melee Combat": {"attribute": "Physicality", "smod": 1}},
            },
        },
        weapons={"tenrec": [{"name": "Knife", "kind": "melee", "damage": 2}]},
    )
    Character.objects.filter(pk=battle.characters["zombie"].pk).update(
        resources={"insight_dice": 0, "wound_points": 6, "resilience_points": 3, "experience": 0}
    )
    return battle


def test_xerosum_a_moment_of_high_insight_hits_and_grants_a_die(xerosum):
    made = attack(xerosum, weapon="Knife", faces=[6, 6])
    request = made.steps[0]["request"]
    assert (request["amod"], request["smod"], request["cmod"]) == (2, 1, 0)
    assert made.outcome == "hit" and made.status == "awaiting_damage" and made.damage == 2
    assert resources(xerosum, "tenrec")["insight_dice"] == 3
    attack_apply_damage(attack_id=made.pk, by=xerosum.users["gm"], amount=4)
    assert resources(xerosum, "zombie")["wound_points"] == 2
    assert Attack.objects.get(pk=made.pk).damage == 4


def test_xerosum_a_failure_misses(xerosum):
    made = attack(xerosum, weapon="Knife", faces=[1, 3])
    assert made.outcome == "miss" and made.status == "missed"


@pytest.mark.parametrize("game", ["apocalyptia", "rd6", "fgr", "xerosum"])
def test_every_game_previews_its_attack_with_exact_odds(game, request):
    battle = request.getfixturevalue(game)
    weapon = battle.characters["tenrec"].weapons[0]["name"]
    previewed = preview(battle, weapon=weapon)
    assert previewed["request"]["system"] == game
    assert abs(sum(previewed["odds"]["outcomes"].values()) - 1) < 1e-9
    made = attack(battle, weapon=weapon)  # and the same request, rolled
    assert made.steps[0]["request"]["action"] == previewed["request"]["action"]
