"""Xero Sum with pinned dice tapes: the seed's statements, the outcome bands at
their edges, the Moments of Insight, the social checks, Opposed and Group."""

from functools import partial

import pytest

from .pinned import throw

roll = partial(throw, "xerosum")


# --- the seed's statements, one by one -------------------------------------


def test_seed_nine_or_above_is_a_success():
    result = roll("check", [4, 5])
    assert (result["total"], result["outcome"]) == (9, "success")


def test_seed_modifiers_are_cumulative():
    # "add or subtract modifiers for skills, attributes, and conditions"
    result = roll("check", [2, 3], amod=2, smod=3, cmod=-1)
    assert result["dice_total"] == 5
    assert result["modifier"] == 4
    assert result["total"] == 9


def test_seed_attribute_check_applies_only_the_amod():
    result = roll("check", [3, 3], amod=3)
    assert result["total"] == 9
    assert result["outcome"] == "success"


def test_seed_double_one_is_low_insight_dire_failure_and_a_die():
    result = roll("check", [1, 1])
    assert result["moment_of_insight"] == "low"
    assert result["outcome"] == "dire_failure"
    assert result["insight_gained"] == 1


def test_seed_double_six_is_high_insight_wild_success_and_a_die():
    result = roll("check", [6, 6])
    assert result["moment_of_insight"] == "high"
    assert result["outcome"] == "wild_success"
    assert result["insight_gained"] == 1


@pytest.mark.parametrize(
    "faces, amod, outcome, future_cmod",
    [
        ([4, 5], 0, "success", 0),
        ([3, 5], 0, "failure", -1),
        ([1, 2], 0, "dire_failure", -5),
        ([1, 1], 4, "dire_failure", -5),
        ([6, 5], 3, "wild_success", 1),
        ([6, 6], -2, "wild_success", 1),
    ],
)
def test_seed_first_impression_sets_future_interactions(faces, amod, outcome, future_cmod):
    result = roll("first_impression", faces, amod=amod)
    assert result["outcome"] == outcome
    assert result["future_cmod"] == future_cmod


@pytest.mark.parametrize(
    "faces, outcome, consequence",
    [
        ([6, 6], "wild_success", "understands_motivations"),
        ([5, 4], "success", "gets_a_read"),
        ([2, 4], "failure", "no_read"),
        ([1, 1], "dire_failure", "takes_at_face_value"),
    ],
)
def test_seed_gut_instinct(faces, outcome, consequence):
    result = roll("gut_instinct", faces)
    assert (result["outcome"], result["consequence"]) == (outcome, consequence)


@pytest.mark.parametrize(
    "faces, outcome, rebuttal_cmod, over",
    [
        ([6, 6], "wild_success", -3, False),
        ([5, 4], "success", -1, False),
        ([2, 4], "failure", 1, False),
        ([1, 2], "dire_failure", None, True),
        ([1, 1], "dire_failure", None, True),
    ],
)
def test_seed_gambit_hands_a_cmod_to_the_rebuttal(faces, outcome, rebuttal_cmod, over):
    result = roll("gambit", faces)
    assert result["outcome"] == outcome
    assert result["rebuttal_cmod"] == rebuttal_cmod
    assert result["negotiation_over"] is over


@pytest.mark.parametrize(
    "faces, outcome, consequence, over",
    [
        ([6, 6], "wild_success", "very_likely_to_consider", False),
        ([5, 4], "success", "may_consider", False),
        ([2, 4], "failure", "poorly_received", True),
        ([1, 1], "dire_failure", "turns_hostile", True),
    ],
)
def test_seed_rebuttal(faces, outcome, consequence, over):
    result = roll("rebuttal", faces)
    assert (result["outcome"], result["consequence"]) == (outcome, consequence)
    assert result["negotiation_over"] is over


def test_rebuttal_takes_the_gambits_cmod():
    # The Gambit was a success: -1 on the Rebuttal turns a 9 into a failure.
    result = roll("rebuttal", [4, 5], rebuttal_cmod=-1)
    assert result["total"] == 8
    assert result["outcome"] == "failure"
    assert result["rebuttal_cmod"] == -1


