"""Artifice odds against a seeded Monte Carlo of the real adjudicator, for
pools too large to enumerate: 200,000 rolls each, every probability within
five standard errors."""

import math
import random
from collections import Counter

from vtt.rules import adjudicate, odds


def request(action, **fields):
    return {"system": "artifice", "action": action, **fields}


ROLLS = 200_000


class SeededDice:
    """A repeatable dice source for the Monte Carlo tests."""

    def __init__(self, seed):
        self._random = random.Random(seed).random

    def roll(self):
        return int(self._random() * 6) + 1


def within_five_standard_errors(expected: dict, counts: Counter, n: int):
    for key in set(expected) | set(counts):
        p = expected.get(key, 0.0)
        seen = counts[key] / n
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(seen - p) <= 5 * se + 1e-9, (key, seen, p)


def monte_carlo(req, seed, keys):
    source = SeededDice(seed)
    counts = {name: Counter() for name in keys}
    for _ in range(ROLLS):
        result = adjudicate(req, source)
        for name, key in keys.items():
            counts[name][key(result)] += 1
    return counts


def test_large_check_odds_agree_with_monte_carlo():
    req = request("check", pool=12, modifier=2, difficulty=6)
    computed = odds(req)
    counts = monte_carlo(
        req,
        1,
        {
            "outcomes": lambda r: r["outcome"],
            "successes": lambda r: str(r["successes"]),
            "critical_success": lambda r: r["critical_success"],
        },
    )
    within_five_standard_errors(computed["outcomes"], counts["outcomes"], ROLLS)
    within_five_standard_errors(computed["successes"], counts["successes"], ROLLS)
    p = computed["critical_success"]
    within_five_standard_errors({True: p, False: 1 - p}, counts["critical_success"], ROLLS)


def test_large_test_odds_agree_with_monte_carlo():
    req = request(
        "test",
        actor={"pool": 7, "modifier": -1},
        opponent={"pool": 6, "modifier": 2},
        kind="wound",
    )
    computed = odds(req)
    counts = monte_carlo(
        req,
        2,
        {
            "outcomes": lambda r: r["outcome"],
            "margin": lambda r: str(r["margin"]),
            "crit": lambda r: r["opponent_critical_success"],
        },
    )
    within_five_standard_errors(computed["outcomes"], counts["outcomes"], ROLLS)
    within_five_standard_errors(computed["margin"], counts["margin"], ROLLS)
    p = computed["opponent_critical_success"]
    within_five_standard_errors({True: p, False: 1 - p}, counts["crit"], ROLLS)


def test_attack_chain_odds_agree_with_monte_carlo():
    req = request(
        "attack",
        attacker={"finesse": 4, "might": 3, "lethality": 1, "modifier": 1},
        defender={"agility": 3, "toughness": 3, "condition": "Hurt"},
        advantage="defender",
    )
    computed = odds(req)
    counts = monte_carlo(
        req,
        3,
        {
            "outcomes": lambda r: r["outcome"],
            "steps": lambda r: str(r["condition_steps"]),
            "after": lambda r: r["condition_after"],
        },
    )
    within_five_standard_errors(computed["outcomes"], counts["outcomes"], ROLLS)
    within_five_standard_errors(computed["condition_steps"], counts["steps"], ROLLS)
    within_five_standard_errors(computed["condition_after"], counts["after"], ROLLS)
