"""The small rules of Fantasy Ground Rules shared by rolling and odds."""

SUCCESS_FACES = (3, 4, 5, 6)
LUCK_SUCCESS_FACE = 6
CRITICAL_FAILURE_FACE = 1


def is_success(face: int) -> bool:
    return face in SUCCESS_FACES


def is_luck_success(face: int) -> bool:
    return face == LUCK_SUCCESS_FACE


def is_critical_failure(face: int) -> bool:
    """Only a Luck Roll's die can fail critically."""
    return face == CRITICAL_FAILURE_FACE


def pool_size(skill: int, modifier_dice: int) -> int:
    """Dice thrown for a Skill roll; 0 or less calls for a Luck Roll."""
    return skill + modifier_dice


def roll_succeeds(successes: int, difficulty: int, critical_failure: bool) -> bool:
    # A critical failure is a failure however many Action Points were added:
    # the points add successes, they do not take back the 1 on the die.
    return successes >= difficulty and not critical_failure


def reduced_damage(damage: int, action_points: int) -> int:
    return max(0, damage - action_points)


def damage_outcome(damage: int) -> str:
    return "damaged" if damage else "unharmed"
