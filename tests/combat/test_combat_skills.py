"""Combat reads skills by name. Each kit declares the roles its combat uses
with the usual names; a sheet may map a role to one of its own skills
(sheet key `combat`), which the chain reads first; an attack's own
`attack_skill` still wins. Artifice's combat reads abilities: no roles."""

import pytest

from vtt import games
from vtt.combat.models import Combatant
from vtt.combat.services.encounters import encounter_roll_initiative, encounter_start
from vtt.core.errors import ServiceError
from vtt.games import sheets
from vtt.tabletop.services import character_update

from .battle import make_battle, preview

ROLES = {
    "artifice": [],
    "fgr": ["melee_attack", "missile_attack", "spell_attack", "initiative"],
    "xerosum": ["melee_attack", "missile_attack", "spell_attack", "initiative"],
    "rd6": ["melee_attack", "missile_attack", "spell_attack", "parry", "dodge", "initiative"],
    "apocalyptia": ["melee_attack", "missile_attack", "dodge", "block"],
}


@pytest.mark.parametrize("game", sorted(ROLES))
def test_each_kit_declares_its_combat_roles(game):
    kit = games.kit(game)
    assert list(kit.combat_roles) == ROLES[game]
    for role in kit.combat_roles.values():
        assert role.label and role.usual


SKILLS = {
    "fgr": {"skills": {"Swordplay": 3}},
    "xerosum": {"skills": {"Swordplay": {"attribute": "Physicality", "smod": 2}}},
    "rd6": {
        "attributes": {"Agility": "3D"},
        "skills": {"Swordplay": {"attribute": "Agility", "code": "4D"}},
    },
    "apocalyptia": {
        "traits": {"Agility": 4},
        "skills": {"Swordplay": {"trait": "Agility", "level": 3}},
    },
}


@pytest.mark.parametrize("game", sorted(SKILLS))
def test_a_sheet_maps_a_role_to_one_of_its_skills(game):
    sheet = {**SKILLS[game], "combat": {"melee_attack": "Swordplay"}}
    clean = sheets.clean_sheet(game, sheet, {})
    assert clean["combat"] == {"melee_attack": "Swordplay"}
    # An empty mapping is the usual names, and is not stored.
    cleared = sheets.clean_sheet(game, {**SKILLS[game], "combat": {"melee_attack": ""}}, {})
    assert "combat" not in cleared
    assert "combat" not in sheets.clean_sheet(game, SKILLS[game], {})


@pytest.mark.parametrize(
    ("combat", "code", "field"),
    [
        ({"melee_attack": "Knitting"}, "invalid", "sheet.combat.melee_attack"),
        ({"melee_attack": 3}, "invalid", "sheet.combat.melee_attack"),
        ({"sneak_attack": "Swordplay"}, "unknown_field", "sheet.combat.sneak_attack"),
        (["Swordplay"], "invalid", "sheet.combat"),
    ],
)
def test_a_bad_mapping_names_the_field(combat, code, field):
    with pytest.raises(ServiceError) as caught:
        sheets.clean_sheet("fgr", {**SKILLS["fgr"], "combat": combat}, {})
    assert (caught.value.code, caught.value.field) == (code, field)


def test_artifice_sheets_take_no_mapping():
    with pytest.raises(ServiceError) as caught:
        sheets.clean_sheet("artifice", {"combat": {"melee_attack": "Swordplay"}}, {})
    assert caught.value.field == "sheet.combat"


def mapped_battle(game, tenrec, zombie=None):
    return make_battle(
        game,
        sheets={"tenrec": tenrec, "zombie": zombie or {}},
        weapons={"tenrec": [{"name": "Blade", "kind": "melee"}]},
    )


@pytest.mark.django_db
def test_fgr_reads_the_mapped_skill_before_the_usual_ones():
    tenrec = {"skills": {"Melee": 1, "Swordplay": 4}, "combat": {"melee_attack": "Swordplay"}}
    battle = mapped_battle("fgr", tenrec)
    shown = preview(battle, weapon="Blade")
    assert shown["request"]["skill"] == 4 and shown["sources"]["attacker"] == ["Swordplay"]
    # The attack's own choice still wins.
    chosen = preview(battle, weapon="Blade", options={"attack_skill": "Melee"})
    assert chosen["request"]["skill"] == 1


