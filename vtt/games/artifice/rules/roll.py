"""Throwing one Artifice dice pool: regular dice, then the Wild Die, then the
pip modifier on the die the rules pick.

This runs for every roll, so it records each die itself, exactly as
Roller.die would (same keys, same order on the roller's tape), without a
call per die."""


def roll_pool(roller, pool: str, dice: int, modifier: int) -> tuple[int, int]:
    """Throw `dice` dice (at least 1; the last is the Wild Die) and apply the pip
    modifier. Returns (successes, the Wild Die's natural face); successes
    include the +1 of a natural 6 on the Wild Die."""
    roll = roller.source.roll
    tape = roller.dice
    first = len(tape)
    hits = 0
    for _ in range(dice - 1):
        face = roll()
        success = face >= 4
        hits += success
        tape.append(
            {"pool": pool, "role": "regular", "face": face, "value": face, "success": success}
        )
    wild = roll()
    success = wild >= 4
    hits += success
    tape.append({"pool": pool, "role": "wild", "face": wild, "value": wild, "success": success})
    if modifier:
        target = None
        if modifier > 0:
            # The highest failing die; the first in tape order on a tie, so a
            # regular die before the Wild Die.
            top = 0
            for d in tape[first:]:
                face = d["face"]
                if top < face < 4:
                    top, target = face, d
        else:
            low = 7
            for d in tape[first:]:
                face = d["face"]
                if 4 <= face < low:
                    low, target = face, d
        if target is not None:
            value = target["face"] + modifier
            success = value >= 4
            if success is not target["success"]:
                hits += 1 if success else -1
            target["value"] = value
            target["success"] = success
    return (hits + 1 if wild == 6 else hits), wild
