"""Rd6 odds against a seeded Monte Carlo of the adjudicator: a large pool,
and every kind of exploding die. Each test throws 200,000 rolls (a few
seconds each), which is why they live apart from the exact tests."""

import itertools
import math
import random

from vtt.rules import adjudicate
from vtt.rules.odds import odds

ROLLS = 200_000


class SeededDice:
    """Faces from random.Random(seed), drawn in batches; `roll` is the
    batches' own iterator, so a face costs next to nothing."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        batches = iter(lambda: rng.choices(range(1, 7), k=8192), None)
        self.roll = itertools.chain.from_iterable(batches).__next__


def assert_within_five_standard_errors(exact: dict, seen: dict, floor: float = 1e-3):
    """Every value at least `floor` likely comes up within 5 standard errors
    of its exact probability."""
    for key, p in exact.items():
        if p < floor:
            continue
        error = math.sqrt(p * (1 - p) / ROLLS)
        assert abs(seen.get(key, 0) / ROLLS - p) <= 5 * error, (key, p, seen.get(key, 0) / ROLLS)


def tally(request: dict, seed: int, **keys) -> dict:
    """Throw the request ROLLS times; for each named key function, how often
    each of its values came up. Results are counted as they come and not
    kept, so the run stays light on memory."""
    source = SeededDice(seed)
    counts: dict[str, dict[str, int]] = {name: {} for name in keys}
    for _ in range(ROLLS):
        result = adjudicate(request, source)
        for name, key in keys.items():
            seen = counts[name]
            k = str(key(result))
            seen[k] = seen.get(k, 0) + 1
    return counts


def test_large_pool_matches_monte_carlo():
    # 12D+2: a large pool, the exploding Wild Die and the cancelled highest die.
    request = {"system": "rd6", "action": "roll", "dice": 12, "pips": 2, "difficulty": 7}
    exact = odds(request)
    seen = tally(
        request,
        6,
        outcomes=lambda r: r["outcome"],
        successes=lambda r: r["successes"],
        critical_failure_check=lambda r: r["critical_failure_check"] or "none",
    )
    for name, counts in seen.items():
        assert_within_five_standard_errors(exact[name], counts)


def test_rolled_up_single_die_with_a_character_point_matches_monte_carlo():
    # 1D rolled up keeps the higher of two open dice; a Character Point die on top.
    request = {
        "system": "rd6",
        "action": "roll",
        "dice": 1,
        "rolling_up": True,
        "character_points": 1,
        "complication": "narrate",
        "difficulty": 2,
    }
    exact = odds(request)
    seen = tally(
        request,
        16,
        outcomes=lambda r: r["outcome"],
        total=lambda r: r["total"],
        result_points=lambda r: r["result_points"],
    )
    for name, counts in seen.items():
        assert_within_five_standard_errors(exact[name], counts)


def test_extra_wild_dice_in_an_opposed_roll_match_monte_carlo():
    # Rolling Up and a Character Point die beside a regular die, against a
    # single Wild Die with more pips.
    request = {
        "system": "rd6",
        "action": "opposed",
        "actor": {"dice": 3, "pips": 1, "rolling_up": True, "character_points": 1},
        "opponent": {"dice": 1, "pips": 5},
    }
    exact = odds(request)
    seen = tally(
        request,
        66,
        outcomes=lambda r: r["outcome"],
        margin=lambda r: r["margin"],
        actor_successes=lambda r: r["actor"]["successes"],
        opponent_successes=lambda r: r["opponent"]["successes"],
    )
    for name, counts in seen.items():
        assert_within_five_standard_errors(exact[name], counts)
