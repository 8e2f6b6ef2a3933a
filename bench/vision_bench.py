"""Fog of war on a generated dungeon: how long the server takes to redraw a
party's view after one token moves, and to decide which of many tokens the
party sees (vtt.rules.sight).

    .venv/bin/python bench/vision_bench.py                 # 300 walls, 6 eyes
    .venv/bin/python bench/vision_bench.py --rooms 6 --runs 50 --seed 3

The dungeon is a grid of rooms joined by corridors, each corridor entering a
room through a door (a third of them open); walls and closed doors block
sight. Each figure is the median of --runs runs. A view run moves one eye of
the party to a square it has not stood on (so nothing is cached for it) and
asks for the union of the party's view (the others' areas are remembered);
a fresh view builds the scene's Sight and draws every eye; a `seen` run asks which of --tokens
token centres any eye sees, with a fresh Sight each time (nothing cached)."""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vtt.rules import sight  # noqa: E402

CELL = 12  # squares per room cell, corridor included


def dungeon(rooms_x: int, rooms_y: int, rng: random.Random) -> tuple[list, int, int, list]:
    """(barriers, width, height, room rectangles) of a grid of rooms with
    corridors between neighbours, every corridor ending in a door."""
    width, height = rooms_x * CELL, rooms_y * CELL
    rooms = {}
    for i in range(rooms_x):
        for j in range(rooms_y):
            w, h = rng.randint(6, 9), rng.randint(6, 9)
            x0 = i * CELL + rng.randint(1, CELL - w - 1)
            y0 = j * CELL + rng.randint(1, CELL - h - 1)
            rooms[i, j] = (x0, y0, w, h)
    doors = {key: {"n": [], "s": [], "w": [], "e": []} for key in rooms}
    barriers = []
    for (i, j), (x0, y0, w, h) in rooms.items():
        if (i + 1, j) in rooms:  # a corridor east, two squares wide
            x1, y1, w1, h1 = rooms[i + 1, j]
            lo, hi = max(y0, y1) + 1, min(y0 + h, y1 + h1) - 3
            y = rng.randint(lo, hi) if lo <= hi else max(y0, y1)
            doors[i, j]["e"].append(y)
            doors[i + 1, j]["w"].append(y)
            barriers += [
                sight.Barrier(x0 + w, y, x1, y),
                sight.Barrier(x0 + w, y + 2, x1, y + 2),
            ]
        if (i, j + 1) in rooms:  # a corridor south
            x1, y1, w1, h1 = rooms[i, j + 1]
            lo, hi = max(x0, x1) + 1, min(x0 + w, x1 + w1) - 3
            x = rng.randint(lo, hi) if lo <= hi else max(x0, x1)
            doors[i, j]["s"].append(x)
            doors[i, j + 1]["n"].append(x)
            barriers += [
                sight.Barrier(x, y0 + h, x, y1),
                sight.Barrier(x + 2, y0 + h, x + 2, y1),
            ]
    for key, (x0, y0, w, h) in rooms.items():
        sides = {
            "n": ((x0, y0), (1, 0), w),
            "s": ((x0, y0 + h), (1, 0), w),
            "w": ((x0, y0), (0, 1), h),
            "e": ((x0 + w, y0), (0, 1), h),
        }
        for side, ((sx, sy), (dx, dy), length) in sides.items():
            at = 0
            for opening in sorted(doors[key][side]):
                start = opening - (sx if dx else sy)
                if start > at:
                    barriers.append(
                        sight.Barrier(sx + dx * at, sy + dy * at, sx + dx * start, sy + dy * start)
                    )
                state = sight.OPEN if rng.random() < 1 / 3 else sight.CLOSED
                end = start + 2
                barriers.append(
                    sight.Barrier(
                        sx + dx * start,
                        sy + dy * start,
                        sx + dx * end,
                        sy + dy * end,
                        kind=sight.DOOR,
                        state=state,
                    )
                )
                at = end
            if at < length:
                barriers.append(
                    sight.Barrier(sx + dx * at, sy + dy * at, sx + dx * length, sy + dy * length)
                )
    return barriers, width, height, list(rooms.values())


