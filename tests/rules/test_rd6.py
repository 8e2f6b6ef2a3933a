"""Rd6 on pinned dice tapes: the seed's worked examples, every branch of the
Wild Die, extra wild dice, and the requests the rules refuse."""

from functools import partial

import pytest

from vtt.rules import adjudicate

from .pinned import refusal, throw

roll = partial(throw, "rd6", "roll")
refused = partial(refusal, "rd6")


def opposed(faces, actor, opponent, **fields):
    return adjudicate(
        {
            "system": "rd6",
            "action": "opposed",
            "actor": actor,
            "opponent": opponent,
            **fields,
            "faces": faces,
        }
    )


def roles(result):
    return [d["role"] for d in result["dice"]]


def values(result):
    return [d["value"] for d in result["dice"]]


# --- the seed's worked examples -------------------------------------------


def test_seed_shovel_adds_a_die_to_a_4d_skill():
    # Lifting 4D with a shovel (+1D): five dice, the last one wild.
    result = roll([2, 3, 4, 5, 3], dice=4, equipment_dice=1, difficulty=2)
    assert roles(result) == ["regular"] * 4 + ["wild"]
    assert result["pool"] == 5
    assert result["total"] == 17
    assert result["successes"] == 2
    assert result["outcome"] == "success"


def test_seed_agility_3d_plus_1_rolls_two_regular_dice_and_the_wild_die():
    result = roll([3, 4, 5], dice=3, pips=1, difficulty=2)
    assert roles(result) == ["regular", "regular", "wild"]
    assert result["total"] == 13
    assert result["successes"] == 2
    assert result["result_points"] == 0
    assert result["result_level"] == "Solid"


def test_seed_fate_point_on_4d_plus_2_rolls_seven_regular_dice_one_wild_and_four_pips():
    result = roll([1, 2, 3, 4, 5, 6, 1, 4], dice=4, pips=2, fate_point=True, difficulty=3)
    assert roles(result) == ["regular"] * 7 + ["wild"]
    assert (result["pool"], result["pips"]) == (8, 4)
    assert result["total"] == 22 + 4 + 4
    assert result["successes"] == 5
    assert (result["result_points"], result["result_level"]) == (2, "Superior")


def test_seed_fate_point_does_not_double_equipment():
    result = roll(
        [3, 3, 3, 3, 3],
        dice=2,
        pips=1,
        equipment_dice=1,
        equipment_pips=1,
        fate_point=True,
    )
    assert (result["pool"], result["pips"]) == (5, 3)
    assert result["total"] == 18


def test_seed_wild_die_explodes_while_sixes_come():
    result = roll([4, 6, 6, 3], dice=2)
    assert roles(result) == ["regular", "wild", "explosion", "explosion"]
    assert result["total"] == 4 + 6 + 6 + 3
    assert result["successes"] == 3
    assert result["critical_failure_check"] is None


def test_seed_one_on_a_later_throw_of_the_wild_die_is_just_one():
    result = roll([6, 1], dice=1)
    assert roles(result) == ["wild", "explosion"]
    assert result["total"] == 7
    assert result["critical_failure_check"] is None


@pytest.mark.parametrize(
    "points, level",
    [
        (0, "Solid"),
        (1, "Good"),
        (2, "Superior"),
        (3, "Spectacular"),
        (4, "Incredible"),
        (5, "Incredible"),
    ],
)
def test_seed_result_levels(points, level):
    # 3D+2 showing 5, 5, 4 is 16: two successes, so difficulty 2 - points.
    result = roll([5, 5, 4], dice=3, pips=2 + 6 * max(0, points - 2), difficulty=max(0, 2 - points))
    assert result["result_points"] == points
    assert result["result_level"] == level


def test_seed_incredible_result_is_1d_plus_1_when_every_three_points_buy_a_die():
    faces = [6, 6, 6, 4]  # 4D+2: 24, four successes against Very Easy
    one_for_one = roll(faces, dice=4, pips=2)
    every_three = roll(faces, dice=4, pips=2, result_dice="every_three")
    assert one_for_one["result_points"] == every_three["result_points"] == 4
    assert (one_for_one["damage_dice"], one_for_one["damage_pips"]) == (4, 0)
    assert (every_three["damage_dice"], every_three["damage_pips"]) == (1, 1)


