"""Exact odds: time per computation on one core, against icepool.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/odds_bench.py            # markdown table on stdout

Our figures are cold: every lru_cache in vtt.rules is cleared before each
timed call, so no computation is served from a previous one. Each icepool
computation builds the same distribution from fresh dice, and the script checks
that both agree to 1e-9 before it reports a time."""

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import icepool  # noqa: E402

from vtt.rules import odds  # noqa: E402

REPEATS = 15


def clear_rules_caches():
    for name, module in list(sys.modules.items()):
        if name.startswith("vtt.rules"):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def median_ms(fn, cold=True) -> float:
    times = []
    for _ in range(REPEATS):
        if cold:
            clear_rules_caches()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def as_probs(die) -> dict:
    total = die.denominator()
    return {int(k): v / total for k, v in die.items()}


def agree(ours: dict, theirs: dict, what: str):
    keys = set(ours) | set(theirs)
    worst = max(abs(ours.get(k, 0.0) - theirs.get(k, 0.0)) for k in keys)
    if worst > 1e-9:
        raise SystemExit(f"{what}: our distribution and icepool's differ by {worst}")


# --- Artifice -----------------------------------------------------------------
# One side's contribution to a Test margin: regular successes, plus the Wild
# Die's success and its natural 6 bonus, less one for its natural 1 (which
# gives the other side a success).
def icepool_side(n: int):
    # Built afresh each call, so icepool, like ours, starts cold.
    die = icepool.Die(range(1, 7))
    success = die.map(lambda f: int(f >= 4))
    wild = die.map(lambda f: int(f >= 4) + int(f == 6) - int(f == 1))
    return (n - 1) @ success + wild if n > 1 else wild


def icepool_test_margin(a: int, o: int):
    return icepool_side(a) - icepool_side(o)


def artifice_test(a: int, o: int) -> dict:
    return {
        "system": "artifice",
        "action": "test",
        "actor": {"pool": a, "modifier": 0},
        "opponent": {"pool": o, "modifier": 0},
    }


def icepool_condition_steps(finesse, agility, wound, toughness):
    """Steps lost: a miss (margin < 0) loses none; a hit rolls the Wound Test
    with the cascade added, the defender winning ties."""

    def after_combat(margin):
        if margin < 0:
            return 0
        return icepool_test_margin(wound + margin, toughness).map(lambda w: max(w, 0))

    return icepool_test_margin(finesse, agility).map(after_combat)


ATTACK = {
    "system": "artifice",
    "action": "attack",
    "attacker": {"finesse": 8, "might": 5, "lethality": 3, "modifier": 0},
    "defender": {"agility": 8, "toughness": 8, "condition": "Healthy"},
}

# --- Rd6 ----------------------------------------------------------------------
RD6 = {"system": "rd6", "action": "roll", "dice": 12, "pips": 2, "difficulty": 4}


def icepool_rd6_success(dice=12, pips=2, difficulty=4):
    """P(success) of an Rd6 roll with the Wild Die, its explosions and the
    Critical Failure Check (complications cancel the highest regular die)."""
    die = icepool.Die(range(1, 7))
    regular = die.pool(dice - 1)
    every = regular.sum()
    cancelled = regular.lowest(dice - 2).sum()
    exploding = die.explode(depth=20)

    def success(total):
        return int((total + pips) // 6 >= difficulty)

    def branch(wild, check):
        if wild == 6:
            return (every + 6 + exploding).map(success)
        if wild != 1:
            return (every + wild).map(success)
        if check == 1:  # True Critical Failure
            return 0
        if check == 6:  # resolve as normal: the Wild Die counts its 1
            return (every + 1).map(success)
        return cancelled.map(success)  # complication: drop Wild Die and highest

    return icepool.map(branch, die, die)


# --- Apocalyptia ------------------------------------------------------------------
APOCALYPTIA = {
    "system": "apocalyptia",
    "action": "attack",
    "atk_bonus": 6,
    "def_bonus": 5,
    "weapon_dmg": 3,
}


def icepool_apocalyptia_damage(atk=6, dfn=5, weapon=3):
    # A 1 stays 1 whether or not the botch check comes up 1; 6s chain on.
    roll = icepool.Die(range(1, 7)).explode(depth=16)
    margin = (roll + atk) - (roll + dfn)
    return margin.map(lambda m: m + weapon if m > 0 else 0)


def main():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rows = []

    ours = odds(artifice_test(12, 12))["margin"]
    agree({int(k): v for k, v in ours.items()}, as_probs(icepool_test_margin(12, 12)), "12D vs 12D")
    rows.append(
        (
            "Artifice 12D vs 12D Test, margin distribution",
            median_ms(lambda: odds(artifice_test(12, 12))),
            median_ms(lambda: icepool_test_margin(12, 12).items(), cold=False),
        )
    )

    steps = odds(ATTACK)["condition_steps"]
    theirs = as_probs(icepool_condition_steps(8, 8, 8, 8))
    agree({int(k): v for k, v in steps.items()}, theirs, "attack chain")
    rows.append(
        (
            "Artifice attack chain, 8D pools, condition steps",
            median_ms(lambda: odds(ATTACK)),
            median_ms(lambda: icepool_condition_steps(8, 8, 8, 8).items(), cold=False),
        )
    )

    ours_rd6 = odds(RD6)["outcomes"]["success"]
    theirs_rd6 = icepool_rd6_success().probability(1)
    if abs(ours_rd6 - theirs_rd6) > 1e-9:
        raise SystemExit(f"Rd6: {ours_rd6} vs icepool {theirs_rd6}")
    rows.append(
        (
            "Rd6 12D+2 with Critical Failure Check",
            median_ms(lambda: odds(RD6)),
            median_ms(lambda: icepool_rd6_success().items(), cold=False),
        )
    )

    ours_dmg = odds(APOCALYPTIA).get("damage", {})
    if ours_dmg:
        agree(
            {int(k): v for k, v in ours_dmg.items()},
            as_probs(icepool_apocalyptia_damage()),
            "Apocalyptia damage",
        )
    rows.append(
        (
            "Apocalyptia attack, damage distribution",
            median_ms(lambda: odds(APOCALYPTIA)),
            median_ms(lambda: icepool_apocalyptia_damage().items(), cold=False),
        )
    )

    def our_table():
        for a in range(1, 13):
            for o in range(1, 13):
                odds(artifice_test(a, o))

    def icepool_table():
        for a in range(1, 13):
            for o in range(1, 13):
                icepool_test_margin(a, o).items()

    rows.append(
        (
            "Artifice 1..12D x 1..12D Test table (144 odds)",
            median_ms(our_table),
            median_ms(icepool_table, cold=False),
        )
    )

    print(
        f"Python {sys.version.split()[0]}, icepool {icepool.__version__}, pinned to one core; "
        f"median of {REPEATS} runs; ours cold (caches cleared before each run)\n"
    )
    print("| computation | ours (ms) | icepool (ms) | speed-up |")
    print("|---|---:|---:|---:|")
    for name, mine, theirs in rows:
        print(f"| {name} | {mine:.3f} | {theirs:.3f} | {theirs / mine:.0f}x |")


if __name__ == "__main__":
    main()
