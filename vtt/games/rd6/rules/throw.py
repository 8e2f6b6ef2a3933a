"""Throwing one side's Rd6 pool on the Roller, in the contract's tape order:
regular dice, the Wild Die and its explosions, the Critical Failure Check die,
then each Character Point die and the Rolling Up die with their explosions.

A die's `value` is what it adds to the total: a cancelled die, a die set
aside by Rolling Up and the Critical Failure Check die all count 0, so the
total is always the pips plus the sum of the values."""

from .arithmetic import CHECK_BRANCHES, Pool, successes


def _chain(roller, side: str, role: str) -> list[dict]:
    """One exploding die: thrown again while it shows 6."""
    chain = [roller.die(side, role)]
    while chain[-1]["face"] == 6:
        chain.append(roller.die(side, "explosion"))
    return chain


def _set_aside(dice: list[dict]) -> None:
    for d in dice:
        d["value"] = 0


def _sum(dice: list[dict]) -> int:
    return sum([d["value"] for d in dice])


def _face(die: dict) -> int:
    return die["face"]


def throw(pool: Pool, roller, side: str) -> dict:
    """Throw the pool and return the side's result fields."""
    regular = [roller.die(side, "regular") for _ in range(pool.regular)]
    wild = _chain(roller, side, "wild")
    check = None
    if wild[0]["face"] == 1:
        check_die = roller.die(side, "crit_check")
        check_die["value"] = 0
        check = CHECK_BRANCHES[check_die["face"]]
    extras = [_chain(roller, side, "cp_wild") for _ in range(pool.character_points)]
    rollup = _chain(roller, side, "rollup_wild") if pool.rollup else []

    cancelled = check == "complication" and pool.complication == "cancel_highest"
    if cancelled:
        # The Wild Die and the highest regular die leave the total; extra wild
        # dice are never cancelled (their 1 does the roll no harm).
        _set_aside(wild)
        if regular:
            _set_aside([max(regular, key=_face)])
    if pool.keep_higher:
        # 1D rolled up: only the higher of the Wild Die and the added die
        # counts; the Wild Die wins a tie unless a complication cancelled it.
        if cancelled or _sum(rollup) > _sum(wild):
            _set_aside(wild)
        else:
            _set_aside(rollup)

    total = pool.pips + _sum(regular) + _sum(wild) + _sum(rollup)
    for chain in extras:
        total += _sum(chain)
    return {
        "pool": pool.size,
        "pips": pool.pips,
        "total": total,
        "successes": successes(total),
        "critical_failure_check": check,
        "catastrophic": pool.catastrophic_failure
        and check == "true_critical_failure"
        and all(d["face"] == 1 for d in regular),
    }
