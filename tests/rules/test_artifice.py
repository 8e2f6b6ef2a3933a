"""Artifice adjudication with pinned dice tapes: the seed's worked examples,
the edges of every action, and the requests the rules refuse."""

from functools import partial

import pytest

from vtt.rules import adjudicate

from .pinned import refusal, throw

roll = partial(throw, "artifice")
refused = partial(refusal, "artifice")


def values(result, pool=None):
    return [d["value"] for d in result["dice"] if pool is None or d["pool"] == pool]


# The seed's worked examples ------------------------------------------------


def test_seed_tenrec_door_first_try_might_lifts_the_three_to_one_success():
    r = roll("check", [2, 2, 3], pool=3, modifier=1, difficulty=2)
    assert values(r) == [2, 2, 4]
    assert [d["success"] for d in r["dice"]] == [False, False, True]
    assert r["successes"] == 1
    assert r["outcome"] == "failure"
    assert r["margin"] == -1
    assert r["cascade"] == 0
    assert not r["critical_failure"] and not r["critical_success"]


def test_seed_tenrec_door_second_try_opens_with_a_critical_failure():
    r = roll("check", [4, 5, 1], pool=3, modifier=1, difficulty=2)
    assert r["successes"] == 2
    assert r["outcome"] == "success"
    assert r["critical_failure"] is True
    # The Wild Die's 1 took the pip but stays a natural 1: still a failure.
    assert r["dice"][2] == {
        "pool": "actor",
        "role": "wild",
        "face": 1,
        "value": 2,
        "success": False,
    }


def test_seed_tenrec_door_alternate_try_totals_four_successes():
    r = roll("check", [5, 5, 6], pool=3, modifier=1, difficulty=2)
    assert r["successes"] == 4
    assert r["outcome"] == "success"
    assert r["critical_success"] is True
    assert values(r) == [5, 5, 6]  # nothing failed, so the pip had no die to lift
    assert r["cascade"] == 2


@pytest.mark.parametrize("arcanum, expected", [(2, 2), (4, 3)])
def test_seed_kobor_automatic_successes_are_half_the_pool(arcanum, expected):
    r = roll("check", [], pool=2 + arcanum, difficulty=2, automatic=True)
    assert r["successes"] == expected
    assert r["outcome"] == "success"
    assert r["automatic"] is True
    assert r["cascade"] == 0
    assert r["dice"] == []


def test_seed_tenrec_strikes_the_zombie():
    # Combat Test 4D vs 2D: 3 vs 1. Wound Test 4D + 2 cascade = 6D vs 3D: 4 vs 1.
    r = roll(
        "attack",
        [4, 5, 6, 2] + [2, 4] + [4, 5, 6, 4, 1, 2] + [4, 1, 2],
        attacker={"finesse": 4, "might": 2, "lethality": 2},
        defender={"agility": 2, "toughness": 3},
    )
    assert r["combat"]["actor_successes"] == 3
    assert r["combat"]["opponent_successes"] == 1
    assert r["combat"]["outcome"] == "actor"
    assert r["combat"]["cascade"] == 2
    assert r["wound"]["actor_pool"] == 6
    assert r["wound"]["actor_successes"] == 4
    assert r["wound"]["opponent_successes"] == 1
    assert r["condition_steps"] == 3
    assert r["condition_before"] == "Healthy"
    assert r["condition_after"] == "Wounded"
    assert r["outcome"] == "hit"
    pools = [d["pool"] for d in r["dice"]]
    assert (
        pools
        == ["combat_attacker"] * 4
        + ["combat_defender"] * 2
        + ["wound_attacker"] * 6
        + ["wound_defender"] * 3
    )


# check -----------------------------------------------------------------------


def test_check_tape_order_is_regular_dice_then_the_wild_die():
    r = roll("check", [1, 2, 3, 4], pool=4, difficulty=1)
    assert [d["role"] for d in r["dice"]] == ["regular"] * 3 + ["wild"]
    assert r["successes"] == 1


def test_check_pool_of_zero_still_rolls_the_wild_die():
    r = roll("check", [5], pool=0, difficulty=1)
    assert [d["role"] for d in r["dice"]] == ["wild"]
    assert r["successes"] == 1


