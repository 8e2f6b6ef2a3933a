"""Rd6 odds against a seeded Monte Carlo of the adjudicator: a large pool,
and every kind of exploding die. Each test throws 200,000 rolls (a few
seconds each), which is why they live apart from the exact tests."""

from .montecarlo import assert_matches_odds


def test_large_pool_matches_monte_carlo():
    # 12D+2: a large pool, the exploding Wild Die and the cancelled highest die.
    request = {"system": "rd6", "action": "roll", "dice": 12, "pips": 2, "difficulty": 7}
    assert_matches_odds(
        request,
        6,
        "outcomes",
        "successes",
        critical_failure_check=lambda r: r["critical_failure_check"] or "none",
    )


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
    assert_matches_odds(request, 16, "outcomes", "total", "result_points")


def test_extra_wild_dice_in_an_opposed_roll_match_monte_carlo():
    # Rolling Up and a Character Point die beside a regular die, against a
    # single Wild Die with more pips.
    request = {
        "system": "rd6",
        "action": "opposed",
        "actor": {"dice": 3, "pips": 1, "rolling_up": True, "character_points": 1},
        "opponent": {"dice": 1, "pips": 5},
    }
    assert_matches_odds(
        request,
        66,
        "outcomes",
        "margin",
        actor_successes="actor.successes",
        opponent_successes="opponent.successes",
    )
