"""Apocalyptia adjudication: the seed's ATK example, Critical chains, Botch
checks, opposed ties, refusals and the invariants every roll keeps."""

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.engine import adjudicate

from .pinned import refusal, replayed

refused = partial(refusal, "apocalyptia")


def apoc(action, **fields):
    return adjudicate({"system": "apocalyptia", "action": action, **fields})


def roles(result) -> list:
    return [(d["pool"], d["role"], d["face"]) for d in result["dice"]]


# --- seed example ------------------------------------------------------------------


def test_seed_attack_4_plus_6_against_dodge_5_hits_for_5_over_the_weapon():
    result = apoc("attack", atk_bonus=6, def_bonus=2, weapon_dmg=3, faces=[4, 3])
    assert (result["atk_total"], result["def_total"]) == (10, 5)
    assert result["outcome"] == "hit"
    assert result["margin"] == 5
    assert result["damage"] == 5 + 3
    assert result["weapon_broken"] is None
    assert roles(result) == [("actor", "regular", 4), ("opponent", "regular", 3)]


# --- roll --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, faces, total, outcome",
    [
        ({"bonus": 3, "difficulty": 5}, [3], 6, "success"),
        ({"bonus": 3, "difficulty": 6}, [3], 6, "failure"),  # equal fails
        ({"bonus": 0, "difficulty": 4}, [4], 4, "failure"),
        ({"bonus": -2, "difficulty": 2}, [5], 3, "success"),
    ],
)
def test_roll_succeeds_only_above_the_difficulty(fields, faces, total, outcome):
    result = apoc("roll", kind="skill", **fields, faces=faces)
    assert (result["total"], result["outcome"]) == (total, outcome)
    assert result["botch"] is result["critical"] is result["automatic"] is False


@pytest.mark.parametrize("kind", ["trait", "skill", "dmg", "loot"])
def test_a_six_is_rolled_again_and_added_while_sixes_come(kind):
    result = apoc("roll", bonus=2, difficulty=20, kind=kind, faces=[6, 6, 6, 4])
    assert result["total"] == 6 + 6 + 6 + 4 + 2
    assert result["critical"] is True
    assert result["outcome"] == "success"
    assert roles(result) == [
        ("actor", "regular", 6),
        ("actor", "explosion", 6),
        ("actor", "explosion", 6),
        ("actor", "explosion", 4),
    ]


def test_a_critical_chain_ending_in_one_is_just_one():
    result = apoc("roll", bonus=1, difficulty=5, kind="skill", faces=[6, 1])
    assert result["total"] == 8
    assert (result["critical"], result["botch"]) == (True, False)
    assert result["outcome"] == "success"
    assert len(result["dice"]) == 2  # no botch check after the chain's 1


def test_a_six_on_an_other_roll_does_not_explode():
    result = apoc("roll", bonus=1, difficulty=5, kind="other", faces=[6])
    assert (result["total"], result["critical"], result["outcome"]) == (7, False, "success")
    assert roles(result) == [("actor", "regular", 6)]


@pytest.mark.parametrize("kind", ["trait", "skill", "dmg", "loot", "other"])
def test_a_one_then_a_one_is_a_botch_on_every_kind(kind):
    result = apoc("roll", bonus=4, difficulty=3, kind=kind, faces=[1, 1])
    assert result["botch"] is True
    assert result["total"] == 5
    assert roles(result) == [("actor", "regular", 1), ("actor", "botch_check", 1)]


@pytest.mark.parametrize("check", [2, 3, 4, 5, 6])
def test_a_one_then_anything_else_counts_one_and_is_no_botch(check):
    result = apoc("roll", bonus=4, difficulty=3, kind="skill", faces=[1, check])
    assert result["botch"] is False
    assert result["critical"] is False  # a 6 on the check is not a Critical
    assert result["total"] == 5
    assert result["outcome"] == "success"
    assert len(result["dice"]) == 2


def test_a_botch_still_reports_the_total_against_the_difficulty():
    result = apoc("roll", bonus=2, difficulty=4, kind="trait", faces=[1, 1])
    assert (result["total"], result["botch"], result["outcome"]) == (3, True, "failure")


