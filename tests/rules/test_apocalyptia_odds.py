"""Apocalyptia odds: checked against every tape the adjudicator accepts (down
to a vanishing probability), against a hand enumeration of one opposed round
with the tie series, and against a seeded Monte Carlo of the real adjudicator."""

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules.odds import odds

from .montecarlo import assert_matches_odds
from .tapes import assert_same, every_tape, tally


def request(action, **fields) -> dict:
    return {"system": "apocalyptia", "action": action, **fields}


def probability(pairs, test) -> float:
    return math.fsum(p for result, p in pairs if test(result))


def odds_and_tapes(req, floor, left_out):
    """The odds table and every tape down to `floor`, once the tapes left
    out weigh less than `left_out` and the table truncated next to nothing."""
    pairs, missing = every_tape(req, floor=floor)
    table = odds(req)
    assert missing < left_out
    assert table["truncated_mass"] <= 1e-12
    return table, pairs


# --- exact agreement with every tape --------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"bonus": 3, "difficulty": 6, "kind": "skill"},
        {"bonus": 0, "difficulty": 9, "kind": "dmg"},
        {"bonus": -2, "difficulty": 0, "kind": "loot"},
        {"bonus": 5, "difficulty": 7, "kind": "other"},
        {"bonus": 2, "difficulty": 2, "kind": "trait", "stressful": False},
        {"bonus": 5, "difficulty": 2, "kind": "trait", "stressful": False},
    ],
)
def test_roll_odds_equal_every_tape(fields):
    table, pairs = odds_and_tapes(request("roll", **fields), floor=1e-17, left_out=1e-15)
    assert_same(table["outcomes"], tally(pairs, lambda r: r["outcome"]), 1e-12)
    assert_same(table["total"], tally(pairs, lambda r: str(r["total"])), 1e-12)
    assert table["botch"] == pytest.approx(probability(pairs, lambda r: r["botch"]), abs=1e-12)
    critical = probability(pairs, lambda r: r["critical"])
    assert table["critical"] == pytest.approx(critical, abs=1e-12)
    assert table["automatic"] is all(r["automatic"] for r, _ in pairs)
    mean = math.fsum(r["total"] * p for r, p in pairs)
    assert table["expected_total"] == pytest.approx(mean, abs=1e-10)


@pytest.mark.parametrize(
    "fields",
    [
        {"atk_bonus": 6, "def_bonus": 2, "weapon_dmg": 3},
        {"atk_bonus": 0, "def_bonus": 4, "weapon_dmg": 0, "defense": "block"},
        {"atk_bonus": 3, "def_bonus": 3, "weapon_dmg": 5, "defense": "block"},
    ],
)
def test_attack_odds_equal_every_tape(fields):
    table, pairs = odds_and_tapes(request("attack", **fields), floor=1e-15, left_out=5e-13)
    tol = 1e-12
    assert_same(table["outcomes"], tally(pairs, lambda r: r["outcome"]), tol)
    assert_same(table["margin"], tally(pairs, lambda r: str(r["margin"])), tol)
    assert_same(table["damage"], tally(pairs, lambda r: str(r["damage"])), tol)
    mean = math.fsum(r["damage"] * p for r, p in pairs)
    assert table["expected_damage"] == pytest.approx(mean, abs=1e-10)
    for side in ("atk_botch", "def_botch"):
        botched = probability(pairs, lambda r, side=side: r[side])
        assert table[side] == pytest.approx(botched, abs=tol)
    broken = probability(pairs, lambda r: r["weapon_broken"] is not None)
    assert table["weapon_broken"] == pytest.approx(broken, abs=tol)


def one_die() -> list:
    """(value, botch, probability) of one exploding die, worked out by hand
    face by face, chains followed to 1e-18."""
    out = [(1, True, 1 / 36), (1, False, 5 / 36)]
    out += [(face, False, 1 / 6) for face in range(2, 6)]
    base, reach = 6, 1 / 6
    while reach > 1e-18:
        out += [(base + face, False, reach / 6) for face in range(1, 6)]
        base, reach = base + 6, reach / 6
    return out


@pytest.mark.parametrize("actor, opponent", [(0, 0), (3, 1), (-2, 5), (10, 0)])
def test_opposed_odds_equal_one_round_enumerated_with_ties_summed(actor, opponent):
    die = one_die()
    win = lose = tie = actor_botch = opponent_botch = 0.0
    margins = Counter()
    for a, a_botch, pa in die:
        for o, o_botch, po in die:
            p, m = pa * po, (a + actor) - (o + opponent)
            if m == 0:
                tie += p
                continue
            margins[str(m)] += p
            win += p if m > 0 else 0.0
            lose += p if m < 0 else 0.0
            actor_botch += p if a_botch else 0.0
            opponent_botch += p if o_botch else 0.0
    # Rounds repeat on a tie: sum over k of tie^k * win = win / (1 - tie).
    table = odds(request("opposed", actor={"bonus": actor}, opponent={"bonus": opponent}))
    tol = 1e-12
    assert table["outcomes"]["actor"] == pytest.approx(win / (1 - tie), abs=tol)
    assert table["outcomes"]["opponent"] == pytest.approx(lose / (1 - tie), abs=tol)
    assert table["tie_per_round"] == pytest.approx(tie, abs=tol)
    assert table["expected_rounds"] == pytest.approx(1 / (1 - tie), abs=1e-10)
    assert_same(table["margin"], {k: p / (1 - tie) for k, p in margins.items()}, tol)
    assert table["actor_botch"] == pytest.approx(actor_botch / (1 - tie), abs=tol)
    assert table["opponent_botch"] == pytest.approx(opponent_botch / (1 - tie), abs=tol)
    assert table["truncated_mass"] <= 1e-12


