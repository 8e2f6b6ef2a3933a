"""Fantasy Ground Rules adjudication: seed examples, pinned tapes, refusals and
the invariants every roll keeps."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.engine import adjudicate
from vtt.rules.errors import RulesError

from .pinned import replayed


def fgr(action, **fields):
    return adjudicate({"system": "fgr", "action": action, **fields})


def refused(request: dict) -> RulesError:
    with pytest.raises(RulesError) as err:
        adjudicate(request)
    return err.value


# --- seed examples -----------------------------------------------------------


def test_seed_athletics_roll_4d_scores_three_successes():
    result = fgr("roll", skill=4, difficulty=3, faces=[1, 3, 3, 5])
    assert result["successes"] == 3
    assert result["outcome"] == "success"
    assert result["luck"] is False
    assert result["critical_failure"] is False
    assert [d["success"] for d in result["dice"]] == [False, True, True, True]
    assert {d["role"] for d in result["dice"]} == {"regular"}
    assert {d["pool"] for d in result["dice"]} == {"actor"}


def test_seed_numerical_roll_4d_totals_13():
    result = fgr("numeric", dice=4, faces=[2, 3, 4, 4])
    assert result["total"] == 13
    assert result["outcome"] == "rolled"
    assert [d["value"] for d in result["dice"]] == [2, 3, 4, 4]
    assert all(d["success"] is None for d in result["dice"])


# --- roll ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, faces, successes, outcome",
    [
        ({"skill": 3, "difficulty": 2}, [1, 2, 3], 1, "failure"),
        ({"skill": 3, "difficulty": 3}, [3, 4, 6], 3, "success"),
        ({"skill": 2, "difficulty": 1}, [1, 2], 0, "failure"),
        # Help and hindrance change how many dice are thrown.
        ({"skill": 2, "modifier_dice": 2, "difficulty": 4}, [3, 3, 3, 3], 4, "success"),
        ({"skill": 4, "modifier_dice": -2, "difficulty": 2}, [6, 2], 1, "failure"),
        # Action points: a failure bought into a success, one success a point.
        ({"skill": 3, "difficulty": 3, "action_points": 2}, [1, 2, 5], 3, "success"),
        ({"skill": 3, "difficulty": 4, "action_points": 2}, [1, 2, 5], 3, "failure"),
        ({"skill": 1, "difficulty": 5, "action_points": 5}, [1], 5, "success"),
    ],
)
def test_skill_roll_counts_three_to_six(fields, faces, successes, outcome):
    result = fgr("roll", **fields, faces=faces)
    assert result["successes"] == successes
    assert result["outcome"] == outcome
    assert result["luck"] is False
    assert len(result["dice"]) == len(faces)


@pytest.mark.parametrize(
    "fields",
    [
        {"skill": 0},  # no levels in the skill
        {"skill": 2, "modifier_dice": -2},  # penalties leave 0D
        {"skill": 1, "modifier_dice": -2},  # or less
    ],
)
def test_no_dice_left_is_a_luck_roll_of_one_die(fields):
    result = fgr("roll", **fields, difficulty=1, faces=[6])
    assert result["luck"] is True
    assert result["dice"] == [
        {"pool": "actor", "role": "luck", "face": 6, "value": 6, "success": True}
    ]


@pytest.mark.parametrize(
    "face, successes, critical, outcome",
    [
        (6, 1, False, "success"),
        (1, 0, True, "failure"),
        (5, 0, False, "failure"),  # a 3-5 is no success on a Luck Roll
        (3, 0, False, "failure"),
        (2, 0, False, "failure"),
    ],
)
def test_luck_roll_succeeds_only_on_six_and_fails_critically_on_one(
    face, successes, critical, outcome
):
    result = fgr("roll", skill=0, difficulty=1, faces=[face])
    assert result["successes"] == successes
    assert result["critical_failure"] is critical
    assert result["outcome"] == outcome
    assert result["dice"][0]["success"] is (face == 6)


def test_action_points_count_on_a_luck_roll():
    result = fgr("roll", skill=0, difficulty=2, action_points=1, faces=[6])
    assert (result["successes"], result["outcome"]) == (2, "success")
    result = fgr("roll", skill=0, difficulty=1, action_points=1, faces=[4])
    assert (result["successes"], result["outcome"]) == (1, "success")


def test_action_points_do_not_undo_a_critical_failure():
    result = fgr("roll", skill=0, difficulty=1, action_points=3, faces=[1])
    assert result["successes"] == 3
    assert result["critical_failure"] is True
    assert result["outcome"] == "failure"


def test_a_pool_never_fails_critically_even_on_all_ones():
    result = fgr("roll", skill=4, difficulty=1, faces=[1, 1, 1, 1])
    assert result["critical_failure"] is False
    assert result["successes"] == 0


def test_difficulty_equal_to_successes_succeeds():
    assert fgr("roll", skill=2, difficulty=2, faces=[3, 3])["outcome"] == "success"


# --- numeric and reduce_damage -----------------------------------------------------


@pytest.mark.parametrize(
    "dice, faces, total",
    [(1, [6], 6), (3, [1, 1, 1], 3), (5, [6, 5, 4, 3, 2], 20), (0, [], 0)],
)
def test_numeric_roll_sums_the_faces(dice, faces, total):
    result = fgr("numeric", dice=dice, faces=faces)
    assert result["total"] == total
    assert len(result["dice"]) == dice


@pytest.mark.parametrize(
    "damage, points, left, outcome",
    [(5, 2, 3, "damaged"), (3, 3, 0, "unharmed"), (2, 5, 0, "unharmed"), (4, 0, 4, "damaged")],
)
def test_action_points_reduce_damage_one_each_never_below_zero(damage, points, left, outcome):
    result = fgr("reduce_damage", damage=damage, action_points=points, faces=[])
    assert result["damage"] == left
    assert result["outcome"] == outcome
    assert result["dice"] == []


def test_reduce_damage_rolls_nothing():
    err = refused(
        {"system": "fgr", "action": "reduce_damage", "damage": 3, "action_points": 1, "faces": [4]}
    )
    assert err.code == "faces_unused"


# --- bad requests ------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, code, field",
    [
        ({"action": "roll", "skill": 2, "difficulty": 1, "bonus": 1}, "unknown_field", "bonus"),
        ({"action": "roll", "difficulty": 1}, "invalid", "skill"),
        ({"action": "roll", "skill": 2}, "invalid", "difficulty"),
        ({"action": "roll", "skill": "2", "difficulty": 1}, "invalid", "skill"),
        ({"action": "roll", "skill": -1, "difficulty": 1}, "invalid", "skill"),
        ({"action": "roll", "skill": 41, "difficulty": 1}, "invalid", "skill"),
        ({"action": "roll", "skill": 2, "difficulty": 0}, "invalid", "difficulty"),
        ({"action": "roll", "skill": 2, "difficulty": 1.5}, "invalid", "difficulty"),
        ({"action": "roll", "skill": 2, "difficulty": True}, "invalid", "difficulty"),
        (
            {"action": "roll", "skill": 2, "difficulty": 1, "modifier_dice": 21},
            "invalid",
            "modifier_dice",
        ),
        (
            {"action": "roll", "skill": 2, "difficulty": 1, "action_points": -1},
            "invalid",
            "action_points",
        ),
        ({"action": "numeric", "dice": 61}, "invalid", "dice"),
        ({"action": "numeric", "dice": 2, "skill": 2}, "unknown_field", "skill"),
        ({"action": "reduce_damage", "damage": -1}, "invalid", "damage"),
        ({"action": "reduce_damage", "action_points": 1}, "invalid", "damage"),
        ({"action": "luck", "skill": 0}, "invalid", "action"),
    ],
)
def test_bad_requests_name_the_field(request_, code, field):
    err = refused({"system": "fgr", **request_})
    assert (err.code, err.field) == (code, field)


def test_tape_too_short_or_too_long_is_refused():
    base = {"system": "fgr", "action": "roll", "skill": 3, "difficulty": 1}
    assert refused({**base, "faces": [3, 4]}).code == "faces_exhausted"
    assert refused({**base, "faces": [3, 4, 5, 6]}).code == "faces_unused"
    assert refused({**base, "skill": 0, "faces": [3, 4]}).code == "faces_unused"
    assert refused({**base, "faces": [3, 4, 7]}).code == "bad_face"


# --- properties --------------------------------------------------------------------

rolls = st.fixed_dictionaries(
    {
        "skill": st.integers(0, 40),
        "modifier_dice": st.integers(-20, 20),
        "difficulty": st.integers(1, 100),
        "action_points": st.integers(0, 50),
    }
)


@settings(max_examples=150, deadline=None)
@given(rolls)
def test_any_valid_roll_is_adjudicated_replays_and_stays_in_bounds(fields):
    request = {"system": "fgr", "action": "roll", **fields}
    result = adjudicate(request)
    assert replayed(request, result) == result
    pool = fields["skill"] + fields["modifier_dice"]
    points = fields["action_points"]
    assert len(result["dice"]) == max(pool, 1)
    assert result["luck"] is (pool <= 0)
    assert points <= result["successes"] <= points + max(pool, 1)
    assert result["successes"] == points + sum(d["success"] for d in result["dice"])
    if result["outcome"] == "success":
        assert result["successes"] >= fields["difficulty"]
        assert not result["critical_failure"]


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 12),
    st.integers(1, 20),
    st.integers(0, 10),
    st.data(),
)
def test_more_points_or_a_lower_difficulty_never_turn_success_into_failure(
    pool, difficulty, points, data
):
    faces = data.draw(st.lists(st.integers(1, 6), min_size=pool, max_size=pool))
    base = {"skill": pool, "difficulty": difficulty, "action_points": points, "faces": faces}
    result = fgr("roll", **base)
    more_points = fgr("roll", **{**base, "action_points": points + 1})
    assert more_points["successes"] == result["successes"] + 1
    if result["outcome"] == "success":
        assert more_points["outcome"] == "success"
        if difficulty > 1:
            assert fgr("roll", **{**base, "difficulty": difficulty - 1})["outcome"] == "success"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60))
def test_any_numeric_roll_replays_and_stays_in_bounds(dice):
    request = {"system": "fgr", "action": "numeric", "dice": dice}
    result = adjudicate(request)
    assert replayed(request, result) == result
    assert dice <= result["total"] <= 6 * dice
    assert len(result["dice"]) == dice


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100), st.integers(0, 50))
def test_reduced_damage_is_never_negative_nor_more_than_taken(damage, points):
    result = fgr("reduce_damage", damage=damage, action_points=points)
    assert 0 <= result["damage"] <= damage
    assert result["damage"] == max(0, damage - points)