# --- the bands at their edges ----------------------------------------------


@pytest.mark.parametrize(
    "faces, mods, total, outcome",
    [
        ([1, 2], {}, 3, "dire_failure"),
        ([2, 2], {}, 4, "failure"),
        ([3, 5], {}, 8, "failure"),
        ([4, 5], {}, 9, "success"),
        ([6, 5], {"amod": 2}, 13, "success"),
        ([6, 5], {"amod": 3}, 14, "wild_success"),
        ([3, 4], {"amod": -2, "smod": -3, "cmod": -5}, -3, "dire_failure"),
        ([5, 6], {"amod": 4, "smod": 4, "cmod": 5}, 24, "wild_success"),
        ([2, 3], {"cmod": -1}, 4, "failure"),
        ([2, 3], {"cmod": -2}, 3, "dire_failure"),
    ],
)
def test_bands(faces, mods, total, outcome):
    result = roll("check", faces, **mods)
    assert result["total"] == total
    assert result["outcome"] == outcome
    assert result["moment_of_insight"] is None
    assert result["insight_gained"] == 0


def test_double_one_whose_total_would_succeed_is_still_a_dire_failure():
    result = roll("check", [1, 1], amod=4, smod=4, cmod=5)
    assert result["total"] == 15
    assert result["outcome"] == "dire_failure"
    assert result["moment_of_insight"] == "low"


def test_double_six_whose_total_would_fail_is_still_a_wild_success():
    result = roll("check", [6, 6], amod=-2, smod=-3, cmod=-5)
    assert result["total"] == 2
    assert result["outcome"] == "wild_success"


def test_check_result_shape_and_dice():
    result = roll("check", [2, 5], amod=1)
    assert list(result) == [
        "system",
        "action",
        "amod",
        "smod",
        "cmod",
        "insight_extra_die",
        "insight_cmod",
        "dice_total",
        "modifier",
        "total",
        "moment_of_insight",
        "insight_gained",
        "insight_spent",
        "outcome",
        "dice",
    ]
    assert result["dice"] == [
        {"pool": "actor", "role": "regular", "face": 2, "value": 2, "success": None},
        {"pool": "actor", "role": "regular", "face": 5, "value": 5, "success": None},
    ]


# --- Insight Dice spent before the roll -------------------------------------


def test_extra_die_rolls_3d6_and_costs_one():
    result = roll("check", [3, 4, 5], insight_extra_die=True)
    assert result["total"] == 12
    assert result["insight_spent"] == 1
    assert [d["role"] for d in result["dice"]] == ["regular", "regular", "insight"]


@pytest.mark.parametrize(
    "faces, moment, outcome",
    [
        ([1, 5, 1], "low", "dire_failure"),
        ([5, 1, 1], "low", "dire_failure"),
        ([1, 1, 1], "low", "dire_failure"),
        ([6, 2, 6], "high", "wild_success"),
        ([2, 6, 6], "high", "wild_success"),
        ([6, 6, 6], "high", "wild_success"),
        ([1, 6, 3], None, "success"),
    ],
)
def test_extra_die_counts_for_moments_of_insight(faces, moment, outcome):
    # Any two of the three dice make the Moment; three alike still give one die.
    result = roll("check", faces, insight_extra_die=True)
    assert result["moment_of_insight"] == moment
    assert result["outcome"] == outcome
    assert result["insight_gained"] == (moment is not None)


def test_low_insight_on_3d6_overrides_a_total_of_ten():
    result = roll("check", [1, 6, 1], insight_extra_die=True, amod=2)
    assert result["total"] == 10
    assert result["outcome"] == "dire_failure"


def test_insight_cmod_adds_three():
    result = roll("check", [3, 3], insight_cmod=True)
    assert result["modifier"] == 3
    assert result["total"] == 9
    assert result["outcome"] == "success"
    assert result["insight_spent"] == 1