@pytest.mark.parametrize("actor, opponent", [(2, 2)])
def test_opposed_odds_agree_with_the_adjudicators_rerolls(actor, opponent):
    # Following ties through the adjudicator itself; tapes longer than eight
    # faces are left out, so the enumeration brackets the exact odds.
    req = request("opposed", actor={"bonus": actor}, opponent={"bonus": opponent})
    pairs, left_out = every_tape(req, floor=1e-7)
    assert left_out < 0.01
    table = odds(req)
    brute = tally(pairs, lambda r: r["outcome"])
    for outcome in ("actor", "opponent"):
        assert brute[outcome] <= table["outcomes"][outcome] + 1e-12
        assert brute[outcome] >= table["outcomes"][outcome] - left_out - 1e-12
    assert max(r["rounds"] for r, _ in pairs) >= 3


def test_roll_odds_worked_by_hand():
    # Beat 6 with +3: a 4, 5 or any 6 (which explodes to 9 or more).
    table = odds(request("roll", bonus=3, difficulty=6, kind="skill"))
    assert table["outcomes"]["success"] == pytest.approx(1 / 2, abs=1e-12)
    # Beat 9 with +3: needs a 6 and anything after it.
    table = odds(request("roll", bonus=3, difficulty=9, kind="skill"))
    assert table["outcomes"]["success"] == pytest.approx(1 / 6, abs=1e-12)
    assert odds(request("roll", bonus=3, difficulty=9, kind="other"))["outcomes"]["success"] == 0.0
    assert table["botch"] == pytest.approx(1 / 36)
    assert table["expected_total"] == pytest.approx(3 + 4.2)


def test_weapon_broken_odds_follow_the_defence():
    base = {"atk_bonus": 2, "def_bonus": 2, "weapon_dmg": 1}
    dodge = odds(request("attack", **base))
    block = odds(request("attack", **base, defense="block"))
    assert dodge["weapon_broken"] == pytest.approx(1 / 36)
    assert block["weapon_broken"] == pytest.approx(1 - (35 / 36) ** 2)
    assert dodge["outcomes"] == block["outcomes"]


# --- Monte Carlo of the real adjudicator ---------------------------------------------------


def test_exploding_roll_matches_monte_carlo():
    req = request("roll", bonus=2, difficulty=7, kind="skill")
    assert_matches_odds(req, 3, "outcomes", "total", "botch")


def test_opposed_rerolls_match_monte_carlo():
    req = request("opposed", actor={"bonus": 1}, opponent={"bonus": 1})
    assert_matches_odds(req, 5, "outcomes", "margin", "actor_botch")


def test_attack_against_a_block_matches_monte_carlo():
    req = request("attack", atk_bonus=4, def_bonus=3, weapon_dmg=2, defense="block")
    assert_matches_odds(req, 9, "outcomes", "damage", "weapon_broken")


# --- properties ----------------------------------------------------------------------------

bonuses = st.integers(-20, 40)


@settings(max_examples=150, deadline=None)
@given(bonuses, st.integers(0, 59), st.sampled_from(["skill", "other"]), st.booleans())
def test_roll_odds_sum_to_one_and_rise_with_the_bonus(bonus, difficulty, kind, stressful):
    fields = {"bonus": bonus, "difficulty": difficulty, "kind": kind, "stressful": stressful}
    table = odds(request("roll", **fields))
    assert math.fsum(table["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert math.fsum(table["total"].values()) == pytest.approx(1.0, abs=1e-9)
    assert table["truncated_mass"] <= 1e-12
    p = table["outcomes"]["success"]
    harder = odds(request("roll", **{**fields, "difficulty": difficulty + 1}))
    assert harder["outcomes"]["success"] <= p + 1e-12
    if bonus < 40:
        easier = odds(request("roll", **{**fields, "bonus": bonus + 1}))
        assert easier["outcomes"]["success"] >= p - 1e-12


@settings(max_examples=100, deadline=None)
@given(bonuses, bonuses, st.integers(0, 40))
def test_attack_and_opposed_odds_sum_to_one_and_favour_the_bonus(atk, dfn, weapon):
    table = odds(request("attack", atk_bonus=atk, def_bonus=dfn, weapon_dmg=weapon))
    assert math.fsum(table["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert math.fsum(table["damage"].values()) == pytest.approx(1.0, abs=1e-9)
    assert table["truncated_mass"] <= 1e-12
    contest = odds(request("opposed", actor={"bonus": atk}, opponent={"bonus": dfn}))
    assert math.fsum(contest["outcomes"].values()) == pytest.approx(1.0, abs=1e-9)
    assert contest["truncated_mass"] <= 1e-12
    if atk < 40:
        better = odds(request("attack", atk_bonus=atk + 1, def_bonus=dfn, weapon_dmg=weapon))
        assert better["outcomes"]["hit"] >= table["outcomes"]["hit"] - 1e-12
        assert better["expected_damage"] >= table["expected_damage"] - 1e-12
        ahead = odds(request("opposed", actor={"bonus": atk + 1}, opponent={"bonus": dfn}))
        assert ahead["outcomes"]["actor"] >= contest["outcomes"]["actor"] - 1e-12