def test_check_wild_one_changes_no_count():
    r = roll("check", [4, 4, 1], pool=3, difficulty=2)
    assert r["successes"] == 2
    assert r["outcome"] == "success"
    assert r["critical_failure"] is True
    assert r["critical_success"] is False


def test_check_four_dice_without_a_success_is_a_critical_failure():
    r = roll("check", [3, 2, 3, 2], pool=4, difficulty=1)
    assert r["successes"] == 0
    assert r["critical_failure"] is True


def test_check_three_dice_without_a_success_is_only_a_failure():
    r = roll("check", [3, 2, 3], pool=3, difficulty=1)
    assert r["critical_failure"] is False


def test_check_pip_that_saves_the_last_die_avoids_the_critical_failure():
    r = roll("check", [1, 2, 3, 2], pool=4, modifier=1, difficulty=1)
    assert r["successes"] == 1
    assert r["critical_failure"] is False


def test_check_beating_the_difficulty_by_four_is_a_critical_success():
    r = roll("check", [4, 4, 4, 4, 5], pool=5, difficulty=1)
    assert r["margin"] == 4
    assert r["critical_success"] is True
    assert r["cascade"] == 4


def test_check_beating_by_three_is_not_critical():
    r = roll("check", [4, 4, 4, 4, 5], pool=5, difficulty=2)
    assert r["critical_success"] is False


def test_check_cascade_false_keeps_the_excess():
    r = roll("check", [4, 4, 4], pool=3, difficulty=1, cascade=False)
    assert r["margin"] == 2
    assert r["cascade"] == 0


def test_check_automatic_rolls_nothing_and_ignores_pips():
    r = roll("check", [], pool=5, modifier=3, difficulty=3, automatic=True)
    assert r["successes"] == 2
    assert r["outcome"] == "failure"
    assert r["margin"] == -1


def test_check_difficulty_zero_always_succeeds():
    r = roll("check", [1], pool=1, difficulty=0)
    assert r["outcome"] == "success"
    assert r["critical_failure"] is True


def test_positive_pip_goes_to_a_regular_die_before_the_wild_die_on_a_tie():
    r = roll("check", [3, 1, 3], pool=3, modifier=1, difficulty=1)
    assert values(r) == [4, 1, 3]
    assert r["successes"] == 1


def test_positive_pip_goes_to_the_highest_failing_die_even_the_wild_die():
    r = roll("check", [2, 1, 3], pool=3, modifier=1, difficulty=1)
    assert values(r) == [2, 1, 4]
    assert r["dice"][2]["success"] is True
    assert r["critical_success"] is False  # a 3 made 4 is no natural 6


def test_small_pip_on_a_low_failing_die_changes_nothing():
    r = roll("check", [2, 1, 5], pool=3, modifier=1, difficulty=2)
    assert values(r) == [3, 1, 5]
    assert r["successes"] == 1


def test_big_pip_lifts_any_failing_die_once():
    r = roll("check", [1, 1, 1], pool=3, modifier=5, difficulty=1)
    assert values(r) == [6, 1, 1]
    assert r["successes"] == 1
    assert r["critical_success"] is False


def test_negative_pip_comes_from_the_lowest_succeeding_die():
    r = roll("check", [6, 4, 5], pool=3, modifier=-1, difficulty=2)
    assert values(r) == [6, 3, 5]
    assert r["successes"] == 2


def test_negative_pip_takes_a_regular_die_before_the_wild_die_on_a_tie():
    r = roll("check", [2, 6, 6], pool=3, modifier=-3, difficulty=1)
    assert values(r) == [2, 3, 6]
    assert r["successes"] == 2  # the Wild Die's 6 and its extra success


def test_negative_pip_on_the_wild_six_keeps_the_critical_success():
    r = roll("check", [2, 3, 6], pool=3, modifier=-3, difficulty=1)
    assert values(r) == [2, 3, 3]
    assert r["dice"][2]["success"] is False
    assert r["critical_success"] is True
    assert r["successes"] == 1  # the natural 6's extra success stays


def test_negative_pip_with_no_success_changes_nothing():
    r = roll("check", [2, 3, 1], pool=3, modifier=-2, difficulty=1)
    assert values(r) == [2, 3, 1]


# test ------------------------------------------------------------------------