def test_seed_very_easy_succeeds_unless_the_check_comes_up_one_again():
    assert roll([2], dice=1)["outcome"] == "success"
    assert roll([1, 4], dice=1, complication="narrate")["outcome"] == "success"
    failed = roll([1, 1], dice=1)
    assert failed["critical_failure_check"] == "true_critical_failure"
    assert failed["outcome"] == "failure"


def test_seed_opposed_ties_in_successes_fall_to_the_higher_total():
    result = opposed([6, 6, 5, 5, 5, 5], {"dice": 3}, {"dice": 3})
    assert (result["actor"]["total"], result["opponent"]["total"]) == (17, 15)
    assert result["margin"] == 0
    assert result["outcome"] == "actor"


# --- the Critical Failure Check -------------------------------------------


def test_true_critical_failure_fails_whatever_the_total():
    result = roll([6, 6, 1, 1], dice=3)
    assert roles(result) == ["regular", "regular", "wild", "crit_check"]
    assert result["critical_failure_check"] == "true_critical_failure"
    assert result["total"] == 13
    assert result["outcome"] == "failure"
    assert (result["result_points"], result["result_level"]) == (0, None)
    assert result["dice"][-1]["value"] == 0  # the check die adds nothing


@pytest.mark.parametrize("check", [2, 3, 4, 5])
def test_complication_by_default_cancels_the_wild_die_and_the_highest_regular_die(check):
    result = roll([6, 4, 1, check], dice=3, pips=2, difficulty=1)
    assert result["critical_failure_check"] == "complication"
    assert values(result) == [0, 4, 0, 0]
    assert result["total"] == 6
    assert result["outcome"] == "success"


def test_complication_cancels_only_one_of_tied_highest_dice():
    result = roll([5, 5, 1, 2], dice=3)
    assert values(result) == [0, 5, 0, 0]
    assert result["total"] == 5


def test_complication_on_a_single_die_leaves_only_the_pips():
    result = roll([1, 3], dice=1, pips=2)
    assert result["total"] == 2


def test_complication_narrated_keeps_the_total():
    result = roll([6, 4, 1, 3], dice=3, pips=2, complication="narrate")
    assert result["critical_failure_check"] == "complication"
    assert result["total"] == 13


def test_check_of_six_resolves_as_normal():
    result = roll([6, 4, 1, 6], dice=3, pips=2, difficulty=2)
    assert result["critical_failure_check"] == "normal"
    assert result["total"] == 13
    assert result["outcome"] == "success"


def test_complication_never_cancels_character_point_dice():
    result = roll([5, 1, 2, 4], dice=2, character_points=1)
    assert roles(result) == ["regular", "wild", "crit_check", "cp_wild"]
    assert values(result) == [0, 0, 0, 4]
    assert result["total"] == 4


# --- Character Points, Fate Points, Rolling Up ----------------------------


def test_character_point_die_showing_one_is_just_one():
    result = roll([3, 4, 1, 6, 2], dice=2, character_points=2)
    assert roles(result) == ["regular", "wild", "cp_wild", "cp_wild", "explosion"]
    assert result["total"] == 3 + 4 + 1 + 8
    assert result["critical_failure_check"] is None


def test_wild_die_explosions_come_before_character_point_dice():
    result = roll([3, 6, 5, 6, 6, 1], dice=2, character_points=1)
    assert roles(result) == ["regular", "wild", "explosion", "cp_wild", "explosion", "explosion"]
    assert result["total"] == 3 + 11 + 13


def test_check_die_comes_before_character_point_dice():
    result = roll([4, 1, 6, 1], dice=2, character_points=1)
    assert roles(result) == ["regular", "wild", "crit_check", "cp_wild"]
    assert result["critical_failure_check"] == "normal"
    assert result["total"] == 6


