"""Rd6 request fields and their bounds.

The bounds keep every valid request small: at most 80 dice in a pool
(30D doubled by a Fate Point, +10D equipment, +10D modifiers) and 12
exploding dice (the Wild Die, 10 Character Point dice, a Rolling Up die)."""

from vtt.rules.schema import Bool, Choice, Int, Obj

MAX_DICE = 30
MAX_EQUIPMENT_DICE = 10
MAX_MODIFIER_DICE = 10
MAX_PIPS = 20
MAX_CHARACTER_POINTS = 10
MAX_DIFFICULTY = 60
MAX_DIFFICULTY_MODIFIER = 10

COMPLICATIONS = ("cancel_highest", "narrate")
RESULT_DICE = ("one_for_one", "every_three")

# What one side of a roll throws: the die code and whatever changes the pool.
POOL_FIELDS = {
    "dice": Int(1, MAX_DICE),
    "pips": Int(-MAX_PIPS, MAX_PIPS, default=0),
    "modifier_dice": Int(-MAX_MODIFIER_DICE, MAX_MODIFIER_DICE, default=0),
    "equipment_dice": Int(0, MAX_EQUIPMENT_DICE, default=0),
    "equipment_pips": Int(-MAX_PIPS, MAX_PIPS, default=0),
    "character_points": Int(0, MAX_CHARACTER_POINTS, default=0),
    "fate_point": Bool(default=False),
    "rolling_up": Bool(default=False),
    "complication": Choice(*COMPLICATIONS, default="cancel_highest"),
    "catastrophic_failure": Bool(default=False),
}

ROLL_FIELDS = {
    **POOL_FIELDS,
    "difficulty": Int(0, MAX_DIFFICULTY, default=0),
    "difficulty_modifier": Int(-MAX_DIFFICULTY_MODIFIER, MAX_DIFFICULTY_MODIFIER, default=0),
    "retry": Bool(default=False),
    "previous_true_critical_failure": Bool(default=False),
    "result_dice": Choice(*RESULT_DICE, default="one_for_one"),
}

OPPOSED_FIELDS = {
    "actor": Obj(POOL_FIELDS),
    "opponent": Obj(POOL_FIELDS),
    "result_dice": Choice(*RESULT_DICE, default="one_for_one"),
}