def side(pool, modifier=0):
    return {"pool": pool, "modifier": modifier}


def test_standard_test_tie_goes_to_the_actor():
    r = roll("test", [4, 2, 5, 2], actor=side(2), opponent=side(2))
    assert r["actor_successes"] == r["opponent_successes"] == 1
    assert r["outcome"] == "actor"
    assert r["cascade"] == 0


def test_wound_test_tie_goes_to_the_defender():
    r = roll("test", [4, 2, 5, 2], actor=side(2), opponent=side(2), kind="wound")
    assert r["margin"] == 0
    assert r["outcome"] == "opponent"
    assert r["kind"] == "wound"


def test_wild_one_in_a_test_gives_the_opponent_a_success():
    r = roll("test", [4, 5, 1, 4, 2], actor=side(3), opponent=side(2))
    assert r["actor_successes"] == 2
    assert r["opponent_successes"] == 2  # one rolled, one from the actor's natural 1
    assert r["actor_critical_failure"] is True
    assert r["outcome"] == "actor"


def test_both_wild_ones_cancel_out():
    r = roll("test", [4, 1, 1], actor=side(2), opponent=side(1))
    assert (r["actor_successes"], r["opponent_successes"]) == (2, 1)
    assert r["actor_critical_failure"] and r["opponent_critical_failure"]


def test_test_critical_success_by_margin_four():
    r = roll("test", [4, 4, 4, 5, 2], actor=side(4), opponent=side(1))
    assert r["margin"] == 4
    assert r["actor_critical_success"] is True
    assert r["opponent_critical_success"] is False
    assert r["cascade"] == 4


def test_opponent_winning_big_is_the_opponents_critical_and_cascade():
    r = roll("test", [2, 4, 4, 4, 6], actor=side(1), opponent=side(4))
    assert r["margin"] == -5
    assert r["outcome"] == "opponent"
    assert r["opponent_critical_success"] is True
    assert r["cascade"] == 5


def test_test_four_dice_without_a_success_is_a_critical_failure():
    r = roll("test", [1, 2, 3, 2, 3], actor=side(4), opponent=side(1))
    assert r["actor_critical_failure"] is True
    assert r["opponent_critical_failure"] is False
    assert r["actor_successes"] == 0


def test_test_pools_of_zero_roll_one_die_each():
    r = roll("test", [3, 4], actor=side(0), opponent=side(0))
    assert [(d["pool"], d["role"]) for d in r["dice"]] == [("actor", "wild"), ("opponent", "wild")]
    assert r["outcome"] == "opponent"
    assert (r["actor_pool"], r["opponent_pool"]) == (1, 1)


def test_test_modifiers_apply_per_side():
    r = roll("test", [3, 2, 4, 4], actor=side(2, 1), opponent=side(2, -1))
    assert values(r) == [4, 2, 3, 4]
    assert (r["actor_successes"], r["opponent_successes"]) == (1, 1)


def test_test_cascade_false():
    r = roll("test", [4, 4, 2], actor=side(2), opponent=side(1), cascade=False)
    assert r["margin"] == 2
    assert r["cascade"] == 0


# passive ---------------------------------------------------------------------


@pytest.mark.parametrize("ability, successes", [(0, 0), (1, 0), (3, 1), (4, 2), (7, 3)])
def test_passive_is_half_the_ability_and_rolls_nothing(ability, successes):
    r = roll("passive", [], ability=ability)
    assert r["successes"] == successes
    assert r["outcome"] == "passive"
    assert r["dice"] == []


# attack ----------------------------------------------------------------------

ZOMBIE = {"agility": 2, "toughness": 3}
TENREC = {"finesse": 4, "might": 2, "lethality": 2}


def test_attack_miss_rolls_no_wound_test():
    r = roll("attack", [2, 2, 2, 2, 4, 2], attacker=TENREC, defender=ZOMBIE)
    assert r["outcome"] == "miss"
    assert r["wound"] is None
    assert r["condition_steps"] == 0
    assert r["condition_after"] == "Healthy"
    assert len(r["dice"]) == 6


