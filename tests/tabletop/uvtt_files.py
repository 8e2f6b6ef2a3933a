"""Universal VTT map files made in the tests: a small dungeon with walls,
two doors and three lights, its picture drawn with Pillow, and ways to
spoil it for each refusal."""

import base64
import copy
import io
import json

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
