"""Exact odds by brute force, shared by every game's odds tests: every tape
run through the real adjudicator, each weighted by its chance. Tests may
enumerate; the product code never does."""

import itertools
from collections import Counter

import pytest

from vtt.rules.engine import adjudicate
from vtt.rules.errors import RulesError


def every_tape(request: dict, floor: float = 0.0):
    """([(result, probability)], left_out) over every complete tape, found
    by extending a tape face by face while the adjudicator asks for more.
    Tapes that would fall below `floor` are not followed; their mass is
    left_out."""
    found, left_out, stack = [], 0.0, [[]]
    while stack:
        faces = stack.pop()
        p = 6.0 ** -len(faces)
        try:
            found.append((adjudicate({**request, "faces": faces}), p))
        except RulesError as err:
            assert err.code == "faces_exhausted", err.message
            if p / 6 < floor:
                left_out += p
            else:
                stack.extend(faces + [face] for face in range(1, 7))
    return found, left_out


def every_combination(request: dict, dice: int):
    """(result, probability) for every tape of exactly `dice` faces."""
    p = 6.0**-dice
    for faces in itertools.product(range(1, 7), repeat=dice):
        yield adjudicate({**request, "faces": list(faces)}), p


def tally(pairs, key) -> Counter:
    """The probability of each value of key(result)."""
    out = Counter()
    for result, p in pairs:
        out[key(result)] += p
    return out


def assert_same(table: dict, counted: dict, tol: float = 1e-12):
    for key in table.keys() | counted.keys():
        assert table.get(key, 0.0) == pytest.approx(counted.get(key, 0.0), abs=tol), key
