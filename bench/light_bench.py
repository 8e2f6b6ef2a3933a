"""Light and darkness on a big imported-size map: how long the server's
vision takes for one move on a dark scene of about 2,000 wall segments with
30 lights and 6 viewers (vtt.rules.sight, as vtt.fog.vision uses it).

    .venv/bin/python bench/light_bench.py                 # 12 x 12 rooms, 30 lights
    .venv/bin/python bench/light_bench.py --rooms 10 --lights 50 --runs 50

The map is bench/vision_bench.py's dungeon of rooms, corridors and doors;
each light stands in a room (a third cast no shadows, as imports may say),
the six viewers stand in three rooms, one carries a torch, and --tokens
tokens are spread over the map. Each figure is the median of --runs runs,
each from a place nothing is cached for:

- decide: which tokens a viewer that moved now sees (what the move's
  transaction works out: the seen rows, every frame's filter);
- draw: the party's view after the move (what is drawn after the commit);
- torch: a torch-bearer's move, which relights the scene: which tokens each
  of the six viewers sees under the new light (the move's transaction);
- and, to compare, the drawing of the same move with the map lit.

Deciding costs one line test per token within a light's reach or the
viewer's (each light's answers are kept, so only what moved is asked again):
it grows with the tokens and the wall segments near the lines, not with the
lights that did not move. Drawing casts the viewer's visibility polygon
(grows with the wall segments in view) and clips it to the lit area (grows
with the lights' polygons' vertices)."""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from vision_bench import dungeon, square_in  # noqa: E402

from vtt.rules import sight  # noqa: E402


def median_ms(samples) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rooms", type=int, default=12, help="rooms along each side (12: about 2,000 walls)"
    )
    parser.add_argument("--lights", type=int, default=30)
    parser.add_argument("--eyes", type=int, default=6)
    parser.add_argument("--tokens", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    barriers, width, height, rooms = dungeon(args.rooms, args.rooms, rng)
    segments = sight.sight_segments(barriers)
    lights = [
        sight.Light(*square_in(rng.choice(rooms), rng), rng.choice([4, 6, 8]), rng.random() > 1 / 3)
        for _ in range(args.lights - 1)
    ]
    party_rooms = rng.sample(rooms, 3)
    eyes = [
        sight.Eye(*square_in(party_rooms[k % 3], rng), rng.choice([0, 0, 6]))
        for k in range(args.eyes)
    ]
    points = [square_in(rng.choice(rooms), rng) for _ in range(args.tokens)]
    walls = sight.Sight(segments, width, height, True)

    def torch_at(eye):
        return sight.Light(eye.x, eye.y, 8)

    scene = walls.relit(False, [*lights, torch_at(eyes[0])])
    scene.view(eyes)  # the party as it stood
    walls.view(eyes)  # and lit
    decide, draw, torch, draw_lit = [], [], [], []
    for run in range(args.runs):
        k = 1 + rng.randrange(len(eyes) - 1)  # a viewer without the torch
        x, y = square_in(rng.choice(party_rooms), rng)
        eyes[k] = sight.Eye(x + (run + 1) * 1e-6, y, eyes[k].sight)
        start = time.perf_counter()
        scene.seen([eyes[k]], points)
        decide.append(time.perf_counter() - start)
        start = time.perf_counter()
        scene.view(eyes)
        draw.append(time.perf_counter() - start)
        # The same move on the map lit, from a place of its own (nothing cached).
        lit_eyes = list(eyes)
        lit_eyes[k] = sight.Eye(eyes[k].x + 1e-7, eyes[k].y, eyes[k].sight)
        start = time.perf_counter()
        walls.view(lit_eyes)
        draw_lit.append(time.perf_counter() - start)
        # The torch-bearer steps: the scene is relit (walls kept).
        x, y = square_in(rng.choice(party_rooms), rng)
        eyes[0] = sight.Eye(x + (run + 1) * 1e-6, y, eyes[0].sight)
        start = time.perf_counter()
        scene = walls.relit(False, [*lights, torch_at(eyes[0])])
        scene.seen_by_each(eyes, points)
        torch.append(time.perf_counter() - start)
    print(
        f"dungeon {width}x{height} squares, {len(segments)} wall segments blocking sight;"
        f" {args.lights} lights, {args.eyes} viewers, {args.tokens} tokens;"
        f" median of {args.runs} runs"
    )
    print()
    print("| one move on a dark scene | median |")
    print("|---|---:|")
    print(f"| decide: what a viewer that moved sees | {median_ms(decide):.2f} ms |")
    print(f"| draw: the party's view after it | {median_ms(draw):.2f} ms |")
    print(f"| torch: a torch-bearer moved, what each viewer sees | {median_ms(torch):.2f} ms |")
    print(f"| (draw on the same map lit) | {median_ms(draw_lit):.2f} ms |")


if __name__ == "__main__":
    main()
