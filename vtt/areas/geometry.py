"""Which squares an area template covers, and which tokens it holds: pure
code, no Django. static/js/map/template_shapes.js is its twin, line for
line, so what the placer sees highlighted is what the server attacks.

A template stands on a grid intersection (x, y): the corner of square
(x, y). A circle (a burst) is centred there with a radius of `size`
squares; a square has its top-left corner there and `size` squares a
side; a cone and a line start there and point `angle` degrees clockwise
from east (the map's y runs down). A cone is as wide at its end as it is
long (its half-angle is atan 1/2); a line is one square wide. A square of
the map is covered when its centre is inside, with a hair's tolerance so
both twins agree on a centre lying on the edge. A token is held when any
square of its footprint is covered."""

import math

SHAPES = ("circle", "cone", "line", "square")
TURNING = ("cone", "line")  # the shapes an angle turns
FEET_PER_SQUARE = 5
MIN_SIZE = 1
MAX_SIZE = 100  # squares: 500 ft, past any map's width that a burst is thrown across
# cos of the cone's half-angle, atan(1/2): 2 / sqrt(5).
CONE_COS = 2 / math.sqrt(5)
EDGE = 1e-9


def feet(size: int) -> int:
    return size * FEET_PER_SQUARE


def covers(shape: str, x: int, y: int, size: int, angle: int, px: float, py: float) -> bool:
    """Whether the point (px, py), in squares, is inside the template."""
    dx, dy = px - x, py - y
    if shape == "square":
        return -EDGE <= dx <= size + EDGE and -EDGE <= dy <= size + EDGE
    if shape == "circle":
        return dx * dx + dy * dy <= size * size + EDGE
    turn = angle * math.pi / 180
    ux, uy = math.cos(turn), math.sin(turn)
    along = dx * ux + dy * uy
    if shape == "line":
        across = -dx * uy + dy * ux
        return -EDGE <= along <= size + EDGE and abs(across) <= 0.5 + EDGE
    if shape == "cone":
        reach = math.sqrt(dx * dx + dy * dy)
        return reach <= size + EDGE and along >= reach * CONE_COS - EDGE
    raise ValueError(f"{shape!r} is not a template shape")


def _span(shape: str, x: int, y: int, size: int) -> tuple[int, int, int, int]:
    """The squares worth trying: (x0, y0, x1, y1), ends included."""
    if shape == "square":
        return x, y, x + size - 1, y + size - 1
    return x - size, y - size, x + size - 1, y + size - 1


def squares(
    shape: str, x: int, y: int, size: int, angle: int, width: int, height: int
) -> set[tuple[int, int]]:
    """The squares of a `width` x `height` map the template covers."""
    x0, y0, x1, y1 = _span(shape, x, y, size)
    return {
        (i, j)
        for j in range(max(0, y0), min(height - 1, y1) + 1)
        for i in range(max(0, x0), min(width - 1, x1) + 1)
        if covers(shape, x, y, size, angle, i + 0.5, j + 0.5)
    }


def holds(covered: set[tuple[int, int]], tx: int, ty: int, tsize: int) -> bool:
    """Whether a token at (tx, ty), `tsize` squares a side, has a square in
    `covered`."""
    return any((tx + i, ty + j) in covered for i in range(tsize) for j in range(tsize))