@pytest.mark.parametrize("kind", ["trait", "other"])
def test_a_botch_fails_whatever_the_total(kind):
    """RULES.md: "A Botch is a failed roll whatever the total"."""
    botched = apoc("roll", bonus=10, difficulty=3, kind=kind, faces=[1, 1])
    assert (botched["total"], botched["botch"], botched["outcome"]) == (11, True, "failure")
    spared = apoc("roll", bonus=10, difficulty=3, kind=kind, faces=[1, 4])
    assert (spared["total"], spared["botch"], spared["outcome"]) == (11, False, "success")


@pytest.mark.parametrize("bonus, difficulty", [(5, 4), (40, 0), (1, 0)])
def test_calm_roll_with_bonus_over_the_difficulty_is_automatic(bonus, difficulty):
    result = apoc(
        "roll", bonus=bonus, difficulty=difficulty, kind="skill", stressful=False, faces=[]
    )
    assert result["automatic"] is True
    assert result["outcome"] == "success"
    assert result["total"] == bonus
    assert result["dice"] == []


@pytest.mark.parametrize(
    "bonus, difficulty, stressful", [(4, 4, False), (3, 4, False), (5, 4, True)]
)
def test_equal_bonus_or_stress_means_rolling(bonus, difficulty, stressful):
    result = apoc(
        "roll", bonus=bonus, difficulty=difficulty, kind="skill", stressful=stressful, faces=[2]
    )
    assert result["automatic"] is False
    assert result["total"] == bonus + 2


def test_stressful_is_the_default():
    result = apoc("roll", bonus=9, difficulty=3, kind="skill", faces=[2])
    assert result["automatic"] is False


# --- opposed -----------------------------------------------------------------------


def test_opposed_higher_total_wins():
    result = apoc("opposed", actor={"bonus": 3}, opponent={"bonus": 4}, faces=[5, 3])
    assert (result["actor_total"], result["opponent_total"]) == (8, 7)
    assert (result["outcome"], result["margin"], result["rounds"]) == ("actor", 1, 1)


def test_opposed_ties_are_rolled_again_actor_first():
    result = apoc(
        "opposed", actor={"bonus": 2}, opponent={"bonus": 3}, faces=[4, 3, 2, 1, 5, 6, 2, 2]
    )
    # 6 v 6 tie; 4 v 4 tie (the opponent's 1 checked with a 5); then 6+2 v 2+3.
    assert result["rounds"] == 3
    assert (result["actor_total"], result["opponent_total"]) == (10, 5)
    assert result["outcome"] == "actor"
    assert result["actor_critical"] is True
    assert roles(result) == [
        ("actor", "regular", 4),
        ("opponent", "regular", 3),
        ("actor", "reroll", 2),
        ("opponent", "reroll", 1),
        ("opponent", "botch_check", 5),
        ("actor", "reroll", 6),
        ("actor", "explosion", 2),
        ("opponent", "reroll", 2),
    ]


def test_a_botch_in_a_tied_round_is_replaced_by_the_reroll():
    result = apoc("opposed", actor={"bonus": 0}, opponent={"bonus": 0}, faces=[1, 1, 1, 1, 2, 3])
    assert result["rounds"] == 2
    assert (result["actor_botch"], result["opponent_botch"]) == (False, False)
    assert result["outcome"] == "opponent"


def test_opposed_botch_in_the_deciding_round_is_reported():
    result = apoc("opposed", actor={"bonus": 5}, opponent={"bonus": 0}, faces=[1, 1, 4])
    assert result["actor_botch"] is True
    assert (result["actor_total"], result["opponent_total"], result["outcome"]) == (
        6,
        4,
        "actor",
    )


def test_opposed_tie_with_the_tape_spent_asks_for_more_faces():
    err = refused(
        {"action": "opposed", "actor": {"bonus": 3}, "opponent": {"bonus": 3}, "faces": [4, 4]}
    )
    assert err.code == "faces_exhausted"
    assert "2 more" in err.message


def test_opposed_ties_for_a_hundred_rounds_are_refused():
    err = refused(
        {"action": "opposed", "actor": {"bonus": 0}, "opponent": {"bonus": 0}, "faces": [3] * 400}
    )
    assert (err.code, err.field) == ("faces_exhausted", "faces")
    assert "100 rounds" in err.message


def test_opposed_ties_settled_on_the_hundredth_round_stand():
    faces = [3, 3] * 99 + [4, 3]
    result = apoc("opposed", actor={"bonus": 0}, opponent={"bonus": 0}, faces=faces)
    assert (result["rounds"], result["outcome"]) == (100, "actor")


# --- attack ------------------------------------------------------------------------


