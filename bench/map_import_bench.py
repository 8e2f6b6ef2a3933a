"""Universal VTT import on a generated map: how long the server takes to
make a file of 2,000 wall segments, 20 doors and 30 lights a scene
(vtt/maps/importing.py), on PostgreSQL.

    .venv/bin/python bench/map_import_bench.py                    # 7 runs
    .venv/bin/python bench/map_import_bench.py --runs 5 --pixels-per-square 70

The map is --side squares a side (50), a grid of rooms whose walls are
drawn as map editors export them: every wall cut into half-square
segments, plus wavy cave walls until the file holds --segments segments;
a door between neighbouring rooms, the lights spread over the rooms. Its
picture is a PNG of --pixels-per-square pixels a square (50: 2,500 px a
side), tiles with noise so it compresses as a drawn map does, not as a
flat colour. Each run imports it as a new scene; the figures are the
median of --runs runs: reading and judging the file, joining and
simplifying its walls, re-encoding its picture (vtt/pictures), and the
whole import (those, storing the picture, the scene, its lights and its
event, in one transaction). Uses the database DATABASE_URL names, or
--database-url (created and migrated if need be)."""

import argparse
import base64
import io
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live_servers import prepare_database  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vtt_bench"
ROOM = 10  # squares per room cell


def picture(side: int, per_square: int, rng: random.Random) -> bytes:
    from PIL import Image

    size = side * per_square
    noise = Image.effect_noise((size, size), 24).convert("RGB")
    floor = Image.new("RGB", (size, size), (118, 112, 100))
    image = Image.blend(floor, noise, 0.25)
    for x in range(0, size, per_square):  # the tiles' joints
        image.paste((70, 66, 58), (x, 0, x + 2, size))
        image.paste((70, 66, 58), (0, x, size, x + 2))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def point(x, y) -> dict:
    return {"x": round(x, 4), "y": round(y, 4)}


def polyline(corners, step=0.5) -> list:
    """Straight walls through `corners` as an editor exports them: each
    cut into pieces of at most `step` squares."""
    points = [point(*corners[0])]
    for a, b in zip(corners, corners[1:], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        points += [
            point(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
            for k in range(1, n + 1)
        ]
    return points


def generated(side: int, segments: int, lights: int, per_square: int, seed: int) -> dict:
    rng = random.Random(seed)
    lines, portals, rooms = [], [], []
    cells = side // ROOM
    for i in range(cells):
        for j in range(cells):
            x0, y0, w, h = i * ROOM + 1, j * ROOM + 1, ROOM - 2, ROOM - 2
            rooms.append((x0, y0, w, h))
            east = x0 + w
            if i + 1 < cells:  # a door east, to the next room's corridor
                lines.append(polyline([(east, y0 + 4), (east, y0 + h), (x0, y0 + h), (x0, y0)]))
                lines.append(polyline([(x0, y0), (east, y0), (east, y0 + 3)]))
                portals.append(
                    {
                        "position": point(east, y0 + 3.5),
                        "bounds": [point(east, y0 + 3), point(east, y0 + 4)],
                        "rotation": math.pi / 2,
                        "closed": rng.random() < 0.7,
                        "freestanding": False,
                    }
                )
            else:
                lines.append(
                    polyline([(x0, y0), (east, y0), (east, y0 + h), (x0, y0 + h), (x0, y0)])
                )
    count = sum(len(line) - 1 for line in lines)
    while count < segments:  # wavy cave walls until the file holds enough
        x0, y0 = rng.uniform(2, side - 8), rng.uniform(2, side - 3)
        n = min(segments - count, 40)
        lines.append([point(x0 + k * 0.15, y0 + 0.8 * math.sin(k / 4 + x0)) for k in range(n + 1)])
        count += n
    spots = [
        {
            "position": point(x0 + rng.uniform(1, w - 1), y0 + rng.uniform(1, h - 1)),
            "range": rng.choice((3, 4, 6, 8)),
            "intensity": 1,
            "color": rng.choice(("ffffd39b", "ffff9329", "ff9bc4ff")),
            "shadows": True,
        }
        for (x0, y0, w, h) in (rng.choice(rooms) for _ in range(lights))
    ]
    return {
        "format": 0.3,
        "resolution": {
            "map_origin": point(0, 0),
            "map_size": point(side, side),
            "pixels_per_grid": per_square,
        },
        "line_of_sight": lines,
        "objects_line_of_sight": [],
        "portals": portals,
        "lights": spots,
        "environment": {"baked_lighting": False, "ambient_light": "ff404040"},
        "image": base64.b64encode(picture(side, per_square, rng)).decode(),
    }


def median_ms(times) -> str:
    return f"{statistics.median(times) * 1000:.0f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--side", type=int, default=50)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--lights", type=int, default=30)
    parser.add_argument("--pixels-per-square", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    )
    args = parser.parse_args()
    prepare_database(args.database_url)
    os.environ.update(
        DATABASE_URL=args.database_url,
        DJANGO_SETTINGS_MODULE="vtt.settings",
        MEDIA_ROOT=tempfile.mkdtemp(prefix="map-bench-"),
        LOG_LEVEL="ERROR",
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from vtt.maps import uvtt, wall_paths
    from vtt.maps.importing import DEFAULT_SIMPLIFY, limits, map_import
    from vtt.pictures import images
    from vtt.tabletop import services

    doc = generated(args.side, args.segments, args.lights, args.pixels_per_square, args.seed)
    data = json.dumps(doc).encode()
    user, _ = get_user_model().objects.get_or_create(username="map-bench-gm")
    campaign = services.campaign_create(owner=user, name="Map bench", game="rd6")
    reading, joining, picturing, whole = [], [], [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        found = uvtt.read(data, limits())
        read = time.perf_counter()
        walls = wall_paths.wall_segments(found.polylines, DEFAULT_SIMPLIFY)
        joined = time.perf_counter()
        images.reencode_background(ContentFile(found.image), as_webp=True)
        pictured = time.perf_counter()
        reading.append(read - start)
        joining.append(joined - read)
        picturing.append(pictured - joined)
        start = time.perf_counter()
        scene, plan = map_import(by=user, data=data, campaign_id=campaign.pk, name="Bench")
        whole.append(time.perf_counter() - start)
    services.campaign_delete(campaign_id=campaign.pk, by=user)
    print(
        f"map: {args.side} x {args.side} squares, {found.segments:,} wall segments, "
        f"{len(found.portals)} doors, {len(found.lights)} lights; file {len(data) / 1e6:.1f} MB, "
        f"picture {len(found.image) / 1e6:.1f} MB ({args.side * args.pixels_per_square} px a side)"
    )
    print(f"walls stored: {len(walls)} walls + {plan.doors} doors (simplify {DEFAULT_SIMPLIFY})")
    print(f"median of {args.runs} runs:")
    print(f"  read and judge the file   {median_ms(reading)}")
    print(f"  join and simplify walls   {median_ms(joining)}")
    print(f"  re-encode the picture     {median_ms(picturing)}")
    print(f"  whole import              {median_ms(whole)}  (target: under 2 s)")


if __name__ == "__main__":
    main()
