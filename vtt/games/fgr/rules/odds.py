"""Exact odds for Fantasy Ground Rules. Distributions are {"value": p} dicts
with string keys, ready to draw."""

from functools import lru_cache

from vtt.rules.dist import binomial

from .basics import (
    CRITICAL_FAILURE_FACE,
    LUCK_SUCCESS_FACE,
    SUCCESS_FACES,
    damage_outcome,
    pool_size,
    reduced_damage,
    roll_succeeds,
)

P_SUCCESS = len(SUCCESS_FACES) / 6


def _luck_faces() -> list[tuple[int, bool, float]]:
    """(successes from the die, critical failure, probability) for each face."""
    return [
        (int(face == LUCK_SUCCESS_FACE), face == CRITICAL_FAILURE_FACE, 1 / 6)
        for face in range(1, 7)
    ]


def roll_odds(req: dict) -> dict:
    pool = pool_size(req["skill"], req["modifier_dice"])
    points, difficulty = req["action_points"], req["difficulty"]
    successes: dict[int, float] = {}
    success = critical = 0.0
    if pool <= 0:
        for rolled, crit, p in _luck_faces():
            total = rolled + points
            successes[total] = successes.get(total, 0.0) + p
            critical += p if crit else 0.0
            success += p if roll_succeeds(total, difficulty, crit) else 0.0
    else:
        for rolled, p in enumerate(binomial(pool, P_SUCCESS)):
            successes[rolled + points] = p
            success += p if roll_succeeds(rolled + points, difficulty, False) else 0.0
    return {
        "outcomes": {"success": success, "failure": 1.0 - success},
        "luck": pool <= 0,
        "successes": {str(k): p for k, p in sorted(successes.items())},
        "expected_successes": sum(k * p for k, p in successes.items()),
        "critical_failure": critical,
    }


@lru_cache(maxsize=64)
def _ways(dice: int) -> tuple:
    """Ways for `dice` d6 to make each total (index = total), as exact
    integers: with one die more, total t sums the previous row over t-6..t-1."""
    if dice == 0:
        return (1,)
    prev = (0,) * 6 + _ways(dice - 1)
    return tuple(sum(prev[t : t + 6]) for t in range(len(prev)))


@lru_cache(maxsize=64)
def total_distribution(dice: int) -> dict:
    ways = _ways(dice)
    outcomes = 6**dice
    return {str(t): w / outcomes for t, w in enumerate(ways) if w}


def numeric_odds(req: dict) -> dict:
    dice = req["dice"]
    return {
        "outcomes": {"rolled": 1.0},
        "total": dict(total_distribution(dice)),
        "expected_total": 3.5 * dice,
    }


def reduce_damage_odds(req: dict) -> dict:
    damage = reduced_damage(req["damage"], req["action_points"])
    return {"outcomes": {damage_outcome(damage): 1.0}, "damage": {str(damage): 1.0}}
