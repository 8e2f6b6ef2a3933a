"""What a drawing may hold, checked the same for a stroke's preview and a
finished drawing, whichever door it came through: a known shape and layer,
a colour as #rrggbb, a width of 1 to 8, points on the map (floats allowed,
kept to a thousandth of a square) in the number its shape takes, and words
for a text alone. Each refusal names its field; nothing is stored."""

import math
import re
from dataclasses import dataclass

from vtt.core import shapes
from vtt.core.errors import ServiceError

SHAPES = ("pen", "line", "arrow", "rect", "ellipse", "text")
LAYERS = ("shared", "gm")
MAX_POINTS = 2000  # a freehand stroke's; the client thins a longer one
MAX_TEXT = 200
MIN_WIDTH, MAX_WIDTH = 1, 8
MAX_STROKE_KEY = 40
MAX_SHIFT = 10_000  # squares a move may ask for; the map decides what lands on it
PLACES = 3  # a thousandth of a square: finer than any screen shows it
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
PLAIN = {int, float}  # a coordinate's types (bool is neither, as JSON's true is no number)

# How many points each shape takes: (fewest, most).
POINTS = {
    "pen": (2, MAX_POINTS),
    "line": (2, 2),
    "arrow": (2, 2),
    "rect": (2, 2),  # two opposite corners
    "ellipse": (2, 2),  # the corners of the box it fills
    "text": (1, 1),  # its top left
}


@dataclass(frozen=True)
class Clean:
    shape: str
    layer: str
    color: str
    width: int
    points: list
    text: str


def clean(
    *,
    shape,
    layer,
    color,
    width,
    points,
    text,
    map_width: int,
    map_height: int,
    preview=False,
    start: int = 0,
) -> Clean:
    """The drawing asked for, checked against the map it goes on, or a
    ServiceError naming the field. A `preview` (a stroke being drawn) may
    have fewer points than its shape takes, and keeps them as they came:
    it is relayed, never stored. `start`: a preview's first point's index
    in its stroke (it carries the points since the last preview)."""
    shape = shapes.choice(shape, "shape", SHAPES)
    layer = shapes.choice(layer, "layer", LAYERS)
    if not isinstance(color, str) or not COLOUR.fullmatch(color):
        raise shapes.invalid("color", "must be a colour as #rrggbb")
    width = shapes.whole(width, "width", MIN_WIDTH, MAX_WIDTH)
    clean_points = on_the_map(points, shape, map_width, map_height, preview, start)
    if shape == "text":
        text = shapes.text(text, "text", MAX_TEXT)
    elif text not in (None, ""):
        raise shapes.invalid("text", "only a text drawing has words")
    return Clean(shape, layer, color.lower(), width, clean_points, text or "")


def on_the_map(
    points, shape: str, map_width: int, map_height: int, preview=False, start: int = 0
) -> list:
    """The points, each [x, y] on the map, as many as the shape takes
    (counting the `start` points before them)."""
    fewest, most = POINTS[shape]
    if not isinstance(points, list):
        raise shapes.invalid("points", "must be a list of [x, y] points")
    if start + len(points) > most:
        raise ServiceError(
            "too_many",
            f"points: a {shape} has at most {most} points, not {start + len(points)}",
            "points",
        )
    if len(points) < (1 if preview else fewest):
        taken = f"{fewest} point" if fewest == 1 else f"at least {fewest} points"
        raise shapes.invalid("points", f"a {shape} takes {taken}")
    if _all_on(points, map_width, map_height):
        if preview:
            return points
        return [[round(x, PLACES), round(y, PLACES)] for x, y in points]
    # Something is wrong: find the first point that is, to name it.
    out = []
    for i, point in enumerate(points):
        if not isinstance(point, list | tuple) or len(point) != 2:
            raise shapes.invalid(f"points[{i}]", "must be [x, y]")
        x, y = point
        for value in (x, y):
            if type(value) not in (int, float) or not math.isfinite(value):
                raise shapes.invalid(f"points[{i}]", "must be two numbers")
        if not (0 <= x <= map_width and 0 <= y <= map_height):
            raise ServiceError(
                "out_of_bounds",
                f"points[{i}]: ({x}, {y}) is off the map (0 to {map_width}, 0 to {map_height})",
                f"points[{i}]",
            )
        out.append([round(x, PLACES), round(y, PLACES)])
    return out


def _all_on(points: list, map_width: int, map_height: int) -> bool:
    """Whether every point is two plain numbers on the map: the common
    case, checked a list at a time (strokes come twenty a second)."""
    # map and set run in C: a generator per point would cost more than the rest.
    if set(map(type, points)) != {list} or set(map(len, points)) != {2}:
        return False
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if not set(map(type, xs)) | set(map(type, ys)) <= PLAIN:
        return False
    # NaN and the infinities fail these comparisons or the bounds.
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    return (
        math.isfinite(sum(xs) + sum(ys))
        and 0 <= low_x <= high_x <= map_width
        and 0 <= low_y <= high_y <= map_height
    )


def moved(points: list, dx, dy, map_width: int, map_height: int) -> list:
    """A drawing's points moved by (dx, dy), every one still on the map."""
    for name, value in (("dx", dx), ("dy", dy)):
        shapes.number(value, name, -MAX_SHIFT, MAX_SHIFT)
    xs, ys = [p[0] + dx for p in points], [p[1] + dy for p in points]
    if min(xs) < 0 or max(xs) > map_width or min(ys) < 0 or max(ys) > map_height:
        raise ServiceError(
            "out_of_bounds",
            f"the drawing would leave the map (0 to {map_width}, 0 to {map_height})",
            "dx",
        )
    return [[round(x, PLACES), round(y, PLACES)] for x, y in zip(xs, ys, strict=True)]


def stroke_key(value) -> str:
    """A client's name for a stroke it draws (its preview's key)."""
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or len(value) > MAX_STROKE_KEY:
        raise shapes.invalid("stroke", f"must be text of at most {MAX_STROKE_KEY} characters")
    if any(ord(c) < 32 for c in value):
        raise shapes.invalid("stroke", "must not contain control characters")
    return value
