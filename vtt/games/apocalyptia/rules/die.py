"""The one Apocalyptia die: d6 + bonus, a Critical chain on 6, a Botch check
on 1. Shared by every Apocalyptia action and by the odds."""

from dataclasses import dataclass

KINDS = ("trait", "skill", "dmg", "loot", "other")
# The seed names these four as the rolls where a 6 is rolled again.
EXPLODING_KINDS = frozenset(("trait", "skill", "dmg", "loot"))
CRITICAL_FACE = 6
BOTCH_FACE = 1


@dataclass(frozen=True, slots=True)
class Throw:
    value: int  # what the die adds to the bonus
    botch: bool
    critical: bool


def explodes(kind: str) -> bool:
    return kind in EXPLODING_KINDS


def throw(roller, pool: str, role: str, exploding: bool) -> Throw:
    """Throw one die (recorded with `role`) and whatever it calls for: more
    dice while 6s come, or a botch check after a natural 1."""
    face = roller.die(pool, role)["face"]
    if face == CRITICAL_FACE and exploding:
        value = face
        # The chain ends at the first non-6; a 1 there is just 1, never a botch.
        while face == CRITICAL_FACE:
            face = roller.die(pool, "explosion")["face"]
            value += face
        return Throw(value, botch=False, critical=True)
    if face == BOTCH_FACE:
        # The check die only decides the botch; the roll still counts 1.
        check = roller.die(pool, "botch_check")["face"]
        return Throw(BOTCH_FACE, botch=check == BOTCH_FACE, critical=False)
    return Throw(face, botch=False, critical=False)


def is_automatic(bonus: int, difficulty: int, stressful: bool) -> bool:
    """Out of stress, a bonus that alone beats the difficulty needs no roll."""
    return not stressful and bonus > difficulty


def beats(total: int, target: int) -> bool:
    # Equal is a failure: only a higher result succeeds.
    return total > target
