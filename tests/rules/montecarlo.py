"""Monte Carlo of the real adjudicator, shared by every game's odds tests.

The faces are real ones from random.Random(seed), drawn in large batches, so
a throw costs next to nothing and the adjudicator is the only cost of a run.
Every game's sample is judged by the one check below: each value agrees with
its exact probability within five standard errors."""

import itertools
import math
import random
from collections import Counter

from vtt.rules.engine import adjudicate
from vtt.rules.odds import odds

ROLLS = 200_000

# Below this many expected sightings the normal approximation behind the
# standard error fails, so such values are judged together as one tail.
RARE = 20


class SeededDice:
    """Reproducible faces; `roll` is the batches' own iterator."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        batches = iter(lambda: rng.choices(range(1, 7), k=8192), None)
        self.roll = itertools.chain.from_iterable(batches).__next__


def sample(request: dict, seed: int, **keys) -> dict[str, Counter]:
    """Adjudicate the request ROLLS times; for each named key function, how
    often each of its values came up. Results are counted, not kept."""
    source = SeededDice(seed)
    seen = {name: Counter() for name in keys}
    reads = [(seen[name], key) for name, key in keys.items()]
    for _ in range(ROLLS):
        result = adjudicate(request, source)
        for counts, key in reads:
            counts[key(result)] += 1
    return seen


def bernoulli(p: float) -> dict:
    """The table of a yes/no value, for flags the odds give as one probability."""
    return {True: p, False: 1 - p}


def assert_agrees(exact: dict, seen: Counter):
    """Every value expected at least RARE times lies within five standard
    errors of its probability; the rarer ones do so pooled as one tail; a
    value the odds call impossible never comes up."""
    rolls = sum(seen.values())
    tail_p, tail_n = [], 0
    for value in exact.keys() | seen.keys():
        p, n = exact.get(value, 0.0), seen.get(value, 0)
        assert p > 0 or n == 0, ("impossible", value, n)
        if p * rolls < RARE:
            tail_p.append(p)
            tail_n += n
            continue
        se = math.sqrt(p * (1 - p) / rolls)
        assert abs(n / rolls - p) <= 5 * se, (value, n / rolls, p)
    p = math.fsum(tail_p)
    se = math.sqrt(max(p * (1 - p), 1 / rolls) / rolls)
    assert abs(tail_n / rolls - p) <= 5 * se, ("tail", tail_n / rolls, p)


def _reader(column, flag: bool):
    """A column given as a dotted path in the result ("actor.successes") or
    as a function of the result; distributions are keyed by text, flags by
    truth."""
    if callable(column):
        return column

    def read(result):
        value = result
        for key in column.split("."):
            value = value[key]
        return value is not None and value is not False if flag else str(value)

    return read


def assert_matches_odds(request: dict, seed: int, *names, **columns) -> None:
    """Sample the request and hold each column against the exact odds of the
    same name: a distribution as it is, a flag's one probability as yes/no.
    A column named alone reads the result field of its name ("outcomes" the
    outcome); a keyword column says what it reads."""
    for name in names:
        columns[name] = "outcome" if name == "outcomes" else name
    exact = odds(request)
    flags = {name for name in columns if isinstance(exact[name], float)}
    readers = {name: _reader(column, name in flags) for name, column in columns.items()}
    for name, counts in sample(request, seed, **readers).items():
        table = exact[name]
        assert_agrees(bernoulli(table) if name in flags else table, counts)