def test_equal_atk_and_def_is_a_miss_with_no_damage():
    result = apoc("attack", atk_bonus=3, def_bonus=4, weapon_dmg=5, faces=[4, 3])
    assert (result["outcome"], result["margin"], result["damage"]) == ("miss", 0, 0)


def test_critical_attack_chain_adds_to_the_damage():
    result = apoc("attack", atk_bonus=2, def_bonus=3, weapon_dmg=4, faces=[6, 6, 1, 4])
    assert result["atk_total"] == 15 and result["def_total"] == 7
    assert result["atk_critical"] is True and result["atk_botch"] is False
    assert result["damage"] == 8 + 4
    assert [d["role"] for d in result["dice"]] == ["regular", "explosion", "explosion", "regular"]


def test_defence_rolls_explode_too():
    result = apoc("attack", atk_bonus=8, def_bonus=1, weapon_dmg=2, faces=[3, 6, 5])
    assert (result["def_total"], result["def_critical"], result["outcome"]) == (12, True, "miss")


def test_botched_attack_breaks_the_attackers_weapon():
    result = apoc("attack", atk_bonus=9, def_bonus=0, weapon_dmg=2, faces=[1, 1, 2])
    assert result["atk_botch"] is True
    assert result["weapon_broken"] == "attacker"
    # The totals still decide the hit: 10 against 2.
    assert (result["outcome"], result["damage"]) == ("hit", 10)


@pytest.mark.parametrize("defense, broken", [("block", "defender"), ("dodge", None)])
def test_botched_defence_breaks_a_blocking_weapon_only(defense, broken):
    result = apoc(
        "attack", atk_bonus=2, def_bonus=2, weapon_dmg=1, defense=defense, faces=[3, 1, 1]
    )
    assert result["def_botch"] is True
    assert result["weapon_broken"] == broken
    assert roles(result) == [
        ("actor", "regular", 3),
        ("opponent", "regular", 1),
        ("opponent", "botch_check", 1),
    ]


def test_both_botching_against_a_block_breaks_both_weapons():
    result = apoc(
        "attack", atk_bonus=0, def_bonus=0, weapon_dmg=1, defense="block", faces=[1, 1, 1, 1]
    )
    assert result["weapon_broken"] == "both"
    assert result["outcome"] == "miss"


def test_a_one_checked_without_a_second_one_breaks_nothing():
    result = apoc(
        "attack", atk_bonus=0, def_bonus=0, weapon_dmg=1, defense="block", faces=[1, 4, 1, 6]
    )
    assert result["weapon_broken"] is None
    assert result["outcome"] == "miss"


# --- bad requests ------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, code, field",
    [
        ({"action": "roll", "bonus": 1, "difficulty": 3}, "invalid", "kind"),
        ({"action": "roll", "bonus": 1, "difficulty": 3, "kind": "magic"}, "invalid", "kind"),
        (
            {"action": "roll", "bonus": 1, "difficulty": 3, "kind": "skill", "x": 1},
            "unknown_field",
            "x",
        ),
        ({"action": "roll", "bonus": 41, "difficulty": 3, "kind": "skill"}, "invalid", "bonus"),
        (
            {"action": "roll", "bonus": 1, "difficulty": -1, "kind": "skill"},
            "invalid",
            "difficulty",
        ),
        (
            {"action": "roll", "bonus": 1, "difficulty": 3, "kind": "skill", "stressful": 1},
            "invalid",
            "stressful",
        ),
        ({"action": "opposed", "actor": {"bonus": 1}}, "invalid", "opponent"),
        ({"action": "opposed", "actor": {"bonus": 1}, "opponent": {}}, "invalid", "opponent.bonus"),
        (
            {"action": "opposed", "actor": {"bonus": 1, "kind": "skill"}, "opponent": {"bonus": 1}},
            "unknown_field",
            "actor.kind",
        ),
        ({"action": "opposed", "actor": 3, "opponent": {"bonus": 1}}, "invalid", "actor"),
        ({"action": "attack", "atk_bonus": 1, "def_bonus": 1}, "invalid", "weapon_dmg"),
        (
            {"action": "attack", "atk_bonus": 1, "def_bonus": 1, "weapon_dmg": -1},
            "invalid",
            "weapon_dmg",
        ),
        (
            {"action": "attack", "atk_bonus": 1, "def_bonus": "1", "weapon_dmg": 1},
            "invalid",
            "def_bonus",
        ),
        (
            {
                "action": "attack",
                "atk_bonus": 1,
                "def_bonus": 1,
                "weapon_dmg": 1,
                "defense": "parry",
            },
            "invalid",
            "defense",
        ),
    ],
)
def test_bad_requests_name_the_field(request_, code, field):
    err = refused(request_)
    assert (err.code, err.field) == (code, field)