def test_attack_tied_combat_test_hits_without_cascade():
    r = roll(
        "attack",
        [4, 2, 2, 2] + [4, 2] + [4, 4, 2, 2] + [4, 2, 2],
        attacker=TENREC,
        defender=ZOMBIE,
    )
    assert r["combat"]["margin"] == 0
    assert r["combat"]["outcome"] == "actor"
    assert r["wound"]["actor_pool"] == 4
    assert r["outcome"] == "hit"
    assert r["condition_steps"] == 1
    assert r["condition_after"] == "Hurt"


def test_attack_tied_wound_test_is_a_hit_that_does_no_harm():
    r = roll(
        "attack",
        [4, 2, 2, 2] + [2, 2] + [4, 2, 2, 2, 2] + [4, 2, 2],
        attacker=TENREC,
        defender=ZOMBIE,
    )
    assert r["wound"]["margin"] == 0
    assert r["wound"]["outcome"] == "opponent"
    assert r["outcome"] == "hit"
    assert r["condition_steps"] == 0
    assert r["condition_after"] == "Healthy"


def test_attack_that_leaves_the_defender_incapacitated():
    r = roll(
        "attack",
        [4, 5, 6, 2] + [2, 4] + [4, 5, 6, 4, 1, 2] + [4, 1, 2],
        attacker=TENREC,
        defender={**ZOMBIE, "condition": "Injured"},
    )
    assert r["condition_steps"] == 3
    assert r["condition_after"] == "Incapacitated"
    assert r["outcome"] == "incapacitated"


def test_attack_steps_past_dead_stop_at_dead():
    r = roll(
        "attack",
        [4, 5, 6, 2] + [2, 4] + [4, 5, 6, 4, 1, 2] + [4, 1, 2],
        attacker=TENREC,
        defender={**ZOMBIE, "condition": "Critical"},
    )
    assert r["condition_steps"] == 3
    assert r["condition_before"] == "Critical"
    assert r["condition_after"] == "Dead"
    assert r["outcome"] == "dead"


def test_attack_on_a_campaign_condition_track():
    track = ["Fine", "Bloodied", "Down", "Gone"]
    r = roll(
        "attack",
        [4, 5, 6, 2] + [2, 4] + [4, 5, 6, 4, 1, 2] + [4, 1, 2],
        attacker=TENREC,
        defender=ZOMBIE,
        condition_track=track,
    )
    assert r["condition_before"] == "Fine"
    assert r["condition_after"] == "Gone"
    assert r["outcome"] == "dead"


def test_attack_advantage_adds_a_die_to_that_sides_combat_pool():
    wound = [4, 5, 6, 4, 1, 2] + [4, 1, 2]
    r = roll(
        "attack",
        [4, 5, 6, 2, 2] + [2, 4] + wound,
        attacker=TENREC,
        defender=ZOMBIE,
        advantage="attacker",
    )
    assert (r["combat"]["actor_pool"], r["combat"]["opponent_pool"]) == (5, 2)
    r = roll(
        "attack",
        [4, 5, 6, 2] + [2, 2, 4] + wound,
        attacker=TENREC,
        defender=ZOMBIE,
        advantage="defender",
    )
    assert (r["combat"]["actor_pool"], r["combat"]["opponent_pool"]) == (4, 3)
    assert r["condition_steps"] == 3


def test_attack_pip_modifiers_go_to_their_own_tests():
    r = roll(
        "attack",
        [3, 2, 2, 2] + [4, 2] + [3, 2, 2, 2, 2] + [4, 2, 2],
        attacker={**TENREC, "modifier": 1, "wound_modifier": 1},
        defender={**ZOMBIE, "modifier": -1},
    )
    assert values(r, "combat_attacker") == [4, 2, 2, 2]
    assert values(r, "combat_defender") == [3, 2]
    assert values(r, "wound_attacker")[0] == 4
    assert r["combat"]["margin"] == 1
    assert r["wound"]["actor_pool"] == 5


def test_attack_wild_one_in_combat_gives_the_defender_a_success():
    r = roll(
        "attack",
        [4, 4, 2, 1] + [4, 2] + [2, 2, 2, 2] + [2, 2, 2],
        attacker=TENREC,
        defender=ZOMBIE,
    )
    assert r["combat"]["opponent_successes"] == 2
    assert r["combat"]["outcome"] == "actor"
    assert r["combat"]["cascade"] == 0


