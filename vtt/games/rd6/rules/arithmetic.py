"""Rd6 arithmetic shared by the roll and its odds: what a request puts on the
table, what a total is worth, and how a success is graded."""

from dataclasses import dataclass

from vtt.rules.errors import RulesError

TARGET = 6  # every full 6 of the total is one success
RESULT_LEVELS = ("Solid", "Good", "Superior", "Spectacular", "Incredible")

# The Critical Failure Check die, thrown when the Wild Die's first throw is 1.
CHECK_BRANCHES = {
    1: "true_critical_failure",
    2: "complication",
    3: "complication",
    4: "complication",
    5: "complication",
    6: "normal",
}
CHECK_ODDS = {
    "true_critical_failure": 1 / 36,
    "complication": 4 / 36,
    "normal": 1 / 36,
}


@dataclass(frozen=True)
class Pool:
    """The dice one side throws.

    size:    dice in the pool after doubling and modifiers, never below 1.
    regular: plain dice summed as they fall.
    rollup:  Rolling Up: a second wild die that behaves as a Character Point die.
    keep_higher: 1D rolled up; the added die and the Wild Die are compared
             and only the higher total counts.
    character_points: extra wild dice, each exploding, a 1 just counting 1.
    """

    size: int
    regular: int
    rollup: bool
    keep_higher: bool
    character_points: int
    pips: int
    complication: str
    catastrophic_failure: bool

    @property
    def extra_wild(self) -> int:
        """Exploding dice besides the Wild Die."""
        return self.character_points + int(self.rollup)


def shape_pool(fields: dict, path: str = "") -> Pool:
    """The dice a side's fields put on the table. A Fate Point doubles the
    character's own dice and pips before equipment and modifiers, and the
    pool keeps a single Wild Die."""
    if fields["fate_point"] and fields["character_points"]:
        raise RulesError(
            "cp_and_fp",
            "Character Points and a Fate Point cannot be spent on the same roll",
            f"{path}character_points",
        )
    factor = 2 if fields["fate_point"] else 1
    size = max(1, fields["dice"] * factor + fields["equipment_dice"] + fields["modifier_dice"])
    pips = fields["pips"] * factor + fields["equipment_pips"]
    rollup = fields["rolling_up"]
    wild_in_pool = 2 if rollup and size >= 2 else 1
    return Pool(
        size=size,
        regular=size - wild_in_pool,
        rollup=rollup,
        keep_higher=rollup and size == 1,
        character_points=fields["character_points"],
        pips=pips,
        complication=fields["complication"],
        catastrophic_failure=fields["catastrophic_failure"],
    )


def successes(total: int) -> int:
    """Full sixes in the total; a total below zero has none."""
    return max(0, total) // TARGET


def needed(fields: dict) -> int:
    """Successes needed: base difficulty, its modifier, +1 on a Second Chance."""
    return max(0, fields["difficulty"] + fields["difficulty_modifier"] + int(fields["retry"]))


def result_level(points: int) -> str:
    return RESULT_LEVELS[min(points, len(RESULT_LEVELS) - 1)]


def result_dice(points: int, conversion: str) -> tuple[int, int]:
    """(dice, pips) the result points buy: one die a point, or with
    `every_three` one die per 3 points and the rest as pips (4 -> 1D+1)."""
    if conversion == "every_three":
        return points // 3, points % 3
    return points, 0


def refuse_after_true_critical_failure(fields: dict) -> None:
    if fields["previous_true_critical_failure"]:
        raise RulesError(
            "retry_after_true_critical_failure",
            "a task whose earlier attempt was a True Critical Failure cannot be tried again",
            "previous_true_critical_failure",
        )