@pytest.mark.django_db
def test_xerosum_reads_the_mapped_skill():
    tenrec = {
        "attributes": {"Physicality": 1, "Dexterity": 3},
        "skills": {
            "Melee Combat": {"attribute": "Physicality", "smod": 0},
            "Knife Work": {"attribute": "Dexterity", "smod": 2},
        },
        "combat": {"melee_attack": "Knife Work"},
    }
    shown = preview(mapped_battle("xerosum", tenrec), weapon="Blade")
    assert (shown["request"]["amod"], shown["request"]["smod"]) == (3, 2)
    assert shown["sources"]["attacker"] == ["Knife Work"]


@pytest.mark.django_db
def test_rd6_reads_the_mapped_attack_and_parry():
    tenrec = {
        "attributes": {"Agility": "2D"},
        "skills": {"Fencing": {"attribute": "Agility", "code": "5D+1"}},
        "combat": {"melee_attack": "Fencing"},
    }
    zombie = {
        "attributes": {"Agility": "2D"},
        "skills": {
            "Dodge": {"attribute": "Agility", "code": "3D"},
            "Shield": {"attribute": "Agility", "code": "4D"},
        },
        "combat": {"parry": "Shield"},
    }
    shown = preview(mapped_battle("rd6", tenrec, zombie), weapon="Blade")
    assert (shown["request"]["actor"]["dice"], shown["request"]["actor"]["pips"]) == (5, 1)
    assert shown["request"]["opponent"]["dice"] == 4
    assert shown["sources"] == {"attacker": ["Fencing"], "defender": ["Shield"]}


@pytest.mark.django_db
def test_apocalyptia_reads_the_mapped_attack_dodge_and_block():
    tenrec = {
        "traits": {"Agility": 5},
        "skills": {"Machete": {"trait": "Agility", "level": 4}},
        "combat": {"melee_attack": "Machete"},
    }
    zombie = {
        "traits": {"Agility": 4},
        "skills": {
            "Duck": {"trait": "Agility", "level": 1},
            "Parry": {"trait": "Agility", "level": 3},
        },
        "combat": {"dodge": "Duck", "block": "Parry"},
    }
    shown = preview(mapped_battle("apocalyptia", tenrec, zombie), weapon="Blade")
    request = shown["request"]
    assert (request["atk_bonus"], request["def_bonus"], request["defense"]) == (4, 3, "block")
    assert shown["sources"] == {"attacker": ["Machete"], "defender": ["Parry"]}


@pytest.mark.django_db
def test_initiative_reads_the_mapped_skill():
    tenrec = {"skills": {"Quickness": 5}, "combat": {"initiative": "Quickness"}}
    battle = mapped_battle("fgr", tenrec)
    encounter = encounter_start(
        scene_id=battle.scene.pk, by=battle.users["gm"], tokens=[battle.tokens["tenrec"].pk]
    )
    encounter_roll_initiative(
        encounter_id=encounter.pk, by=battle.users["gm"], faces=[1, 1, 1, 1, 2]
    )
    assert Combatant.objects.get(encounter=encounter).initiative == 6  # five dice rolled


@pytest.mark.django_db
def test_renaming_a_mapped_skill_away_is_refused_on_the_mapping():
    tenrec = {"skills": {"Swordplay": 4}, "combat": {"melee_attack": "Swordplay"}}
    battle = mapped_battle("fgr", tenrec)
    with pytest.raises(ServiceError) as caught:
        character_update(
            character_id=battle.characters["tenrec"].pk,
            by=battle.users["player"],
            sheet={"skills": {"Fencing": 4}, "combat": {"melee_attack": "Swordplay"}},
        )
    assert caught.value.field == "sheet.combat.melee_attack"
