"""Xero Sum odds against brute force over every face combination (allowed in a
test, never in the product), against an independent reading of the rules, and
against a seeded Monte Carlo of the real adjudicator."""

import itertools
from collections import Counter

import pytest

from vtt.rules.engine import adjudicate
from vtt.rules.odds import odds

from .montecarlo import assert_matches_odds
from .tapes import assert_same, every_combination, tally

EXACT = 1e-12


def request(action, **fields):
    return {"system": "xerosum", "action": action, **fields}


def brute(req, n_dice, read=lambda r: r["outcome"]):
    return tally(every_combination(req, n_dice), read)


def spread(dist):
    return {str(k): v for k, v in dist.items()}


CHECKS = [
    ({}, 2),
    ({"amod": 4, "smod": 4, "cmod": 5}, 2),
    ({"amod": -2, "smod": -3, "cmod": -5}, 2),
    ({"amod": 1, "cmod": -1, "insight_cmod": True}, 2),
    ({"insight_extra_die": True}, 3),
    ({"amod": -2, "smod": 2, "insight_extra_die": True, "insight_cmod": True}, 3),
]


@pytest.mark.parametrize("fields, n_dice", CHECKS)
def test_check_odds_match_brute_force(fields, n_dice):
    req = request("check", **fields)
    computed = odds(req)
    assert_same(computed["outcomes"], brute(req, n_dice))
    assert_same(computed["total"], spread(brute(req, n_dice, lambda r: r["total"])))
    moments = brute(req, n_dice, lambda r: r["moment_of_insight"] or "none")
    assert_same(computed["moment_of_insight"], moments)
    gained = sum(p * r["insight_gained"] for r, p in every_combination(req, n_dice))
    assert computed["expected_insight_gained"] == pytest.approx(gained, abs=EXACT)
    mean = sum(p * r["total"] for r, p in every_combination(req, n_dice))
    assert computed["expected_total"] == pytest.approx(mean, abs=1e-9)
    assert computed["exact"] is True
    assert computed["truncated_mass"] == 0.0


def rules_reading(faces, modifier):
    """The seed read directly, independent of the product code."""
    if sorted(faces).count(1) >= 2:
        return "dire_failure"
    if sorted(faces).count(6) >= 2:
        return "wild_success"
    total = sum(faces) + modifier
    for top, name in ((3, "dire_failure"), (8, "failure"), (13, "success")):
        if total <= top:
            return name
    return "wild_success"


@pytest.mark.parametrize("modifier", [-10, -7, -4, -1, 0, 2, 5, 8, 11, 13])
@pytest.mark.parametrize("n_dice", [2, 3])
def test_check_odds_match_an_independent_reading(modifier, n_dice):
    expected = Counter()
    for faces in itertools.product(range(1, 7), repeat=n_dice):
        expected[rules_reading(faces, modifier)] += 6.0**-n_dice
    amod = max(-2, min(4, modifier))
    smod = max(-3, min(4, modifier - amod))
    cmod = modifier - amod - smod
    req = request("check", amod=amod, smod=smod, cmod=cmod, insight_extra_die=n_dice == 3)
    assert_same(odds(req)["outcomes"], expected)


def test_plain_2d6_odds_are_the_textbook_fractions():
    outcomes = odds(request("check"))["outcomes"]
    # 9+ on 2d6 is 10/36; double six is in it, double one is in <= 3 anyway.
    assert outcomes["success"] + outcomes["wild_success"] == pytest.approx(10 / 36, abs=EXACT)
    assert outcomes["dire_failure"] == pytest.approx(3 / 36, abs=EXACT)
    assert outcomes["wild_success"] == pytest.approx(1 / 36, abs=EXACT)


@pytest.mark.parametrize(
    "action, extra",
    [
        ("first_impression", ("consequence", "future_cmod")),
        ("gut_instinct", ("consequence",)),
        ("gambit", ("consequence", "rebuttal_cmod", "negotiation_over")),
        ("rebuttal", ("consequence", "negotiation_over")),
    ],
)
def test_social_check_consequence_odds_match_brute_force(action, extra):
    req = request(action, amod=1, smod=1, insight_extra_die=True)
    computed = odds(req)
    assert_same(computed["outcomes"], brute(req, 3))
    for key in extra:
        if key == "negotiation_over":
            over = sum(p for r, p in every_combination(req, 3) if r[key])
            assert computed[key] == pytest.approx(over, abs=EXACT)
        else:
            counted = brute(req, 3, lambda r, k=key: r[k])
            counted = {str(k): v for k, v in counted.items() if k is not None}
            assert_same(computed[key], counted)


