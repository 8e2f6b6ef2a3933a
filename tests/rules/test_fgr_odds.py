"""Fantasy Ground Rules odds: checked against every tape of small pools run
through the adjudicator, and against a seeded Monte Carlo for large pools."""

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.errors import RulesError
from vtt.rules.odds import odds

from .montecarlo import assert_matches_odds
from .tapes import every_combination, tally


def fgr_odds(action, **fields):
    return odds({"system": "fgr", "action": action, **fields})


def assert_matches(table: dict, brute: Counter, tol=1e-12):
    assert set(brute) <= set(table) | {k for k, p in brute.items() if p == 0}
    for key, p in table.items():
        assert p == pytest.approx(brute.get(key, 0.0), abs=tol), key


# --- exact agreement with enumeration ---------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"skill": 1, "difficulty": 1},
        {"skill": 2, "difficulty": 2, "action_points": 1},
        {"skill": 3, "modifier_dice": 1, "difficulty": 3},
        {"skill": 5, "difficulty": 4, "action_points": 2},
        {"skill": 6, "modifier_dice": -1, "difficulty": 6},
    ],
)
def test_roll_odds_equal_every_tape_of_a_small_pool(fields):
    fields = {"modifier_dice": 0, "action_points": 0, **fields}
    request = {"system": "fgr", "action": "roll", **fields}
    pool = fields["skill"] + fields["modifier_dice"]
    results = list(every_combination(request, pool))
    table = odds(request)
    assert_matches(table["outcomes"], tally(results, lambda r: r["outcome"]))
    assert_matches(table["successes"], tally(results, lambda r: str(r["successes"])))
    mean = sum(r["successes"] * p for r, p in results)
    assert table["expected_successes"] == pytest.approx(mean, abs=1e-12)
    assert table["luck"] is False and table["critical_failure"] == 0.0


@pytest.mark.parametrize(
    "fields",
    [
        {"skill": 0, "difficulty": 1},
        {"skill": 0, "difficulty": 2, "action_points": 1},
        {"skill": 0, "difficulty": 1, "action_points": 1},
        {"skill": 1, "modifier_dice": -3, "difficulty": 3, "action_points": 3},
    ],
)
def test_luck_roll_odds_equal_every_face(fields):
    request = {"system": "fgr", "action": "roll", **fields}
    results = list(every_combination(request, 1))
    table = odds(request)
    assert table["luck"] is True
    assert_matches(table["outcomes"], tally(results, lambda r: r["outcome"]))
    assert_matches(table["successes"], tally(results, lambda r: str(r["successes"])))
    assert table["critical_failure"] == pytest.approx(1 / 6, abs=1e-15)


def test_luck_roll_odds_worked_by_hand():
    # 6 succeeds; with one point 2-5 succeed too; a 1 always fails.
    assert fgr_odds("roll", skill=0, difficulty=1)["outcomes"]["success"] == pytest.approx(1 / 6)
    table = fgr_odds("roll", skill=0, difficulty=1, action_points=1)
    assert table["outcomes"]["success"] == pytest.approx(5 / 6)


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_numeric_odds_equal_every_tape(dice):
    request = {"system": "fgr", "action": "numeric", "dice": dice}
    results = list(every_combination(request, dice))
    table = odds(request)
    assert table["outcomes"] == {"rolled": 1.0}
    assert_matches(table["total"], tally(results, lambda r: str(r["total"])))
    assert table["expected_total"] == pytest.approx(3.5 * dice)


def test_numeric_odds_of_sixty_dice_are_exact_at_the_tails():
    table = fgr_odds("numeric", dice=60)["total"]
    assert len(table) == 301
    assert table["60"] == 6.0**-60
    assert table["360"] == 6.0**-60
    assert table["61"] == pytest.approx(60 * 6.0**-60, rel=1e-12)
    assert math.fsum(table.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "damage, points, left, outcome", [(6, 2, 4, "damaged"), (2, 4, 0, "unharmed")]
)
def test_reduce_damage_odds_are_certain(damage, points, left, outcome):
    table = fgr_odds("reduce_damage", damage=damage, action_points=points)
    assert table["outcomes"][outcome] == 1.0
    assert sum(table["outcomes"].values()) == 1.0
    assert table["damage"] == {str(left): 1.0}
    assert table["exact"] is True and table["truncated_mass"] == 0.0


def test_odds_refuse_faces():
    with pytest.raises(RulesError) as err:
        odds({"system": "fgr", "action": "numeric", "dice": 2, "faces": [1, 2]})
    assert (err.value.code, err.value.field) == ("unknown_field", "faces")


# --- Monte Carlo of the real adjudicator for large pools ------------------------------


def test_large_pool_roll_matches_monte_carlo():
    request = {"system": "fgr", "action": "roll", "skill": 9, "modifier_dice": -1}
    request |= {"difficulty": 7, "action_points": 1}
    assert_matches_odds(request, 7, "outcomes", "successes")


def test_large_numeric_roll_matches_monte_carlo():
    request = {"system": "fgr", "action": "numeric", "dice": 8}
    assert_matches_odds(request, seed=11, total="total")


# --- properties ----------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 40),
    st.integers(-20, 20),
    st.integers(1, 100),
    st.integers(0, 50),
)
def test_roll_odds_are_a_distribution_and_monotonic(skill, modifier, difficulty, points):
    fields = {"skill": skill, "modifier_dice": modifier, "difficulty": difficulty}
    fields["action_points"] = points
    table = fgr_odds("roll", **fields)
    assert math.fsum(table["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert math.fsum(table["successes"].values()) == pytest.approx(1.0, abs=1e-9)
    p = table["outcomes"]["success"]
    eps = 1e-12
    if skill < 40:
        assert fgr_odds("roll", **{**fields, "skill": skill + 1})["outcomes"]["success"] >= p - eps
    if points < 50:
        more = fgr_odds("roll", **{**fields, "action_points": points + 1})
        assert more["outcomes"]["success"] >= p - eps
    if difficulty < 100:
        harder = fgr_odds("roll", **{**fields, "difficulty": difficulty + 1})
        assert harder["outcomes"]["success"] <= p + eps
