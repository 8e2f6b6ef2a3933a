"""Artifice odds: exact agreement with brute-force enumeration for small pools:
every way the dice can fall, fed to the real adjudicator."""

import itertools
from collections import Counter

import pytest

from vtt.games.artifice.rules import odds as _artifice_odds
from vtt.rules import RulesError, odds

from .tapes import assert_same, every_tape, tally

EXACT = 1e-12


def request(action, **fields):
    return {"system": "artifice", "action": action, **fields}


def assert_sums_to_one(result):
    assert sum(result["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert result["exact"] is True
    assert result["truncated_mass"] == 0.0


# one pool, counted directly from the faces --------------------------------------


def count(faces, modifier):
    """Successes of one pool by the rule's words, for enumeration."""
    values = list(faces)
    if modifier > 0:
        failing = [i for i, f in enumerate(faces) if f < 4]
        if failing:
            values[max(failing, key=lambda i: (faces[i], -i))] += modifier
    elif modifier < 0:
        passing = [i for i, f in enumerate(faces) if f >= 4]
        if passing:
            values[min(passing, key=lambda i: (faces[i], i))] += modifier
    return sum(v >= 4 for v in values) + (faces[-1] == 6)


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("modifier", [-4, -3, -2, -1, 0, 1, 2, 3, 4])
def test_pool_distribution_by_wild_face_matches_enumeration(dice, modifier):
    expected = [Counter(), Counter(), Counter()]
    for faces in itertools.product(range(1, 7), repeat=dice):
        wild = 0 if faces[-1] == 1 else 1 if faces[-1] == 6 else 2
        expected[wild][count(faces, modifier)] += 1
    total = 6**dice
    computed = _artifice_odds.pool_by_wild(dice, modifier)
    for got, want in zip(computed, expected, strict=True):
        assert set(want) <= set(range(len(got)))
        for s, p in enumerate(got):
            assert p == pytest.approx(want[s] / total, abs=EXACT)


# check ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pool, modifier, difficulty",
    [
        (0, 0, 1),
        (1, 0, 0),
        (2, 1, 2),
        (3, 1, 2),
        (3, -1, 1),
        (4, 0, 1),
        (4, 2, 3),
        (4, -3, 0),
        (5, 0, 1),
    ],
)
def test_check_odds_match_every_roll(pool, modifier, difficulty):
    req = request("check", pool=pool, modifier=modifier, difficulty=difficulty)
    computed = odds(req)
    assert_sums_to_one(computed)
    rolls, _ = every_tape(req)
    assert_same(computed["outcomes"], tally(rolls, lambda r: r["outcome"]))
    assert_same(computed["successes"], tally(rolls, lambda r: str(r["successes"])))
    assert_same(computed["margin"], tally(rolls, lambda r: str(r["margin"])))
    for flag in ("critical_success", "critical_failure"):
        assert computed[flag] == pytest.approx(
            tally(rolls, lambda r, f=flag: r[f])[True], abs=EXACT
        )
    mean = sum(p * r["successes"] for r, p in rolls)
    assert computed["expected_successes"] == pytest.approx(mean, abs=EXACT)


def test_automatic_check_odds_are_certain():
    computed = odds(request("check", pool=5, difficulty=2, automatic=True))
    assert computed["outcomes"] == {"success": 1.0, "failure": 0.0}
    assert computed["successes"] == {"2": 1.0}
    assert computed["margin"] == {"0": 1.0}
    computed = odds(request("check", pool=5, difficulty=3, automatic=True))
    assert computed["outcomes"]["failure"] == 1.0


# test -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actor, opponent, kind",
    [
        ((1, 0), (1, 0), "standard"),
        ((1, 0), (1, 0), "wound"),
        ((2, 1), (1, -1), "standard"),
        ((2, 0), (2, 0), "wound"),
        ((3, -2), (1, 3), "standard"),
        ((1, 0), (3, 1), "wound"),
        ((4, 0), (1, 0), "standard"),
        ((0, 2), (4, -1), "wound"),
        ((3, 0), (2, 0), "standard"),
    ],
)
def test_test_odds_match_every_roll(actor, opponent, kind):
    req = request(
        "test",
        actor={"pool": actor[0], "modifier": actor[1]},
        opponent={"pool": opponent[0], "modifier": opponent[1]},
        kind=kind,
    )
    computed = odds(req)
    assert_sums_to_one(computed)
    rolls, _ = every_tape(req)
    assert_same(computed["outcomes"], tally(rolls, lambda r: r["outcome"]))
    assert_same(computed["margin"], tally(rolls, lambda r: str(r["margin"])))
    for side in ("actor", "opponent"):
        got = tally(rolls, lambda r, s=side: str(r[f"{s}_successes"]))
        assert_same(computed[f"{side}_successes"], got)
        for flag in ("critical_success", "critical_failure"):
            name = f"{side}_{flag}"
            assert computed[name] == pytest.approx(
                tally(rolls, lambda r, n=name: r[n])[True], abs=EXACT
            ), name
    mean = sum(p * r["margin"] for r, p in rolls)
    assert computed["expected_margin"] == pytest.approx(mean, abs=EXACT)