@pytest.mark.parametrize("category", ["adjacent", "near", "far", None])
def test_attack_in_range_is_adjudicated(category):
    r = roll("attack", [2, 2, 2, 2, 4, 2], attacker=TENREC, defender=ZOMBIE, range=category)
    assert r["outcome"] == "miss"


def test_attack_out_of_range_is_refused():
    err = refused(
        {"action": "attack", "attacker": TENREC, "defender": ZOMBIE, "range": "out_of_range"}
    )
    assert (err.code, err.field) == ("out_of_range", "range")


def test_attack_on_a_condition_not_on_the_track_is_invalid():
    err = refused(
        {"action": "attack", "attacker": TENREC, "defender": {**ZOMBIE, "condition": "Bruised"}}
    )
    assert (err.code, err.field) == ("invalid", "defender.condition")


# range -----------------------------------------------------------------------


def measure(**fields):
    return adjudicate({"system": "artifice", "action": "range", **fields})


def test_range_uniform_diagonals():
    r = measure(**{"from": [0, 0], "to": [4, 3]})
    assert (r["distance_ft"], r["category"], r["outcome"]) == (20, "near", "near")
    assert r["line_of_sight"] is True
    assert r["dice"] == []


def test_range_alternating_diagonals():
    r = measure(**{"from": [0, 0], "to": [4, 3], "diagonal": "alternating"})
    assert r["distance_ft"] == 25


def test_range_listed_range_doubles_for_far():
    r = measure(**{"from": [0, 0], "to": [12, 0], "range_ft": 30})
    assert (r["distance_ft"], r["category"]) == (60, "far")
    r = measure(**{"from": [0, 0], "to": [13, 0], "range_ft": 30})
    assert r["category"] == "out_of_range"


def test_range_without_a_listed_range_is_far_under_a_hundred_feet():
    r = measure(**{"from": [0, 0], "to": [19, 0], "range_ft": None})
    assert (r["distance_ft"], r["category"]) == (95, "far")
    r = measure(**{"from": [0, 0], "to": [20, 0]})
    assert r["category"] == "out_of_range"


def test_range_corner_touch_is_adjacent():
    r = measure(**{"from": [3, 3], "to": [4, 4], "range_ft": 0})
    assert (r["distance_ft"], r["category"]) == (5, "adjacent")


def test_range_line_of_sight_spell_is_stopped_by_a_wall():
    wall = [[2, -5, 2, 5]]
    r = measure(**{"from": [0, 0], "to": [9, 0], "range_ft": "line_of_sight", "walls": wall})
    assert (r["category"], r["line_of_sight"]) == ("out_of_range", False)
    r = measure(**{"from": [0, 0], "to": [40, 0], "range_ft": "line_of_sight"})
    assert (r["category"], r["line_of_sight"]) == ("near", True)


def test_range_weapon_behind_a_wall_keeps_its_category_and_reports_the_wall():
    r = measure(**{"from": [0, 0], "to": [3, 0], "walls": [[2, -5, 2, 5]]})
    assert (r["category"], r["line_of_sight"]) == ("near", False)