def test_character_points_and_fate_point_are_refused_together():
    error = refused({"action": "roll", "dice": 3, "character_points": 1, "fate_point": True})
    assert (error.code, error.field) == ("cp_and_fp", "character_points")


def test_rolling_up_makes_a_second_pool_die_wild_after_the_character_points():
    faces = [2, 6, 6, 1, 6, 3, 6, 2]
    result = roll(faces, dice=3, rolling_up=True, character_points=1)
    assert roles(result) == [
        "regular",
        "wild",
        "explosion",
        "explosion",
        "cp_wild",
        "explosion",
        "rollup_wild",
        "explosion",
    ]
    assert result["pool"] == 3
    assert result["total"] == 2 + 13 + 9 + 8


def test_rolling_up_second_wild_die_showing_one_is_just_one():
    result = roll([2, 3, 1], dice=3, rolling_up=True)
    assert result["total"] == 6
    assert result["critical_failure_check"] is None


def test_rolling_up_2d_makes_both_dice_wild():
    result = roll([1, 3, 5], dice=2, rolling_up=True)
    assert roles(result) == ["wild", "crit_check", "rollup_wild"]
    assert result["critical_failure_check"] == "complication"
    assert values(result) == [0, 0, 5]
    assert result["total"] == 5


@pytest.mark.parametrize(
    "faces, kept, total",
    [
        ([2, 5], [0, 5], 5),  # the added die is higher
        ([6, 3, 4], [6, 3, 0], 9),  # the exploded Wild Die is higher
        ([3, 3], [3, 0], 3),  # a tie keeps the Wild Die
        ([1, 4, 4], [0, 0, 4], 4),  # a complication cancels the Wild Die
        ([1, 6, 1], [1, 0, 0], 1),  # check of 6, tie at 1: the Wild Die counts
    ],
)
def test_rolling_up_1d_adds_a_die_and_keeps_the_higher(faces, kept, total):
    result = roll(faces, dice=1, rolling_up=True, difficulty=0)
    assert result["pool"] == 1
    assert values(result) == kept
    assert result["total"] == total


def test_rolling_up_1d_still_fails_on_a_true_critical_failure():
    result = roll([1, 1, 6, 5], dice=1, rolling_up=True)
    assert roles(result) == ["wild", "crit_check", "rollup_wild", "explosion"]
    assert result["total"] == 11
    assert result["outcome"] == "failure"


def test_rolling_up_1d_with_a_character_point():
    result = roll([2, 4, 5], dice=1, rolling_up=True, character_points=1)
    assert roles(result) == ["wild", "cp_wild", "rollup_wild"]
    assert result["total"] == 9


# --- die code modifiers, difficulty, Second Chance --------------------------


@pytest.mark.parametrize("dice, modifier", [(2, -3), (1, -10), (3, -3)])
def test_modifiers_never_take_the_pool_below_1d(dice, modifier):
    result = roll([4], dice=dice, pips=1, modifier_dice=modifier)
    assert result["pool"] == 1
    assert roles(result) == ["wild"]
    assert result["total"] == 5


def test_modifier_dice_add_regular_dice():
    result = roll([1, 2, 3, 4, 5], dice=2, modifier_dice=3)
    assert roles(result) == ["regular"] * 4 + ["wild"]


def test_difficulty_zero_succeeds_with_no_successes():
    result = roll([2], dice=1, difficulty=0)
    assert (result["successes"], result["needed"]) == (0, 0)
    assert result["outcome"] == "success"
    assert (result["result_points"], result["result_level"]) == (0, "Solid")


def test_difficulty_modifier_adds_to_difficulty_and_never_below_zero():
    assert roll([3, 3], dice=2, difficulty=2, difficulty_modifier=1)["needed"] == 3
    result = roll([1, 2, 2], dice=3, difficulty=1, difficulty_modifier=-3)
    assert result["needed"] == 0
    assert result["outcome"] == "success"


