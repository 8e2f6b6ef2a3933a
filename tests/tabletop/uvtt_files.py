"""Universal VTT map files made in the tests: a small dungeon with walls,
two doors and three lights, its picture drawn with Pillow, and ways to
spoil it for each refusal."""

import base64
import copy
import io
import json
import math
import random

from PIL import Image


def picture(width=12, height=10, pixels_per_grid=8, kind="PNG") -> bytes:
    """The map's picture: grey floor, its grid lines darker."""
    image = Image.new("RGB", (width * pixels_per_grid, height * pixels_per_grid), (120, 116, 104))
    for x in range(0, image.width, pixels_per_grid):
        image.paste((60, 58, 52), (x, 0, x + 1, image.height))
    for y in range(0, image.height, pixels_per_grid):
        image.paste((60, 58, 52), (0, y, image.width, y + 1))
    buffer = io.BytesIO()
    image.save(buffer, kind)
    return buffer.getvalue()


def point(x, y) -> dict:
    return {"x": x, "y": y}


def dungeon(*, version=0.3, origin=(0, 0), kind="PNG") -> dict:
    """A 12 x 10 map: a room 0..6 x 0..10 drawn as a loop of tiny segments,
    a second room beyond a wall at x = 6 with a door in it, a freestanding
    open door, a pillar among the objects, three lights and a dim ambient
    light. Coordinates are shifted by `origin`, as an export of part of a
    larger drawing is."""
    ox, oy = origin

    def p(x, y):
        return point(x + ox, y + oy)

    # The outer wall in quarter squares: 4 x (12 + 10) * 2 = 176 segments.
    top = [p(x / 4, 0) for x in range(0, 49)]
    right = [p(12, y / 4) for y in range(1, 41)]
    bottom = [p(12 - x / 4, 10) for x in range(1, 49)]
    left = [p(0, 10 - y / 4) for y in range(1, 41)]
    return {
        "format": version,
        "resolution": {
            "map_origin": point(ox, oy),
            "map_size": point(12, 10),
            "pixels_per_grid": 8,
        },
        "line_of_sight": [
            top + right + bottom + left,
            # The dividing wall, in two pieces either side of the door.
            [p(6, 0), p(6, 2), p(6, 4)],
            [p(6, 5), p(6, 10)],
        ],
        "objects_line_of_sight": [[p(9, 3), p(10, 3), p(10, 4), p(9, 4), p(9, 3)]],
        "portals": [
            {
                "position": p(6, 4.5),
                "bounds": [p(6, 4), p(6, 5)],
                "rotation": 1.5708,
                "closed": True,
                "freestanding": False,
            },
            {
                "position": p(3, 7.5),
                "bounds": [p(2.5, 7.5), p(3.5, 7.5)],
                "rotation": 0,
                "closed": False,
                "freestanding": True,
            },
        ],
        "lights": [
            {"position": p(2, 2), "range": 4, "intensity": 1, "color": "ffffaa55", "shadows": True},
            {
                "position": p(9, 7),
                "range": 6,
                "intensity": 0.5,
                "color": "ff3366ff",
                "shadows": False,
            },
            {
                "position": p(11, 1),
                "range": 2,
                "intensity": 2,
                "color": "80ff0000",
                "shadows": True,
            },
        ],
        "environment": {"baked_lighting": True, "ambient_light": "ff808080"},
        "image": base64.b64encode(picture(kind=kind)).decode(),
        "software": "tests",
    }


def encode(doc) -> bytes:
    return json.dumps(doc).encode()


def changed(path, value, doc=None) -> dict:
    """A copy of `doc` (the dungeon by default) with the item at `path`
    (keys and indexes) set to `value`, or removed if `value` is DELETE."""
    doc = copy.deepcopy(doc or dungeon())
    *inner, last = path
    target = doc
    for step in inner:
        target = target[step]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return doc


DELETE = object()