def square_in(room, rng) -> tuple[float, float]:
    x0, y0, w, h = room
    return x0 + rng.randrange(w) + 0.5, y0 + rng.randrange(h) + 0.5


def median_ms(samples) -> float:
    return statistics.median(samples) * 1000


def time_view(scene: sight.Sight, eyes: list, rooms: list, runs: int, rng) -> float:
    scene.view(eyes)  # the party as it stood: every eye's area known
    samples = []
    for run in range(runs):
        k = rng.randrange(len(eyes))
        x, y = square_in(rooms[rng.randrange(len(rooms))], rng)
        x += (run + 1) * 1e-6  # a place nothing is cached for
        eyes[k] = sight.Eye(x, y, eyes[k].sight)
        start = time.perf_counter()
        scene.view(eyes)
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def time_fresh_view(make, eyes, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        make().view(eyes)
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def time_seen(make, eyes, points, runs: int) -> float:
    samples = []
    for _ in range(runs):
        scene = make()
        start = time.perf_counter()
        scene.seen(eyes, points)
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=5, help="rooms along each side (5: 300 walls)")
    parser.add_argument("--eyes", type=int, default=6)
    parser.add_argument("--tokens", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    barriers, width, height, rooms = dungeon(args.rooms, args.rooms, rng)
    segments = sight.sight_segments(barriers)
    party_rooms = rng.sample(rooms, min(3, len(rooms)))
    eyes = [
        sight.Eye(*square_in(party_rooms[k % len(party_rooms)], rng), sight=rng.choice([2, 12]))
        for k in range(args.eyes)
    ]
    lights = [sight.Light(e.x, e.y, 8) for e in eyes[:2]]  # two torches
    points = [square_in(rng.choice(rooms), rng) for _ in range(args.tokens)]
    print(
        f"dungeon {width}x{height} squares, {len(barriers)} barriers, {len(segments)} blocking sight;"
        f" {args.eyes} eyes, {args.tokens} tokens; median of {args.runs} runs"
    )
    print()
    print("| measure | lit | dark |")
    print("|---|---:|---:|")
    start = time.perf_counter()
    for _ in range(args.runs):
        sight.Sight(segments, width, height, True)
    build = (time.perf_counter() - start) / args.runs * 1000
    lit = sight.Sight(segments, width, height, True)
    dark = sight.Sight(segments, width, height, False, lights)
    view_lit = time_view(lit, list(eyes), rooms, args.runs, random.Random(args.seed))
    view_dark = time_view(dark, list(eyes), rooms, args.runs, random.Random(args.seed))
    fresh_lit = time_fresh_view(lambda: sight.Sight(segments, width, height, True), eyes, args.runs)
    fresh_dark = time_fresh_view(
        lambda: sight.Sight(segments, width, height, False, lights), eyes, args.runs
    )
    seen_lit = time_seen(
        lambda: sight.Sight(segments, width, height, True), eyes, points, args.runs
    )
    seen_dark = time_seen(
        lambda: sight.Sight(segments, width, height, False, lights), eyes, points, args.runs
    )
    seen_warm = time_seen(lambda: lit, eyes, points, args.runs)
    print(f"| build a scene's Sight (mean) | {build:.2f} ms | - |")
    print(f"| view after one eye moves | {view_lit:.2f} ms | {view_dark:.2f} ms |")
    print(f"| build, then the whole party's view | {fresh_lit:.2f} ms | {fresh_dark:.2f} ms |")
    print(f"| seen, {args.tokens} tokens, fresh Sight | {seen_lit:.2f} ms | {seen_dark:.2f} ms |")
    print(f"| seen, {args.tokens} tokens, eyes' walls filed | {seen_warm:.2f} ms | - |")
    count = sum(dark.seen(eyes, points))
    print()
    print(f"(the dark party sees {count} of the {args.tokens} tokens)")


if __name__ == "__main__":
    main()
