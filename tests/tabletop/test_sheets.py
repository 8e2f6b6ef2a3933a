"""Sheets, weapons and resources of each game: limits enforced, stored
normalised, and every refusal names its field."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt import games
from vtt.core.errors import ServiceError
from vtt.games import game_settings, sheets
from vtt.games.artifice import sheet as artifice
from vtt.games.rd6.codes import parse_die_code

ARTIFICE = game_settings.defaults("artifice")


def refused(call, *args):
    with pytest.raises(ServiceError) as caught:
        call(*args)
    return caught.value.code, caught.value.field


def test_empty_artifice_sheet_is_filled_with_one_die_everywhere():
    sheet = sheets.clean_sheet("artifice", {}, ARTIFICE)
    assert sheet["level"] == 1
    assert sheet["attributes"] == {
        "Strength": 1,
        "Dexterity": 1,
        "Intelligence": 1,
        "Will Power": 1,
    }
    assert len(sheet["abilities"]) == 12
    assert sheet["abilities"]["Might"] == {"dice": 1, "kind": "standard", "pips": 0}
    assert sheets.clean_sheet("artifice", sheet, ARTIFICE) == sheet  # idempotent


@pytest.mark.parametrize(
    ("ability", "ok"),
    [
        ({"dice": 3}, True),
        ({"dice": 4}, False),  # a plain ability stops at 3D
        ({"dice": 6, "kind": "class"}, True),
        ({"dice": 7, "kind": "class"}, False),  # nothing above 6D
        ({"dice": 6, "kind": "racial"}, True),
        ({"dice": 1, "kind": "racial"}, False),  # racial starts at +1D
        ({"dice": 0}, False),
        ({"dice": 2, "pips": 4}, False),
        ({"dice": 2, "kind": "innate"}, False),
        ({"kind": "class"}, False),
    ],
)
def test_artifice_ability_limits(ability, ok):
    call = sheets.clean_sheet
    sheet = {"abilities": {"Finesse": ability}}
    if ok:
        assert call("artifice", sheet, ARTIFICE)["abilities"]["Finesse"]["dice"] == ability["dice"]
    else:
        code, field = refused(call, "artifice", sheet, ARTIFICE)
        assert code == "invalid" and field.startswith("sheet.abilities.Finesse")


def test_artifice_kind_counts_and_character_ability_level():
    three_class = {n: {"dice": 4, "kind": "class"} for n in ("Might", "Finesse", "Lore")}
    assert refused(sheets.clean_sheet, "artifice", {"abilities": three_class}, ARTIFICE) == (
        "invalid",
        "sheet.abilities.Lore.kind",
    )
    early = {"level": 3, "abilities": {"Faith": {"dice": 2, "kind": "character"}}}
    assert refused(sheets.clean_sheet, "artifice", early, ARTIFICE)[1] == (
        "sheet.abilities.Faith.kind"
    )
    assert sheets.clean_sheet("artifice", {**early, "level": 4}, ARTIFICE)["level"] == 4


def test_artifice_unknown_ability_and_renamed_ones():
    assert refused(
        sheets.clean_sheet, "artifice", {"abilities": {"Luck": {"dice": 1}}}, ARTIFICE
    ) == (
        "unknown_field",
        "sheet.abilities.Luck",
    )
    renamed = game_settings.clean_settings(
        "artifice",
        {
            "abilities": {
                **artifice.ABILITIES,
                "Will Power": ["Resolve", "Presence", "Luck"],
            }
        },
    )
    sheet = sheets.clean_sheet("artifice", {"abilities": {"Luck": {"dice": 2}}}, renamed)
    assert sheet["abilities"]["Luck"]["dice"] == 2 and "Faith" not in sheet["abilities"]


def test_unskilled_attempts_face_monstrous_at_least():
    sheet = sheets.clean_sheet("artifice", {"skills": ["Elvish"]}, ARTIFICE)
    assert artifice.minimum_difficulty(sheet, "elvish") == 0
    assert artifice.minimum_difficulty(sheet, "Lockpicking") == 5
    assert artifice.minimum_difficulty(sheet, None) == 0
    assert refused(sheets.clean_sheet, "artifice", {"skills": ["A", "a"]}, ARTIFICE)[1] == (
        "sheet.skills"
    )


def test_fgr_skill_levels():
    sheet = sheets.clean_sheet("fgr", {"skills": {"Athletics": 4, "Magic": 0}}, {})
    assert sheet == {"skills": {"Athletics": 4, "Magic": 0}}
    assert refused(sheets.clean_sheet, "fgr", {"skills": {"Athletics": -1}}, {}) == (
        "invalid",
        "sheet.skills.Athletics",
    )
    assert refused(sheets.clean_sheet, "fgr", {"skills": {"": 1}}, {})[0] == "invalid"


def test_xerosum_amods_and_smods():
    sheet = sheets.clean_sheet(
        "xerosum",
        {
            "attributes": {"Reason": 4, "Dexterity": -2},
            "skills": {"Tactics": {"attribute": "Reason", "smod": -3}},
        },
        {},
    )
    assert sheet["attributes"]["Reason"] == 4 and sheet["attributes"]["Acumen"] == 0
    assert sheet["skills"]["Tactics"] == {"attribute": "Reason", "smod": -3}
    assert refused(sheets.clean_sheet, "xerosum", {"attributes": {"Reason": 5}}, {})[1] == (
        "sheet.attributes.Reason"
    )
    assert refused(sheets.clean_sheet, "xerosum", {"attributes": {"Reason": -3}}, {})[1] == (
        "sheet.attributes.Reason"
    )
    bad_smod = {"skills": {"Tactics": {"attribute": "Reason", "smod": 5}}}
    assert refused(sheets.clean_sheet, "xerosum", bad_smod, {})[1] == "sheet.skills.Tactics.smod"
    bad_attr = {"skills": {"Tactics": {"attribute": "Wits"}}}
    assert (
        refused(sheets.clean_sheet, "xerosum", bad_attr, {})[1] == "sheet.skills.Tactics.attribute"
    )


@pytest.mark.parametrize(
    ("code", "parsed"),
    [
        ("3D+1", (3, 1)),
        ("3d", (3, 0)),
        (" 12D + 2 ", (12, 2)),
        ("3D+3", None),
        ("D+1", None),
        ("3", None),
        (3, None),
        ("3D-1", None),
    ],
)
def test_die_codes(code, parsed):
    assert parse_die_code(code) == parsed


def test_rd6_codes_are_normalised_and_skills_name_an_attribute():
    sheet = sheets.clean_sheet(
        "rd6",
        {
            "attributes": {"Agility": "3d+1"},
            "skills": {"Dodge": {"attribute": "Agility", "code": "4D"}},
        },
        {},
    )
    assert sheet == {
        "attributes": {"Agility": "3D+1"},
        "skills": {"Dodge": {"attribute": "Agility", "code": "4D"}},
    }
    orphan = {
        "attributes": {"Agility": "3D"},
        "skills": {"Lift": {"attribute": "Strength", "code": "3D"}},
    }
    assert refused(sheets.clean_sheet, "rd6", orphan, {})[1] == "sheet.skills.Lift.attribute"
    assert refused(sheets.clean_sheet, "rd6", {"attributes": {"Agility": "0D"}}, {})[1] == (
        "sheet.attributes.Agility"
    )


def test_apocalyptia_skills_stay_under_their_trait():
    sheet = sheets.clean_sheet(
        "apocalyptia",
        {"traits": {"Agility": 3}, "skills": {"Dodge": {"trait": "Agility", "level": 3}}},
        {},
    )
    assert sheet["traits"] == {"Agility": 3, "Brains": 1, "Constitution": 1, "Demeanor": 1}
    too_high = {"traits": {"Agility": 2}, "skills": {"Dodge": {"trait": "Agility", "level": 3}}}
    assert refused(sheets.clean_sheet, "apocalyptia", too_high, {})[1] == "sheet.skills.Dodge.level"


def test_weapons_per_game():
    sword = {"name": "Long sword", "lethality": 2}
    assert sheets.clean_weapons("artifice", [sword]) == [
        {"name": "Long sword", "kind": "melee", "range_ft": None, "lethality": 2}
    ]
    bolt = {"name": "Sight bolt", "kind": "spell", "range_ft": "line_of_sight", "lethality": 1}
    assert sheets.clean_weapons("artifice", [bolt])[0]["range_ft"] == "line_of_sight"
    bow = {"name": "Bow", "kind": "missile", "range_ft": "line_of_sight"}
    assert refused(sheets.clean_weapons, "artifice", [bow]) == ("invalid", "weapons[0].range_ft")
    assert refused(sheets.clean_weapons, "artifice", [{"name": "Axe", "damage": 3}]) == (
        "unknown_field",
        "weapons[0].damage",
    )
    assert (
        sheets.clean_weapons(
            "rd6", [{"name": "Blaster", "damage": "4d+1", "kind": "missile", "range_ft": 100}]
        )[0]["damage"]
        == "4D+1"
    )
    assert sheets.clean_weapons("apocalyptia", [{"name": "Bat", "damage": 2}])[0]["damage"] == 2
    assert (
        refused(sheets.clean_weapons, "fgr", [{"name": "Bow", "range_ft": 0}])[1]
        == "weapons[0].range_ft"
    )
    assert refused(sheets.clean_weapons, "fgr", [{}])[1] == "weapons[0].name"
    assert refused(sheets.clean_weapons, "fgr", [{"name": "x"}] * 21)[1] == "weapons"


def test_resources_start_from_the_settings_and_refuse_unknown_ones():
    rd6 = game_settings.clean_settings("rd6", {"starting_fate_points": 2})
    assert sheets.clean_resources("rd6", None, rd6) == {
        "character_points": 5,
        "fate_points": 2,
        "experience": 0,
        "wounds": 0,
    }
    assert (
        sheets.clean_resources("artifice", {"condition": "Hurt"}, ARTIFICE)["condition"] == "Hurt"
    )
    assert refused(sheets.clean_resources, "artifice", {"condition": "Bruised"}, ARTIFICE)[1] == (
        "resources.condition"
    )
    assert refused(
        sheets.clean_resources, "fgr", {"insight_dice": 2}, game_settings.defaults("fgr")
    ) == (
        "unknown_field",
        "resources.insight_dice",
    )
    assert refused(
        sheets.clean_resources, "fgr", {"action_points": -1}, game_settings.defaults("fgr")
    )[1] == ("resources.action_points")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(games.ids()), sheet=json_values, weapons=json_values)
def test_any_json_is_cleaned_or_refused_by_name(game, sheet, weapons):
    """Whatever arrives, the checks answer with a clean value or a named
    ServiceError, never another exception."""
    config = game_settings.defaults(game)
    for call, value in ((sheets.clean_sheet, sheet), (sheets.clean_weapons, weapons)):
        args = (game, value, config) if call is sheets.clean_sheet else (game, value)
        try:
            clean = call(*args)
        except ServiceError as error:
            assert error.code in {"invalid", "unknown_field"} and error.field
        else:
            assert (
                call(*(game, clean, config) if call is sheets.clean_sheet else (game, clean))
                == clean
            )
