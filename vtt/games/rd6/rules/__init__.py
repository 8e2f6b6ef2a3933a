"""Rd6: a die code nD+p summed, one exploding Wild Die, a success for every
full 6 of the total. Mechanics and interpretations: docs/rules/rd6.md."""

from vtt.rules.systems import Action, System

from .arithmetic import (
    needed,
    refuse_after_true_critical_failure,
    result_dice,
    result_level,
    shape_pool,
)
from .fields import OPPOSED_FIELDS, ROLL_FIELDS
from .odds import opposed_odds, roll_odds
from .throw import throw

TRUE_CRITICAL = "true_critical_failure"


def _grade(points: int | None, conversion: str) -> dict:
    """Result points, their level and the effect dice they buy; `points` is
    None when the roll did not succeed."""
    dice, pips = result_dice(points or 0, conversion)
    return {
        "result_points": points or 0,
        "result_level": None if points is None else result_level(points),
        "damage_dice": dice,
        "damage_pips": pips,
    }


def resolve_roll(fields: dict, roller) -> dict:
    refuse_after_true_critical_failure(fields)
    pool = shape_pool(fields)
    side = throw(pool, roller, "actor")
    need = needed(fields)
    success = side["critical_failure_check"] != TRUE_CRITICAL and side["successes"] >= need
    points = None
    if success:
        # A Second Chance is a raw test: it may succeed but earns no points.
        points = 0 if fields["retry"] else side["successes"] - need
    return {
        **side,
        "needed": need,
        "outcome": "success" if success else "failure",
        **_grade(points, fields["result_dice"]),
    }


def _standing(side: dict) -> tuple:
    """How a side ranks in an opposed roll: a True Critical Failure fails
    outright, then successes, then the total."""
    return (side["critical_failure_check"] != TRUE_CRITICAL, side["successes"], side["total"])


def resolve_opposed(fields: dict, roller) -> dict:
    actor_pool = shape_pool(fields["actor"], "actor.")
    opponent_pool = shape_pool(fields["opponent"], "opponent.")
    actor = throw(actor_pool, roller, "actor")
    opponent = throw(opponent_pool, roller, "opponent")
    a, o = _standing(actor), _standing(opponent)
    if not a[0] and not o[0]:
        outcome = "draw"  # both fail outright: nobody gains the upper hand
    elif a > o:
        outcome = "actor"
    elif o > a:
        outcome = "opponent"
    else:
        outcome = "draw"
    points = None
    if outcome != "draw":
        winner, loser = (actor, opponent) if outcome == "actor" else (opponent, actor)
        points = max(0, winner["successes"] - loser["successes"])
    return {
        "actor": actor,
        "opponent": opponent,
        "margin": actor["successes"] - opponent["successes"],
        "outcome": outcome,
        **_grade(points, fields["result_dice"]),
    }


SYSTEM = System(
    id="rd6",
    name="Rd6",
    actions={
        "roll": Action(ROLL_FIELDS, resolve_roll, ("success", "failure"), roll_odds),
        "opposed": Action(
            OPPOSED_FIELDS, resolve_opposed, ("actor", "opponent", "draw"), opposed_odds
        ),
    },
)