def test_a_full_six_is_one_success():
    assert roll([3, 2], dice=2)["successes"] == 0
    assert roll([3, 3], dice=2)["successes"] == 1
    assert roll([3, 3], dice=2, pips=5)["successes"] == 1
    assert roll([3, 3], dice=2, pips=6)["successes"] == 2


def test_negative_total_has_no_successes():
    result = roll([2], dice=1, pips=-5)
    assert result["total"] == -3
    assert result["successes"] == 0


def test_second_chance_needs_one_more_success_and_earns_no_points():
    result = roll([6, 6, 5], dice=3, difficulty=1, retry=True)
    assert result["needed"] == 2
    assert result["outcome"] == "success"
    assert (result["result_points"], result["result_level"]) == (0, "Solid")
    assert result["damage_dice"] == 0
    assert roll([3, 3, 4], dice=3, difficulty=1)["outcome"] == "success"
    assert roll([3, 3, 4], dice=3, difficulty=1, retry=True)["outcome"] == "failure"


def test_second_chance_penalty_bought_off_with_a_character_point():
    result = roll([3, 3, 4], dice=3, difficulty=1, retry=True, difficulty_modifier=-1)
    assert result["needed"] == 1
    assert result["outcome"] == "success"
    assert result["result_points"] == 0


@pytest.mark.parametrize("retry", [True, False])
def test_no_second_chance_after_a_true_critical_failure(retry):
    error = refused(
        {"action": "roll", "dice": 3, "retry": retry, "previous_true_critical_failure": True}
    )
    assert error.code == "retry_after_true_critical_failure"
    assert error.field == "previous_true_critical_failure"


# --- Catastrophic Failure ---------------------------------------------------


def test_catastrophic_failure_needs_the_setting_every_regular_one_and_a_true_critical():
    assert roll([1, 1, 1, 1], dice=3, catastrophic_failure=True)["catastrophic"] is True
    assert roll([1, 1, 1, 1], dice=3)["catastrophic"] is False
    assert roll([1, 2, 1, 1], dice=3, catastrophic_failure=True)["catastrophic"] is False
    assert roll([1, 1, 1, 2], dice=3, catastrophic_failure=True)["catastrophic"] is False


def test_catastrophic_failure_on_a_single_die():
    result = roll([1, 1], dice=1, catastrophic_failure=True)
    assert result["catastrophic"] is True
    assert result["outcome"] == "failure"


# --- result points into damage dice ---------------------------------------


def test_result_points_become_damage_dice_one_for_one_by_default():
    result = roll([6, 6, 3], dice=3, difficulty=1)  # 15: two successes
    assert (result["result_points"], result["damage_dice"], result["damage_pips"]) == (1, 1, 0)


def test_failure_buys_no_damage_dice():
    result = roll([1, 2, 2], dice=3, difficulty=2)
    assert result["outcome"] == "failure"
    assert (result["result_points"], result["damage_dice"], result["result_level"]) == (0, 0, None)


# --- opposed ----------------------------------------------------------------


def test_opposed_more_successes_win():
    result = opposed([1, 2, 3, 4, 4, 4], {"dice": 3}, {"dice": 3})
    assert [d["pool"] for d in result["dice"]] == ["actor"] * 3 + ["opponent"] * 3
    assert result["margin"] == -1
    assert result["outcome"] == "opponent"
    assert (result["result_points"], result["result_level"]) == (1, "Good")


def test_opposed_equal_totals_draw():
    result = opposed([3, 3, 3, 3, 3, 3], {"dice": 3}, {"dice": 3})
    assert result["outcome"] == "draw"
    assert (result["result_points"], result["result_level"]) == (0, None)


def test_opposed_true_critical_failure_loses_whatever_the_totals():
    result = opposed([6, 6, 1, 1, 1, 1, 2], {"dice": 3}, {"dice": 3})
    assert result["actor"]["critical_failure_check"] == "true_critical_failure"
    assert result["actor"]["successes"] > result["opponent"]["successes"]
    assert result["outcome"] == "opponent"
    assert result["result_points"] == 0


def test_opposed_both_true_critical_failures_draw():
    result = opposed([1, 1, 1, 1], {"dice": 1}, {"dice": 1, "pips": 6})
    assert result["outcome"] == "draw"


