"""The Insight Die reroll: fresh dice in place of one or both original dice,
the earlier check rebuilt from its own dice and never trusted."""

import json

import pytest

from vtt.rules.engine import adjudicate
from vtt.rules.errors import RulesError


def check(faces, action="check", **fields):
    result = adjudicate({"system": "xerosum", "action": action, **fields, "faces": faces})
    return json.loads(json.dumps(result))  # as it comes back from the wire


def reroll(earlier, replace, faces):
    request = {"system": "xerosum", "action": "reroll", "check": earlier, "replace": replace}
    return adjudicate({**request, "faces": faces})


def refusal(earlier, replace=(0,), faces=(4,)):
    with pytest.raises(RulesError) as err:
        reroll(earlier, list(replace), list(faces))
    return err.value


def test_reroll_one_die_keeps_the_other_and_the_modifiers():
    earlier = check([2, 5], amod=2)  # 9, a success
    result = reroll(earlier, [0], [6])
    assert result["counted_faces"] == [6, 5]
    assert result["total"] == 13
    assert result["outcome"] == "success"
    assert result["insight_spent"] == 1
    assert result["dice"] == [
        {"pool": "actor", "role": "insight", "face": 6, "value": 6, "success": None}
    ]


def test_reroll_both_dice_costs_two():
    earlier = check([1, 2], smod=1)  # 4, a failure
    result = reroll(earlier, [0, 1], [5, 4])
    assert result["counted_faces"] == [5, 4]
    assert result["total"] == 10
    assert result["outcome"] == "success"
    assert result["insight_spent"] == 2
    assert result["replaced"] == [0, 1]


def test_reroll_throws_fresh_dice_in_die_order_whatever_order_is_asked():
    earlier = check([3, 3])
    result = reroll(earlier, [1, 0], [6, 2])
    assert result["replaced"] == [0, 1]
    assert result["counted_faces"] == [6, 2]


def test_reroll_can_make_a_moment_of_high_insight():
    earlier = check([6, 2])
    result = reroll(earlier, [1], [6])
    assert result["moment_of_insight"] == "high"
    assert result["outcome"] == "wild_success"
    assert result["insight_gained"] == 1


def test_reroll_can_make_a_moment_of_low_insight():
    earlier = check([1, 6], amod=4, smod=4)
    result = reroll(earlier, [1], [1])
    assert result["total"] == 10
    assert result["outcome"] == "dire_failure"
    assert result["insight_gained"] == 1


def test_rerolling_a_double_one_away_reads_the_new_total():
    earlier = check([1, 1], amod=3)
    assert earlier["insight_gained"] == 1
    result = reroll(earlier, [0], [6])
    assert result["moment_of_insight"] is None
    assert result["total"] == 10
    assert result["outcome"] == "success"
    assert result["insight_gained"] == 0


def test_a_check_grants_at_most_one_die_even_after_a_reroll():
    earlier = check([1, 1])
    result = reroll(earlier, [1], [1])
    assert result["moment_of_insight"] == "low"
    assert result["insight_gained"] == 0


def test_reroll_of_a_3d6_check_keeps_the_extra_insight_die():
    earlier = check([2, 3, 6], insight_extra_die=True)
    result = reroll(earlier, [0, 1], [6, 4])
    assert result["counted_faces"] == [6, 4, 6]
    assert result["moment_of_insight"] == "high"
    assert result["insight_spent"] == 2


def test_reroll_keeps_the_insight_cmod_bought_before_the_roll():
    earlier = check([2, 2], insight_cmod=True)
    result = reroll(earlier, [0], [4])
    assert result["modifier"] == 3
    assert result["total"] == 9
    assert result["insight_spent"] == 1  # the earlier spend was counted by the check


def test_reroll_of_a_gambit_carries_the_gambits_consequence():
    earlier = check([2, 3], action="gambit", amod=1)
    assert earlier["consequence"] == "falls_short"
    result = reroll(earlier, [1], [6])
    assert result["rerolled"] == "gambit"
    assert result["outcome"] == "success"
    assert (result["consequence"], result["rebuttal_cmod"]) == ("intrigued", -1)


def test_reroll_of_a_rebuttal_keeps_the_gambits_cmod():
    earlier = check([4, 5], action="rebuttal", rebuttal_cmod=-3)
    result = reroll(earlier, [0], [5])
    assert result["total"] == 7
    assert result["negotiation_over"] is True