# bad requests ----------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, code, field",
    [
        ({"action": "check", "pool": 3, "difficulty": 2, "luck": 1}, "unknown_field", "luck"),
        ({"action": "check", "pool": 3}, "invalid", "difficulty"),
        ({"action": "check", "pool": "3", "difficulty": 2}, "invalid", "pool"),
        ({"action": "check", "pool": True, "difficulty": 2}, "invalid", "pool"),
        ({"action": "check", "pool": 61, "difficulty": 2}, "invalid", "pool"),
        ({"action": "check", "pool": -1, "difficulty": 2}, "invalid", "pool"),
        ({"action": "check", "pool": 3, "difficulty": -1}, "invalid", "difficulty"),
        ({"action": "check", "pool": 3, "difficulty": 2, "modifier": 21}, "invalid", "modifier"),
        ({"action": "check", "pool": 3, "difficulty": 2, "automatic": 1}, "invalid", "automatic"),
        ({"action": "test", "actor": {"pool": 3}}, "invalid", "opponent"),
        (
            {"action": "test", "actor": {"pool": 3, "pips": 1}, "opponent": {"pool": 2}},
            "unknown_field",
            "actor.pips",
        ),
        (
            {"action": "test", "actor": {"pool": 3}, "opponent": {"pool": 2.0}},
            "invalid",
            "opponent.pool",
        ),
        (
            {"action": "test", "actor": {"pool": 3, "modifier": -21}, "opponent": {"pool": 2}},
            "invalid",
            "actor.modifier",
        ),
        ({"action": "test", "actor": {}, "opponent": {"pool": 2}}, "invalid", "actor.pool"),
        ({"action": "test", "actor": [3], "opponent": {"pool": 2}}, "invalid", "actor"),
        (
            {"action": "test", "actor": {"pool": 1}, "opponent": {"pool": 2}, "kind": "combat"},
            "invalid",
            "kind",
        ),
        ({"action": "passive", "ability": -1}, "invalid", "ability"),
        ({"action": "passive"}, "invalid", "ability"),
        ({"action": "attack", "attacker": TENREC}, "invalid", "defender"),
        (
            {"action": "attack", "attacker": {**TENREC, "finesse": 31}, "defender": ZOMBIE},
            "invalid",
            "attacker.finesse",
        ),
        (
            {"action": "attack", "attacker": TENREC, "defender": {**ZOMBIE, "armour": 1}},
            "unknown_field",
            "defender.armour",
        ),
        (
            {"action": "attack", "attacker": TENREC, "defender": ZOMBIE, "advantage": "both"},
            "invalid",
            "advantage",
        ),
        (
            {"action": "attack", "attacker": TENREC, "defender": ZOMBIE, "range": "long"},
            "invalid",
            "range",
        ),
        (
            {
                "action": "attack",
                "attacker": TENREC,
                "defender": ZOMBIE,
                "condition_track": ["Up", "Down"],
            },
            "invalid",
            "condition_track",
        ),
        (
            {
                "action": "attack",
                "attacker": TENREC,
                "defender": ZOMBIE,
                "condition_track": ["Up", "Down", "Up"],
            },
            "invalid",
            "condition_track",
        ),
        (
            {
                "action": "attack",
                "attacker": TENREC,
                "defender": ZOMBIE,
                "condition_track": ["Up", "", "Out"],
            },
            "invalid",
            "condition_track[1]",
        ),
        (
            {"action": "attack", "attacker": TENREC, "defender": {**ZOMBIE, "condition": 3}},
            "invalid",
            "defender.condition",
        ),
        ({"action": "range", "from": [0, 0]}, "invalid", "to"),
        ({"action": "range", "from": [0], "to": [1, 1]}, "invalid", "from"),
        ({"action": "range", "from": [0, 0.5], "to": [1, 1]}, "invalid", "from"),
        ({"action": "range", "from": [0, 0], "to": [1, 1], "range_ft": -5}, "invalid", "range_ft"),
        (
            {"action": "range", "from": [0, 0], "to": [1, 1], "range_ft": "sight"},
            "invalid",
            "range_ft",
        ),
        (
            {"action": "range", "from": [0, 0], "to": [1, 1], "walls": [[0, 0, 1]]},
            "invalid",
            "walls[0]",
        ),
        (
            {"action": "range", "from": [0, 0], "to": [1, 1], "walls": [[0, 0, 1, "x"]]},
            "invalid",
            "walls[0]",
        ),
        (
            {"action": "range", "from": [0, 0], "to": [1, 1], "diagonal": "euclid"},
            "invalid",
            "diagonal",
        ),
        ({"action": "fireball"}, "invalid", "action"),
    ],
)
def test_bad_requests_name_the_field(request_, code, field):
    err = refused(request_)
    assert (err.code, err.field) == (code, field)


def test_short_tape_says_more_faces_are_needed():
    err = refused({"action": "check", "pool": 3, "difficulty": 1, "faces": [4, 4]})
    assert err.code == "faces_exhausted"


def test_long_tape_is_refused():
    err = refused({"action": "check", "pool": 1, "difficulty": 1, "faces": [4, 4]})
    assert err.code == "faces_unused"


def test_automatic_check_takes_no_faces():
    err = refused({"action": "check", "pool": 4, "difficulty": 1, "automatic": True, "faces": [4]})
    assert err.code == "faces_unused"