def test_opposed_sides_have_their_own_extra_dice_and_settings():
    result = opposed(
        [4, 1, 3, 6, 2, 5, 5],
        {"dice": 2, "pips": 1, "complication": "narrate"},
        {"dice": 2, "character_points": 1, "rolling_up": True},
        result_dice="every_three",
    )
    assert roles(result) == [
        "regular",
        "wild",
        "crit_check",
        "wild",
        "explosion",
        "cp_wild",
        "rollup_wild",
    ]
    assert result["actor"]["total"] == 6
    assert result["opponent"]["total"] == 8 + 5 + 5
    assert result["outcome"] == "opponent"
    assert (result["result_points"], result["damage_dice"], result["damage_pips"]) == (2, 0, 2)


def test_opposed_character_and_fate_points_refused_per_side():
    error = refused(
        {
            "action": "opposed",
            "actor": {"dice": 2},
            "opponent": {"dice": 2, "fate_point": True, "character_points": 2},
        }
    )
    assert (error.code, error.field) == ("cp_and_fp", "opponent.character_points")


# --- bad requests -----------------------------------------------------------


@pytest.mark.parametrize(
    "request_body, code, field",
    [
        ({"action": "roll", "dice": 3, "wild": 1}, "unknown_field", "wild"),
        ({"action": "roll"}, "invalid", "dice"),
        ({"action": "roll", "dice": 0}, "invalid", "dice"),
        ({"action": "roll", "dice": 31}, "invalid", "dice"),
        ({"action": "roll", "dice": "3"}, "invalid", "dice"),
        ({"action": "roll", "dice": 3.0}, "invalid", "dice"),
        ({"action": "roll", "dice": True}, "invalid", "dice"),
        ({"action": "roll", "dice": 3, "pips": 21}, "invalid", "pips"),
        ({"action": "roll", "dice": 3, "modifier_dice": -11}, "invalid", "modifier_dice"),
        ({"action": "roll", "dice": 3, "equipment_dice": -1}, "invalid", "equipment_dice"),
        ({"action": "roll", "dice": 3, "character_points": 11}, "invalid", "character_points"),
        ({"action": "roll", "dice": 3, "fate_point": 1}, "invalid", "fate_point"),
        ({"action": "roll", "dice": 3, "difficulty": -1}, "invalid", "difficulty"),
        ({"action": "roll", "dice": 3, "difficulty": 61}, "invalid", "difficulty"),
        ({"action": "roll", "dice": 3, "complication": "ignore"}, "invalid", "complication"),
        ({"action": "roll", "dice": 3, "result_dice": "two"}, "invalid", "result_dice"),
        ({"action": "roll", "dice": 3, "retry": "yes"}, "invalid", "retry"),
        ({"action": "opposed", "actor": {"dice": 2}}, "invalid", "opponent"),
        ({"action": "opposed", "actor": 3, "opponent": {"dice": 2}}, "invalid", "actor"),
        (
            {"action": "opposed", "actor": {"dice": 2, "difficulty": 1}, "opponent": {"dice": 2}},
            "unknown_field",
            "actor.difficulty",
        ),
        (
            {"action": "opposed", "actor": {"dice": 2}, "opponent": {"dice": 99}},
            "invalid",
            "opponent.dice",
        ),
        ({"action": "throw", "dice": 3}, "invalid", "action"),
    ],
)
def test_bad_requests(request_body, code, field):
    error = refused(request_body)
    assert (error.code, error.field) == (code, field)


def test_tape_too_short_for_an_explosion():
    error = refused({"action": "roll", "dice": 2, "faces": [3, 6]})
    assert error.code == "faces_exhausted"


def test_tape_too_short_for_the_check_die():
    error = refused({"action": "roll", "dice": 2, "faces": [3, 1]})
    assert error.code == "faces_exhausted"


def test_tape_with_a_face_too_many():
    error = refused({"action": "roll", "dice": 2, "faces": [3, 2, 4]})
    assert error.code == "faces_unused"