# attack ---------------------------------------------------------------------------

SHORT_TRACK = ["Up", "Hurt", "Down", "Gone"]


@pytest.mark.parametrize(
    "fields",
    [
        {"attacker": {"finesse": 1, "might": 1}, "defender": {"agility": 1, "toughness": 1}},
        {
            "attacker": {"finesse": 1, "might": 0, "modifier": 1, "wound_modifier": -1},
            "defender": {"agility": 1, "toughness": 0, "modifier": -1, "condition": "Hurt"},
            "condition_track": SHORT_TRACK,
        },
        {
            "attacker": {"finesse": 0, "might": 0, "lethality": 1},
            "defender": {"agility": 1, "toughness": 1, "condition": "Critical"},
            "advantage": "attacker",
            "range": "near",
        },
        {
            "attacker": {"finesse": 1, "might": 1},
            "defender": {"agility": 0, "toughness": 1, "wound_modifier": 2, "condition": "Dead"},
            "advantage": "defender",
        },
    ],
)
def test_attack_odds_match_every_roll(fields):
    req = request("attack", **fields)
    computed = odds(req)
    assert_sums_to_one(computed)
    rolls, _ = every_tape(req)
    assert_same(computed["outcomes"], tally(rolls, lambda r: r["outcome"]))
    assert_same(computed["condition_steps"], tally(rolls, lambda r: str(r["condition_steps"])))
    assert_same(computed["condition_after"], tally(rolls, lambda r: r["condition_after"]))
    assert_same(computed["combat_margin"], tally(rolls, lambda r: str(r["combat"]["margin"])))
    mean = sum(p * r["condition_steps"] for r, p in rolls)
    assert computed["expected_condition_steps"] == pytest.approx(mean, abs=EXACT)


def test_attack_odds_refuse_out_of_range():
    with pytest.raises(RulesError) as err:
        odds(
            request(
                "attack",
                attacker={"finesse": 1, "might": 1},
                defender={"agility": 1, "toughness": 1},
                range="out_of_range",
            )
        )
    assert err.value.code == "out_of_range"


# passive and range ------------------------------------------------------------------


def test_passive_odds_are_certain():
    computed = odds(request("passive", ability=5))
    assert computed["outcomes"] == {"passive": 1.0}
    assert computed["successes"] == {"2": 1.0}


def test_range_odds_are_certain():
    computed = odds(request("range", **{"from": [0, 0], "to": [8, 3], "range_ft": 30}))
    assert computed["outcomes"] == {"adjacent": 0.0, "near": 0.0, "far": 1.0, "out_of_range": 0.0}
    assert computed["distance_ft"] == 40
    assert computed["line_of_sight"] is True


def test_odds_refuse_faces():
    with pytest.raises(RulesError) as err:
        odds({**request("passive", ability=2), "faces": []})
    assert err.value.code == "unknown_field"
