"""Adjudications per second on one core, and `manage.py adjudicate` wall time.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/rules_bench.py            # markdown table on stdout

Each figure is the median of several runs. Three dice sources: the secure
source (os.urandom), the session source a room's rolls use (a new
SessionDice per adjudication, as each roll has its own number and nonce:
docs/dice.md) and a dice tape. The reference is the same Artifice Test (4D
vs 3D, one Wild Die per pool) built on the `d20` dice library."""

import itertools
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vtt.rules import adjudicate  # noqa: E402
from vtt.rules.session_dice import SessionDice, new_nonce, new_seed  # noqa: E402

RUNS = 7
SECONDS_PER_RUN = 0.6

CASES = {
    "Artifice 4D vs 3D Test": {
        "system": "artifice",
        "action": "test",
        "actor": {"pool": 4, "modifier": 0},
        "opponent": {"pool": 3, "modifier": 0},
    },
    "Artifice attack chain": {
        "system": "artifice",
        "action": "attack",
        "attacker": {"finesse": 4, "might": 2, "lethality": 2, "modifier": 0},
        "defender": {"agility": 2, "toughness": 3, "condition": "Healthy"},
    },
    "Rd6 5D+2 roll": {"system": "rd6", "action": "roll", "dice": 5, "pips": 2, "difficulty": 2},
    "Apocalyptia attack": {
        "system": "apocalyptia",
        "action": "attack",
        "atk_bonus": 6,
        "def_bonus": 5,
        "weapon_dmg": 3,
    },
}


def per_second(fn) -> float:
    """Median calls per second of fn over RUNS runs of about SECONDS_PER_RUN."""
    rates = []
    batch = 1000
    for _ in range(RUNS):
        calls, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < SECONDS_PER_RUN:
            for _ in range(batch):
                fn()
            calls += batch
        rates.append(calls / elapsed)
    return statistics.median(rates)


def with_tape(request: dict) -> dict:
    """The same request pinned to the faces of one real roll."""
    faces = [d["face"] for d in adjudicate(request)["dice"]]
    return {**request, "faces": faces}


def session_rolls(request: dict):
    """Adjudications as a room makes them: each its own roll of one session."""
    seed, nonce, numbers = new_seed(), new_nonce(), itertools.count(1)
    return lambda: adjudicate(request, SessionDice(seed, 1, next(numbers), nonce))


def d20_artifice_test():
    import d20

    def pool(n):
        regular = d20.roll(f"{n - 1}d6").expr.roll.values if n > 1 else []
        faces = [d.number for d in regular]
        wild = d20.roll("1d6").total
        successes = sum(f >= 4 for f in faces) + (wild >= 4) + (wild == 6)
        return successes, wild == 1

    def test():
        actor, actor_crit_fail = pool(4)
        opponent, opponent_crit_fail = pool(3)
        actor += opponent_crit_fail
        opponent += actor_crit_fail
        return "actor" if actor >= opponent else "opponent"

    return test


def cli_wall_ms() -> float:
    body = b'{"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}'
    times = []
    for _ in range(RUNS * 2):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "adjudicate"],
            input=body,
            capture_output=True,
            check=True,
        )
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rows = []
    for name, request in CASES.items():
        tape = with_tape(request)
        secure = per_second(lambda r=request: adjudicate(r))
        session = per_second(session_rolls(request))
        taped = per_second(lambda r=tape: adjudicate(r))
        rows.append((name, secure, session, taped))
    reference = per_second(d20_artifice_test())
    wall = cli_wall_ms()

    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, pinned to one; median of {RUNS} runs\n"
    )
    print("| case | secure source /s | session source /s | dice tape /s |")
    print("|---|---:|---:|---:|")
    for name, secure, session, taped in rows:
        print(f"| {name} | {secure:,.0f} | {session:,.0f} | {taped:,.0f} |")
    print(f"| Artifice 4D vs 3D Test on d20 (reference) | {reference:,.0f} | - | - |")
    print(f"\nArtifice Test vs the d20 reference: {rows[0][1] / reference:.1f}x")
    print(f"Artifice Test with the session source: {rows[0][2]:,.0f}/s (target: 100,000/s)")
    print(f"`manage.py adjudicate` wall time, interpreter start included: {wall:.0f} ms (median)")


if __name__ == "__main__":
    main()
