"""Fantasy Ground Rules: a pool of d6 where each 3-6 is a success, a Luck Roll
when penalties leave no dice, and Action Points that buy successes or soak
damage."""

from vtt.rules.schema import Int
from vtt.rules.systems import Action, System

from .basics import (
    damage_outcome,
    is_critical_failure,
    is_luck_success,
    is_success,
    pool_size,
    reduced_damage,
    roll_succeeds,
)
from .odds import numeric_odds, reduce_damage_odds, roll_odds

# Bounds keep every request small: a pool never exceeds 60 dice and every
# count stays in the low hundreds.
MAX_SKILL = 40
MAX_MODIFIER_DICE = 20
MAX_NUMERIC_DICE = 60
MAX_DIFFICULTY = 100
MAX_ACTION_POINTS = 50
MAX_DAMAGE = 100


def roll(req: dict, roller) -> dict:
    pool = pool_size(req["skill"], req["modifier_dice"])
    luck = pool <= 0
    if luck:
        die = roller.die("actor", "luck", is_luck_success)
        rolled = int(die["success"])
        critical_failure = is_critical_failure(die["face"])
    else:
        dice = [roller.die("actor", "regular", is_success) for _ in range(pool)]
        rolled = sum(d["success"] for d in dice)
        critical_failure = False
    successes = rolled + req["action_points"]
    won = roll_succeeds(successes, req["difficulty"], critical_failure)
    return {
        "successes": successes,
        "luck": luck,
        "critical_failure": critical_failure,
        "outcome": "success" if won else "failure",
    }


def numeric(req: dict, roller) -> dict:
    dice = [roller.die("actor", "regular") for _ in range(req["dice"])]
    return {"total": sum(d["value"] for d in dice), "outcome": "rolled"}


def reduce_damage(req: dict, roller) -> dict:
    damage = reduced_damage(req["damage"], req["action_points"])
    return {"damage": damage, "outcome": damage_outcome(damage)}


ROLL_FIELDS = {
    "skill": Int(0, MAX_SKILL),
    "modifier_dice": Int(-MAX_MODIFIER_DICE, MAX_MODIFIER_DICE, default=0),
    "difficulty": Int(1, MAX_DIFFICULTY),
    "action_points": Int(0, MAX_ACTION_POINTS, default=0),
}

SYSTEM = System(
    id="fgr",
    name="Fantasy Ground Rules",
    actions={
        "roll": Action(ROLL_FIELDS, roll, ("success", "failure"), roll_odds),
        "numeric": Action({"dice": Int(0, MAX_NUMERIC_DICE)}, numeric, ("rolled",), numeric_odds),
        "reduce_damage": Action(
            {
                "damage": Int(0, MAX_DAMAGE),
                "action_points": Int(0, MAX_ACTION_POINTS, default=0),
            },
            reduce_damage,
            ("damaged", "unharmed"),
            reduce_damage_odds,
        ),
    },
)
