"""Artifice odds against a seeded Monte Carlo of the real adjudicator, for
pools too large to enumerate: 200,000 rolls each, judged by the shared
agreement check (five standard errors, rare values pooled as one tail)."""

from .montecarlo import assert_matches_odds


def request(action, **fields):
    return {"system": "artifice", "action": action, **fields}


def test_large_check_odds_agree_with_monte_carlo():
    req = request("check", pool=12, modifier=2, difficulty=6)
    assert_matches_odds(req, 1, "outcomes", "successes", "critical_success")


def test_large_test_odds_agree_with_monte_carlo():
    req = request(
        "test",
        actor={"pool": 7, "modifier": -1},
        opponent={"pool": 6, "modifier": 2},
        kind="wound",
    )
    assert_matches_odds(req, 2, "outcomes", "margin", "opponent_critical_success")


def test_attack_chain_odds_agree_with_monte_carlo():
    req = request(
        "attack",
        attacker={"finesse": 4, "might": 3, "lethality": 1, "modifier": 1},
        defender={"agility": 3, "toughness": 3, "condition": "Hurt"},
        advantage="defender",
    )
    assert_matches_odds(req, 3, "outcomes", "condition_steps", "condition_after")
