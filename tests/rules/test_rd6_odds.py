"""Rd6 odds against the adjudicator itself: an exhaustive walk over every dice
tape for small pools, exact to 1e-12 (the Monte Carlo for large pools is in
test_rd6_montecarlo.py)."""

import pytest

from vtt.rules import adjudicate
from vtt.rules.errors import RulesError
from vtt.rules.odds import odds

FLOOR = 1e-16  # tapes less likely than this are left out of the walk, and counted


def walk(request: dict, floor: float = FLOOR):
    """Every complete dice tape of the request with its probability, found by
    extending a tape face by face while the adjudicator asks for more."""
    leaves, left_out = [], 0.0
    stack = [[]]
    while stack:
        faces = stack.pop()
        p = 6.0 ** -len(faces)
        try:
            result = adjudicate({**request, "faces": faces})
        except RulesError as err:
            assert err.code == "faces_exhausted"
            if p / 6 < floor:
                left_out += p
            else:
                stack.extend(faces + [face] for face in range(1, 7))
            continue
        leaves.append((p, result))
    return leaves, left_out


def tally(leaves, key) -> dict:
    out: dict[str, float] = {}
    for p, result in leaves:
        k = str(key(result))
        out[k] = out.get(k, 0.0) + p
    return out


def assert_close(exact: dict, counted: dict, tolerance: float):
    for k in set(exact) | set(counted):
        assert abs(exact.get(k, 0.0) - counted.get(k, 0.0)) <= tolerance, (k, exact, counted)


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
    leaves, left_out = walk(request)
    tolerance = 1e-12 + left_out
    assert left_out < 1e-12
    assert_close(exact["outcomes"], tally(leaves, lambda r: r["outcome"]), tolerance)
    assert_close(exact["total"], tally(leaves, lambda r: r["total"]), tolerance)
    assert_close(exact["successes"], tally(leaves, lambda r: r["successes"]), tolerance)
    assert_close(exact["result_points"], tally(leaves, lambda r: r["result_points"]), tolerance)
    levels = tally([(p, r) for p, r in leaves if r["result_level"]], lambda r: r["result_level"])
    assert_close({k: v for k, v in exact["result_level"].items() if v}, levels, tolerance)
    assert_close(exact["critical_failure_check"], tally(leaves, check_key), tolerance)
    catastrophic = sum(p for p, r in leaves if r["catastrophic"])
    assert abs(exact["catastrophic"] - catastrophic) <= tolerance


OPPOSED = [
    ({"dice": 1}, {"dice": 1, "pips": 1}),
    ({"dice": 1, "pips": 3, "complication": "narrate"}, {"dice": 1, "pips": -2}),
]


@pytest.mark.parametrize("actor, opponent", OPPOSED)
def test_opposed_odds_match_every_tape(actor, opponent):
    request = {"system": "rd6", "action": "opposed", "actor": actor, "opponent": opponent}
    exact = odds(request)
    leaves, left_out = walk(request, floor=1e-15)
    tolerance = 1e-12 + left_out
    assert left_out < 1e-12
    assert_close(exact["outcomes"], tally(leaves, lambda r: r["outcome"]), tolerance)
    assert_close(exact["margin"], tally(leaves, lambda r: r["margin"]), tolerance)
    counted = tally(leaves, lambda r: r["actor"]["successes"])
    assert_close(exact["actor_successes"], counted, tolerance)