def test_both_spends_on_one_check_cost_two():
    result = roll("check", [2, 2, 2], insight_extra_die=True, insight_cmod=True)
    assert result["total"] == 9
    assert result["insight_spent"] == 2


# --- opposed ----------------------------------------------------------------


def test_opposed_draw():
    result = roll("opposed", [3, 4, 5, 2], actor={"amod": 1}, opponent={"smod": 1})
    assert result["actor"]["total"] == result["opponent"]["total"] == 8
    assert result["margin"] == 0
    assert result["outcome"] == "draw"


def test_opposed_higher_total_wins_either_way():
    assert roll("opposed", [5, 5, 4, 5], actor={}, opponent={})["outcome"] == "actor"
    result = roll("opposed", [5, 5, 4, 5], actor={}, opponent={"cmod": 2})
    assert result["outcome"] == "opponent"
    assert result["margin"] == -1


def test_opposed_tape_order_actor_then_opponent_with_extra_dice():
    result = roll(
        "opposed",
        [1, 2, 3, 4, 5, 6],
        actor={"insight_extra_die": True},
        opponent={"insight_extra_die": True},
    )
    assert [(d["pool"], d["role"], d["face"]) for d in result["dice"]] == [
        ("actor", "regular", 1),
        ("actor", "regular", 2),
        ("actor", "insight", 3),
        ("opponent", "regular", 4),
        ("opponent", "regular", 5),
        ("opponent", "insight", 6),
    ]
    assert result["actor"]["insight_spent"] == result["opponent"]["insight_spent"] == 1
    assert result["outcome"] == "opponent"


def test_opposed_moment_grants_a_die_but_only_totals_decide():
    # No degrees: a double one with +8 still beats a plain 9.
    result = roll("opposed", [1, 1, 4, 5], actor={"amod": 4, "smod": 4}, opponent={})
    assert result["actor"]["moment_of_insight"] == "low"
    assert result["actor"]["insight_gained"] == 1
    assert result["opponent"]["insight_gained"] == 0
    assert result["outcome"] == "actor"
    assert "outcome" not in result["actor"]


# --- group ------------------------------------------------------------------


def test_group_highest_amod_plus_smod_rolls_and_others_add_amod_and_cmod():
    participants = [
        {"amod": 1, "smod": 0, "cmod": 1},
        {"amod": 2, "smod": 3, "cmod": 0},
        {"amod": -1, "smod": 4, "cmod": 2},
    ]
    result = roll("group", [3, 4], participants=participants)
    assert result["roller"] == 1
    # roller 2 + 3 + 0, others (1 + 1) and (-1 + 2); their SMods do not count
    assert result["modifier"] == 8
    assert result["total"] == 15
    assert result["outcome"] == "wild_success"
    assert result["insight_spent"] == 0


def test_group_tie_goes_to_the_higher_smod():
    participants = [{"amod": 3, "smod": 1}, {"amod": 1, "smod": 3}]
    result = roll("group", [3, 3], participants=participants)
    assert result["roller"] == 1
    assert result["modifier"] == 1 + 3 + 3


def test_group_full_tie_goes_to_the_first_listed():
    participants = [{"amod": 2, "smod": 2, "cmod": -1}, {"amod": 2, "smod": 2, "cmod": 3}]
    result = roll("group", [2, 2], participants=participants)
    assert result["roller"] == 0
    assert result["modifier"] == 2 + 2 - 1 + 2 + 3


def test_group_moment_grants_every_participant_a_die():
    participants = [{"amod": 1}, {"amod": 0}, {"smod": 2}]
    result = roll("group", [1, 1], participants=participants)
    assert result["moment_of_insight"] == "low"
    assert result["outcome"] == "dire_failure"
    assert result["insight_gained"] == 1
    assert result["insight_gained_by"] == [0, 1, 2]


def test_group_without_moment_grants_nothing():
    result = roll("group", [2, 6], participants=[{}, {}])
    assert result["insight_gained"] == 0
    assert result["insight_gained_by"] == []
    assert result["outcome"] == "failure"