def test_wrong_tapes_are_refused():
    base = {"action": "roll", "bonus": 1, "difficulty": 3, "kind": "skill"}
    assert refused({**base, "faces": [6, 6]}).code == "faces_exhausted"
    assert refused({**base, "faces": [1]}).code == "faces_exhausted"
    assert refused({**base, "faces": [6, 1, 1]}).code == "faces_unused"
    assert refused({**base, "stressful": False, "faces": []}).code == "faces_exhausted"
    assert refused({**base, "bonus": 4, "stressful": False, "faces": [3]}).code == "faces_unused"


# --- properties --------------------------------------------------------------------

bonuses = st.integers(-20, 40)
kinds = st.sampled_from(["trait", "skill", "dmg", "loot", "other"])


@settings(max_examples=150, deadline=None)
@given(bonuses, st.integers(0, 60), kinds, st.booleans())
def test_any_valid_roll_replays_and_keeps_its_bounds(bonus, difficulty, kind, stressful):
    request = {"system": "apocalyptia", "action": "roll", "bonus": bonus}
    request |= {"difficulty": difficulty, "kind": kind, "stressful": stressful}
    result = adjudicate(request)
    assert replayed(request, result) == result
    assert (result["outcome"] == "success") is (
        result["total"] > difficulty and not result["botch"]
    )
    assert not (result["botch"] and result["critical"])
    if result["automatic"]:
        assert result["dice"] == [] and result["total"] == bonus
        return
    assert result["total"] >= bonus + 1
    if result["critical"]:
        assert kind != "other" and result["total"] >= bonus + 7
    if result["botch"]:
        assert result["total"] == bonus + 1


@settings(max_examples=150, deadline=None)
@given(bonuses, st.integers(0, 60), kinds, st.data())
def test_a_higher_bonus_never_loses_a_success(bonus, difficulty, kind, data):
    faces = [data.draw(st.integers(1, 6))]
    while faces[-1] == 6 and kind != "other" and len(faces) < 8:
        faces.append(data.draw(st.integers(1, 6)))
    if faces[-1] == 6 and kind != "other":
        faces.append(2)
    if faces == [1]:
        faces.append(data.draw(st.integers(1, 6)))
    base = {"bonus": bonus, "difficulty": difficulty, "kind": kind, "faces": faces}
    result = apoc("roll", **base)
    if bonus < 40 and result["outcome"] == "success":
        assert apoc("roll", **{**base, "bonus": bonus + 1})["outcome"] == "success"


@settings(max_examples=100, deadline=None)
@given(bonuses, bonuses)
def test_any_opposed_roll_replays_and_is_decided(actor, opponent):
    request = {"system": "apocalyptia", "action": "opposed"}
    request |= {"actor": {"bonus": actor}, "opponent": {"bonus": opponent}}
    result = adjudicate(request)
    assert replayed(request, result) == result
    assert result["margin"] == result["actor_total"] - result["opponent_total"] != 0
    assert (result["outcome"] == "actor") is (result["margin"] > 0)
    assert result["rounds"] >= 1
    firsts = [d for d in result["dice"] if d["role"] in ("regular", "reroll")]
    assert len(firsts) == 2 * result["rounds"]


@settings(max_examples=100, deadline=None)
@given(bonuses, bonuses, st.integers(0, 40), st.sampled_from(["dodge", "block"]))
def test_any_attack_replays_and_damages_only_on_a_hit(atk, dfn, weapon, defense):
    request = {"system": "apocalyptia", "action": "attack", "atk_bonus": atk}
    request |= {"def_bonus": dfn, "weapon_dmg": weapon, "defense": defense}
    result = adjudicate(request)
    assert replayed(request, result) == result
    if result["outcome"] == "hit":
        assert result["margin"] > 0
        assert result["damage"] == result["margin"] + weapon
    else:
        assert result["margin"] <= 0 and result["damage"] == 0
    broken = result["weapon_broken"]
    assert (broken in ("attacker", "both")) is result["atk_botch"]
    assert (broken in ("defender", "both")) is (result["def_botch"] and defense == "block")
