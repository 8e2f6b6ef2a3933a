"""Rd6 odds against the adjudicator itself: an exhaustive walk over every dice
tape for small pools, exact to 1e-12 (the Monte Carlo for large pools is in
test_rd6_montecarlo.py)."""

import pytest

from vtt.rules.odds import odds

from .tapes import assert_same, every_tape, tally

FLOOR = 1e-16  # tapes less likely than this are left out of the walk, and counted


def check_key(result) -> str:
    return result["critical_failure_check"] or "none"


ROLLS = [
    {"dice": 1, "difficulty": 1},
    {"dice": 3, "pips": 1, "difficulty": 2},
    {"dice": 3, "difficulty": 2, "complication": "narrate"},
    {"dice": 3, "difficulty": 1, "retry": True, "catastrophic_failure": True},
    {"dice": 1, "character_points": 1, "difficulty": 2},
    {"dice": 1, "rolling_up": True, "difficulty": 1},
    {"dice": 1, "rolling_up": True, "complication": "narrate", "difficulty": 2},
    {"dice": 2, "rolling_up": True, "pips": -1, "difficulty": 1},
    {"dice": 1, "pips": 1, "fate_point": True, "equipment_pips": -2, "difficulty": 1},
    {"dice": 2, "modifier_dice": -2, "pips": -4, "difficulty": 0, "catastrophic_failure": True},
]


@pytest.mark.parametrize("fields", ROLLS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_roll_odds_match_every_tape(fields):
    request = {"system": "rd6", "action": "roll", **fields}
    exact = odds(request)
    leaves, left_out = every_tape(request, floor=FLOOR)
    tolerance = 1e-12 + left_out
    assert left_out < 1e-12
    assert_same(exact["outcomes"], tally(leaves, lambda r: r["outcome"]), tolerance)
    assert_same(exact["total"], tally(leaves, lambda r: str(r["total"])), tolerance)
    assert_same(exact["successes"], tally(leaves, lambda r: str(r["successes"])), tolerance)
    assert_same(exact["result_points"], tally(leaves, lambda r: str(r["result_points"])), tolerance)
    levels = tally([(r, p) for r, p in leaves if r["result_level"]], lambda r: r["result_level"])
    assert_same({k: v for k, v in exact["result_level"].items() if v}, levels, tolerance)
    assert_same(exact["critical_failure_check"], tally(leaves, check_key), tolerance)
    catastrophic = sum(p for r, p in leaves if r["catastrophic"])
    assert abs(exact["catastrophic"] - catastrophic) <= tolerance


OPPOSED = [
    ({"dice": 1}, {"dice": 1, "pips": 1}),
    ({"dice": 1, "pips": 3, "complication": "narrate"}, {"dice": 1, "pips": -2}),
]


@pytest.mark.parametrize("actor, opponent", OPPOSED)
def test_opposed_odds_match_every_tape(actor, opponent):
    request = {"system": "rd6", "action": "opposed", "actor": actor, "opponent": opponent}
    exact = odds(request)
    leaves, left_out = every_tape(request, floor=1e-15)
    tolerance = 1e-12 + left_out
    assert left_out < 1e-12
    assert_same(exact["outcomes"], tally(leaves, lambda r: r["outcome"]), tolerance)
    assert_same(exact["margin"], tally(leaves, lambda r: str(r["margin"])), tolerance)
    counted = tally(leaves, lambda r: str(r["actor"]["successes"]))
    assert_same(exact["actor_successes"], counted, tolerance)
