"""An imported map's walls made few: polylines that meet are joined into
paths, and each path keeps only the corners that matter (Ramer-Douglas-
Peucker within a tolerance in squares). Map editors export a curved cave
wall as hundreds of tiny segments; a scene stores each segment, and every
move on a fog scene tests against them."""

import math

# Points this close (squares) are one corner: exports round their floats.
SNAP = 1e-4
# Decimals kept of a corner (a thousandth of a square: 0.06 inch).
DECIMALS = 3


def _key(point) -> tuple[int, int]:
    return round(point[0] / SNAP), round(point[1] / SNAP)


def joined(polylines) -> list[list[tuple[float, float]]]:
    """The polylines' segments as paths that run through every corner where
    exactly two segments meet; a path ends where walls fork or stop. A
    closed loop comes back to its first corner. Repeated segments count
    once; a segment of no length is dropped."""
    corner = {}  # key -> the point first seen there
    edges = set()
    for line in polylines:
        keys = []
        for point in line:
            key = _key(point)
            corner.setdefault(key, (float(point[0]), float(point[1])))
            keys.append(key)
        for a, b in zip(keys, keys[1:], strict=False):
            if a != b:
                edges.add((a, b) if a < b else (b, a))
    around: dict[tuple, list] = {}
    for a, b in sorted(edges):
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    used = set()

    def walk(start, nxt):
        path = [start]
        here = start
        while True:
            edge = (here, nxt) if here < nxt else (nxt, here)
            used.add(edge)
            path.append(nxt)
            if len(around[nxt]) != 2 or nxt == start:
                return path
            here, nxt = (
                nxt,
                next(
                    (n for n in around[nxt] if ((nxt, n) if nxt < n else (n, nxt)) not in used),
                    None,
                ),
            )
            if nxt is None:
                return path

    paths = []
    # Open paths first, from every corner that is not a plain bend...
    for key in sorted(around):
        if len(around[key]) != 2:
            for other in around[key]:
                if ((key, other) if key < other else (other, key)) not in used:
                    paths.append(walk(key, other))
    # ...then what is left is closed loops.
    for key in sorted(around):
        for other in around[key]:
            if ((key, other) if key < other else (other, key)) not in used:
                paths.append(walk(key, other))
    return [[corner[k] for k in path] for path in paths]


def _distance(p, a, b) -> float:
    """How far p lies from the line through a and b (from a, if a is b)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    return abs(dx * (p[1] - a[1]) - dy * (p[0] - a[0])) / length


def simplified(path, tolerance: float) -> list:
    """The path's corners that lie farther than `tolerance` squares from
    the straight wall that would replace them (0: only corners on a
    straight line go). A loop keeps its first corner and one farthest from
    it, so it never folds into a line."""
    if len(path) < 3:
        return list(path)
    keep = [False] * len(path)
    keep[0] = keep[-1] = True
    last = len(path) - 1
    if path[0] == path[-1]:
        far = max(range(1, last), key=lambda i: math.dist(path[0], path[i]))
        keep[far] = True
        spans = [(0, far), (far, last)]
    else:
        spans = [(0, last)]
    limit = tolerance + 1e-9
    while spans:  # a loop, not recursion: a path may have thousands of corners
        first, end = spans.pop()
        if end - first < 2:
            continue
        a, b = path[first], path[end]
        worst, at = -1.0, first
        for i in range(first + 1, end):
            d = _distance(path[i], a, b)
            if d > worst:
                worst, at = d, i
        if worst > limit:
            keep[at] = True
            spans += [(first, at), (at, end)]
    return [point for point, kept in zip(path, keep, strict=True) if kept]


def wall_segments(polylines, tolerance: float) -> list[list]:
    """The scene's walls, [x1, y1, x2, y2] in squares, from the file's
    polylines joined and simplified."""
    segments = []
    for path in joined(polylines):
        corners = simplified(path, tolerance)
        for a, b in zip(corners, corners[1:], strict=False):
            wall = [short(a[0]), short(a[1]), short(b[0]), short(b[1])]
            if wall[:2] != wall[2:]:  # shorter than the decimals kept: no wall
                segments.append(wall)
    return segments


def short(value: float) -> int | float:
    value = round(value, DECIMALS)
    return int(value) if value.is_integer() else value