def test_rebuttal_odds_follow_the_gambits_cmod():
    easier = odds(request("rebuttal", rebuttal_cmod=1))["outcomes"]
    harder = odds(request("rebuttal", rebuttal_cmod=-3))["outcomes"]
    assert easier["success"] + easier["wild_success"] > harder["success"] + harder["wild_success"]
    assert_same(harder, brute(request("rebuttal", rebuttal_cmod=-3), 2))


OPPOSED = [
    ({}, {}, 4),
    ({"amod": 2, "smod": 1}, {"cmod": 3}, 4),
    ({"insight_extra_die": True, "cmod": -4}, {"amod": 1}, 5),
    ({"amod": 4}, {"insight_extra_die": True, "insight_cmod": True}, 5),
]


@pytest.mark.parametrize("actor, opponent, n_dice", OPPOSED)
def test_opposed_odds_match_brute_force(actor, opponent, n_dice):
    req = request("opposed", actor=actor, opponent=opponent)
    computed = odds(req)
    assert_same(computed["outcomes"], brute(req, n_dice))
    assert_same(computed["margin"], spread(brute(req, n_dice, lambda r: r["margin"])))
    for side in ("actor", "opponent"):
        totals = spread(brute(req, n_dice, lambda r, s=side: r[s]["total"]))
        assert_same(computed[side]["total"], totals)


def test_even_opposed_check_is_symmetric():
    outcomes = odds(request("opposed", actor={"amod": 1}, opponent={"smod": 1}))["outcomes"]
    assert outcomes["actor"] == pytest.approx(outcomes["opponent"], abs=EXACT)
    assert outcomes["draw"] == pytest.approx(146 / 1296, abs=EXACT)


GROUPS = [
    [{}, {}],
    [{"amod": 2, "smod": 1, "cmod": 1}, {"amod": 1, "smod": 2}, {"amod": -2, "cmod": -3}],
    [{"amod": 4, "smod": 4, "cmod": 5}] * 12,
]


@pytest.mark.parametrize("participants", GROUPS)
def test_group_odds_match_brute_force(participants):
    req = request("group", participants=participants)
    computed = odds(req)
    assert_same(computed["outcomes"], brute(req, 2))
    assert_same(computed["total"], spread(brute(req, 2, lambda r: r["total"])))
    assert computed["roller"] == adjudicate(dict(req, faces=[3, 3]))["roller"]


def earlier(faces, **fields):
    return adjudicate(request("check", **fields, faces=faces))


REROLLS = [
    (earlier([2, 5], amod=2), [0]),
    (earlier([6, 3]), [1]),
    (earlier([1, 1], amod=3), [0]),
    (earlier([1, 4]), [0, 1]),
    (earlier([6, 2, 6], insight_extra_die=True), [0]),
    (earlier([1, 2, 3], insight_extra_die=True, insight_cmod=True, smod=-3), [0, 1]),
]


@pytest.mark.parametrize("check, replace", REROLLS)
def test_reroll_odds_given_the_kept_dice_match_brute_force(check, replace):
    req = request("reroll", check=check, replace=replace)
    computed = odds(req)
    n = len(replace)
    assert_same(computed["outcomes"], brute(req, n))
    assert_same(computed["total"], spread(brute(req, n, lambda r: r["total"])))
    gained = sum(p * r["insight_gained"] for r, p in every_combination(req, n))
    assert computed["expected_insight_gained"] == pytest.approx(gained, abs=EXACT)


def test_reroll_odds_of_keeping_a_six():
    computed = odds(request("reroll", check=earlier([6, 1]), replace=[1]))
    assert computed["kept_faces"] == [6]
    assert computed["moment_of_insight"]["high"] == pytest.approx(1 / 6, abs=EXACT)


# --- every action's table sums to one ----------------------------------------

ALL = (
    [request("check", **f) for f, _ in CHECKS]
    + [request("opposed", actor=a, opponent=o) for a, o, _ in OPPOSED]
    + [request("group", participants=p) for p in GROUPS]
    + [request("reroll", check=c, replace=r) for c, r in REROLLS]
    + [request(a) for a in ("first_impression", "gut_instinct", "gambit", "rebuttal")]
)


@pytest.mark.parametrize("req", ALL, ids=lambda r: r["action"])
def test_distributions_sum_to_one(req):
    computed = odds(req)
    assert sum(computed["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    for key in ("total", "margin", "moment_of_insight", "consequence"):
        if key in computed:
            assert sum(computed[key].values()) == pytest.approx(1.0, abs=1e-9)
    assert all(isinstance(k, str) for k in computed.get("total", {}))


# --- the real adjudicator with a random source ---------------------------------


def test_3d6_check_odds_agree_with_monte_carlo():
    req = request("check", amod=-1, smod=2, insight_extra_die=True)
    assert_matches_odds(req, seed=20240611, outcomes="outcome")