def painted(doc, pixels_per_grid=80, kind="PNG", seed=7) -> bytes:
    """A picture of `doc`'s map as an editor would export it, drawn from
    the file's own geometry so the two agree: flagstones over rock, thick
    stone walls along its walls, its pillars, wooden doors (an open one
    swung aside), and, when the file says its light is baked in, a glow
    and a brazier at each light."""
    from PIL import ImageChops, ImageDraw, ImageFilter

    rng = random.Random(seed)
    size = doc["resolution"]["map_size"]
    ox, oy = doc["resolution"]["map_origin"]["x"], doc["resolution"]["map_origin"]["y"]
    g = pixels_per_grid
    width, height = round(size["x"] * g), round(size["y"] * g)

    def at(p):
        return ((p["x"] - ox) * g, (p["y"] - oy) * g)

    image = Image.new("RGB", (width, height), (52, 48, 43))
    draw = ImageDraw.Draw(image)
    # Flagstones: two or three stones a square, each its own shade, with
    # dark mortar between and the odd crack.
    for row in range(int(size["y"])):
        for col in range(int(size["x"])):
            x0, y0 = col * g, row * g
            cuts = sorted(rng.sample(range(g // 4, 3 * g // 4), 1))
            if rng.random() < 0.5:  # split across or down
                boxes = [(x0, y0, x0 + cuts[0], y0 + g), (x0 + cuts[0], y0, x0 + g, y0 + g)]
            else:
                boxes = [(x0, y0, x0 + g, y0 + cuts[0]), (x0, y0 + cuts[0], x0 + g, y0 + g)]
            for a, b, c, d in boxes:
                shade = rng.randint(-14, 14)
                tone = (132 + shade, 124 + shade, 108 + shade - rng.randint(0, 6))
                draw.rounded_rectangle((a + 2, b + 2, c - 2, d - 2), radius=4, fill=tone)
                if rng.random() < 0.18:
                    px, py = rng.uniform(a + 4, c - 4), rng.uniform(b + 4, d - 4)
                    crack = [(px, py)]
                    for _ in range(3):
                        px += rng.uniform(-g / 6, g / 6)
                        py += rng.uniform(-g / 6, g / 6)
                        crack.append((min(max(px, a + 3), c - 3), min(max(py, b + 3), d - 3)))
                    draw.line(crack, fill=(84, 78, 68), width=1)
    grain = Image.effect_noise((width, height), 18).convert("RGB")
    image = ImageChops.overlay(
        image, Image.blend(Image.new("RGB", image.size, (128,) * 3), grain, 0.35)
    )
    draw = ImageDraw.Draw(image)
    # Rubble along the foot of the walls.
    walls = doc.get("line_of_sight", [])
    for line in walls:
        for p, q in zip(line, line[1:], strict=False):
            (x1, y1), (x2, y2) = at(p), at(q)
            for _ in range(max(1, int(math.dist((x1, y1), (x2, y2)) / g))):
                if rng.random() < 0.5:
                    t = rng.random()
                    cx = x1 + (x2 - x1) * t + rng.uniform(-g / 4, g / 4)
                    cy = y1 + (y2 - y1) * t + rng.uniform(-g / 4, g / 4)
                    r = rng.uniform(g / 30, g / 14)
                    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(96, 90, 80))
    # Stone walls: a dark body, a lighter top, round at every corner.
    for body, top in ((0.42, (40, 37, 34)), (0.26, (88, 82, 74))):
        w = round(body * g)
        for line in walls:
            points = [at(p) for p in line]
            draw.line(points, fill=top, width=w)
            for x, y in points:
                draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=top)
    for shape in doc.get("objects_line_of_sight", []):
        points = [at(p) for p in shape]
        draw.polygon(points, fill=(92, 86, 78), outline=(40, 37, 34), width=max(2, g // 16))
    # Doors: planks across the opening; an open one swung on its first hinge.
    for portal in doc.get("portals", []):
        (x1, y1), (x2, y2) = (at(p) for p in portal["bounds"])
        if not portal.get("closed", True):
            x2, y2 = x1 + (y2 - y1), y1 - (x2 - x1)
        length = math.dist((x1, y1), (x2, y2))
        nx, ny = (y2 - y1) / length * g * 0.1, -(x2 - x1) / length * g * 0.1
        leaf = [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
        draw.polygon(leaf, fill=(124, 80, 42), outline=(58, 36, 20), width=max(2, g // 20))
        for t in (1 / 3, 2 / 3):
            mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            draw.line([(mx + nx, my + ny), (mx - nx, my - ny)], fill=(80, 50, 26), width=2)
    if doc.get("environment", {}).get("baked_lighting"):
        glow = Image.new("RGB", image.size, (0, 0, 0))
        fade = ImageChops.invert(Image.radial_gradient("L"))
        for light in doc.get("lights", []):
            x, y = at(light["position"])
            reach = round(light["range"] * g)
            colour = tuple(int(light["color"][i : i + 2], 16) for i in (2, 4, 6))
            strength = min(1.0, float(light.get("intensity", 1))) * 0.55
            mask = fade.resize((2 * reach, 2 * reach)).point(lambda v, s=strength: int(v * s))
            glow.paste(
                Image.new("RGB", mask.size, colour), (round(x) - reach, round(y) - reach), mask
            )
            # The brazier the light comes from.
            r = g * 0.22
            draw.ellipse(
                (x - r, y - r, x + r, y + r), fill=(46, 40, 36), outline=(24, 22, 20), width=2
            )
            r = g * 0.13
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(236, 150, 60))
        image = ImageChops.screen(image, glow.filter(ImageFilter.GaussianBlur(g / 8)))
    buffer = io.BytesIO()
    image.save(buffer, kind, **({"quality": 88} if kind == "JPEG" else {}))
    return buffer.getvalue()