def test_reroll_replay_gives_the_same_result():
    earlier = check([3, 4], cmod=-2)
    first = adjudicate({"system": "xerosum", "action": "reroll", "check": earlier, "replace": [0]})
    again = reroll(earlier, [0], [d["face"] for d in first["dice"]])
    assert again == first


# --- the earlier result is checked, not trusted ------------------------------


def test_a_total_edited_by_hand_is_refused():
    earlier = check([2, 3])
    earlier["total"] = 12
    err = refusal(earlier)
    assert (err.code, err.field) == ("invalid", "check.total")


def test_an_edited_outcome_is_refused():
    earlier = check([2, 3])
    earlier["outcome"] = "success"
    assert refusal(earlier).field == "check.outcome"


def test_an_edited_modifier_echo_is_refused_by_its_totals():
    earlier = check([4, 5])
    earlier["amod"] = 4
    assert refusal(earlier).field == "check.modifier"


def test_a_total_as_a_float_is_refused():
    earlier = check([4, 5])
    earlier["total"] = 9.0
    assert refusal(earlier).field == "check.total"


def test_a_field_missing_from_the_check_is_refused():
    earlier = check([4, 5])
    del earlier["insight_spent"]
    assert refusal(earlier).field == "check.insight_spent"


def test_an_extra_field_in_the_check_is_unknown():
    earlier = check([4, 5])
    earlier["bonus"] = 3
    err = refusal(earlier)
    assert (err.code, err.field) == ("unknown_field", "check.bonus")


def test_a_die_added_to_the_check_is_refused():
    earlier = check([4, 5])
    earlier["dice"].append(dict(earlier["dice"][0]))
    assert refusal(earlier).field == "check.dice"


def test_a_face_out_of_range_is_refused():
    earlier = check([4, 5])
    earlier["dice"][1]["face"] = 7
    assert refusal(earlier).field == "check.dice[1].face"


def test_a_die_with_a_changed_role_is_refused():
    earlier = check([4, 5])
    earlier["dice"][1]["role"] = "insight"
    assert refusal(earlier).field == "check.dice"


def test_a_group_check_cannot_be_rerolled():
    earlier = check([4, 5], action="group", participants=[{}, {}])
    err = refusal(earlier)
    assert err.field == "check.action"
    assert "Group Check" in err.message


def test_an_opposed_check_cannot_be_rerolled():
    earlier = check([4, 5, 1, 2], action="opposed", actor={}, opponent={})
    assert refusal(earlier).field == "check.action"


def test_a_reroll_result_cannot_be_rerolled():
    earlier = reroll(check([4, 5]), [0], [1])
    assert refusal(earlier).field == "check.action"


def test_another_games_result_is_refused():
    earlier = check([4, 5])
    earlier["system"] = "artifice"
    assert refusal(earlier).field == "check.system"


@pytest.mark.parametrize("not_a_check", [None, 3, "check", [4, 5]])
def test_a_check_that_is_not_an_object_is_refused(not_a_check):
    assert refusal(not_a_check).field == "check"


@pytest.mark.parametrize(
    "replace, field",
    [
        ([], "replace"),
        ([0, 0], "replace"),
        ([2], "replace[0]"),
        ([0, 1, 1], "replace"),
        ([True], "replace[0]"),
        ("0", "replace"),
        ([-1], "replace[0]"),
    ],
)
def test_replace_must_name_one_or_both_original_dice(replace, field):
    earlier = check([4, 5], insight_extra_die=False)
    with pytest.raises(RulesError) as err:
        reroll(earlier, replace, [4])
    assert (err.value.code, err.value.field) == ("invalid", field)


def test_the_extra_die_of_a_3d6_check_cannot_be_replaced():
    earlier = check([4, 5, 6], insight_extra_die=True)
    with pytest.raises(RulesError) as err:
        reroll(earlier, [2], [4])
    assert err.value.field == "replace[0]"


def test_reroll_tape_must_hold_one_face_per_replaced_die():
    earlier = check([4, 5])
    with pytest.raises(RulesError) as err:
        reroll(earlier, [0, 1], [4])
    assert err.value.code == "faces_exhausted"
    with pytest.raises(RulesError) as err:
        reroll(earlier, [0], [4, 4])
    assert err.value.code == "faces_unused"
