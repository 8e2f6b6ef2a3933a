"""Fog of war: what the tokens of a scene see, and the area they see.

Units are grid units: square (x, y) covers [x, x+1] x [y, y+1], and a token
at (x, y) of size s has its centre at (x + s/2, y + s/2). A barrier is a
segment (x1, y1, x2, y2) in the same units; radii are grid units too, and
distances are Euclidean between points.

A token is seen when its centre is seen. That is the centre-to-centre rule
the attacks already use (vtt.rules.grid.line_of_sight), so "can I see it"
and "can I cast at it" never disagree; it gives one exact answer per token,
and no float boundary case (a token's edge grazing a wall's end) decides
anything.

Three answers, one rule:

- `Sight.sees` is the authority: exact arithmetic (integers and Fractions,
  grid.clear_between), one point at a time.
- `Sight.seen` asks the same for many points at once with numpy. Where the
  inputs are small binary fractions (whole and half squares, quarter
  squares...), float arithmetic is exact and the whole answer is computed in
  floats; otherwise every pair of sight line and wall that floats cannot
  decide is decided exactly. Either way it equals `sees`, point for point.
- `Sight.view` is the area to draw (a shapely geometry), for the fog. It is
  exact up to float rounding where walls bound it and a polygon drawn just
  outside the circle where a radius does; nothing asks it who sees what.
  Being an area, it leaves out what the rule sees along a line of no width
  (a sight line slipping between two wall ends in a row with the eye, a
  blind eye's own centre).

Walls are filed per origin in angular bins (`_Fan`): a sight line or a ray
in one direction only meets the few walls filed under that direction, which
is what keeps many questions from one eye cheap. A wall that spans a bin's
whole wedge casts a shadow there: whatever lies beyond its farthest point in
the wedge is crossed properly, so it is not seen, without a test per wall
(from a corridor, most of a big map). A `Sight` remembers those
filings, each place's visibility polygon and each eye's area (bounded, and
safe to share between threads); `Sight.relit` keeps them when only the
lighting changes.
"""

import functools
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce

import numpy as np
import shapely

from . import grid

WALL, DOOR, WINDOW = "wall", "door", "window"
OPEN, CLOSED, LOCKED = "open", "closed", "locked"
KINDS = (WALL, DOOR, WINDOW)
STATES = (OPEN, CLOSED, LOCKED)

EMPTY = shapely.Polygon()


# ------------------------------------------------------------------ barriers


class BarrierError(ValueError):
    """One item of a scene's walls is malformed: `index` says which, `reason` what."""

    def __init__(self, index: int, reason: str):
        super().__init__(f"walls[{index}]: {reason}")
        self.index = index
        self.reason = reason


def _finite_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


@dataclass(frozen=True)
class Barrier:
    """One wall segment of a scene: a wall, a door (open, closed or locked:
    locked is closed, and only a GM opens it) or a window (blocks movement,
    not sight)."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str = WALL
    state: str = CLOSED

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a barrier is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.state not in STATES:
            raise ValueError(f"a door is one of {', '.join(STATES)}, not {self.state!r}")
        if self.kind != DOOR and self.state != CLOSED:
            raise ValueError(f"only a door is {self.state}")

    @property
    def segment(self) -> tuple:
        return (self.x1, self.y1, self.x2, self.y2)

    def blocks_sight(self) -> bool:
        return self.kind == WALL or (self.kind == DOOR and self.state != OPEN)

    def blocks_movement(self) -> bool:
        return self.kind != DOOR or self.state != OPEN

    def as_list(self) -> list:
        """The stored form (parse_barriers), shortest: [.., "door"] for a closed door."""
        out = [self.x1, self.y1, self.x2, self.y2]
        if self.kind != WALL:
            out.append(self.kind)
        if self.kind == DOOR and self.state != CLOSED:
            out.append(self.state)
        return out


def parse_barriers(raw) -> list[Barrier]:
    """A scene's walls from their stored form, a list whose items are
    [x1, y1, x2, y2] (a wall), [x1, y1, x2, y2, "window"], [x1, y1, x2, y2,
    "door"] (closed) or [x1, y1, x2, y2, "door", "open"|"closed"|"locked"].
    BarrierError (a ValueError) names the first item that is none of these."""
    if not isinstance(raw, list | tuple):
        raise ValueError("walls must be a list")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, list | tuple) or not 4 <= len(item) <= 6:
            raise BarrierError(i, "must be [x1, y1, x2, y2] with an optional kind and door state")
        ends, tail = item[:4], list(item[4:])
        for name, v in zip(("x1", "y1", "x2", "y2"), ends, strict=True):
            if not _finite_number(v):
                raise BarrierError(i, f"{name} must be a number, not {v!r}")
        if (ends[0], ends[1]) == (ends[2], ends[3]):
            raise BarrierError(i, "a wall needs two different ends")
        kind = tail.pop(0) if tail else WALL
        if kind not in KINDS:
            raise BarrierError(i, f"the kind must be one of {', '.join(KINDS)}, not {kind!r}")
        state = tail.pop(0) if tail else CLOSED
        if kind != DOOR and len(item) == 6:
            raise BarrierError(i, f"only a door has a state ({kind} has {state!r})")
        if state not in STATES:
            raise BarrierError(i, f"a door's state is one of {', '.join(STATES)}, not {state!r}")
        out.append(Barrier(*ends, kind=kind, state=state))
    return out


def sight_segments(barriers) -> list[tuple]:
    return [b.segment for b in barriers if b.blocks_sight()]


def movement_segments(barriers) -> list[tuple]:
    return [b.segment for b in barriers if b.blocks_movement()]


# ---------------------------------------------------------- exact sight lines


def _dbl(v):
    """A coordinate in grid.clear_between's doubled units (an int when whole,
    which keeps the exact arithmetic fast)."""
    if type(v) is int:
        return 2 * v
    if type(v) is float and (2 * v).is_integer():  # exact: doubling a float
        return int(2 * v)
    f = 2 * Fraction(v)
    return f.numerator if f.denominator == 1 else f


class Prepared(list):
    """Segments in doubled exact units (`prepared`), tested as they are."""


def _prepare(segments) -> Prepared:
    """Segments in doubled exact units; zero-length ones dropped (as grid.prepare_walls)."""
    if isinstance(segments, Prepared):
        return segments
    out = Prepared()
    for x1, y1, x2, y2 in segments:
        w = (_dbl(x1), _dbl(y1), _dbl(x2), _dbl(y2))
        if w[:2] != w[2:]:
            out.append(w)
    return out


def prepared(segments) -> Prepared:
    """`segments` made ready for line_of_sight and path_blocked: a scene's
    walls prepared once serve every line tested against them."""
    return _prepare(segments)


def line_of_sight(a, b, segments) -> bool:
    """Whether the segment between points a and b is clear of `segments`
    (as they are, or `prepared`), by grid.line_of_sight's rule: crossing a
    wall blocks, and so does passing through a point where walls leave on
    both sides (a closed corner); grazing a wall's end, running along a wall
    or touching one only at a or b does not."""
    return grid.clear_between(_dbl(a[0]), _dbl(a[1]), _dbl(b[0]), _dbl(b[1]), _prepare(segments))


def path_blocked(start, end, segments) -> bool:
    """Whether moving in a straight line from point `start` to point `end`
    (token centres) crosses one of `segments` (movement_segments): the same
    crossing rule as line_of_sight."""
    return not line_of_sight(start, end, segments)


# ------------------------------------------------------------- float filters

_BINS = 512
_BIN_WIDTH = 2 * math.pi / _BINS
_NEAR = 1e-3  # a wall passing this close to an origin is checked in every direction
_ULP = 2.0**-52
_EDGE_COS = np.cos(np.arange(_BINS + 1) * _BIN_WIDTH - math.pi)  # bins' edge directions
_EDGE_SIN = np.sin(np.arange(_BINS + 1) * _BIN_WIDTH - math.pi)
_EXACT_LIMIT = 2**23  # |value| * 2**k below this: products of differences are exact floats


def _grain(values: np.ndarray):
    """The smallest k <= 24 with every value a whole multiple of 2**-k, else None."""
    if values.size == 0:
        return 0
    for k in range(25):
        scaled = values * float(1 << k)  # exact: a power of two
        if np.all(scaled == np.floor(scaled)):
            return k
    return None


def _is_exact_float(v) -> bool:
    if type(v) is float:
        return True
    if type(v) is int:
        return abs(v) <= 2**53
    return Fraction(float(v)) == Fraction(v)


class _Walls:
    """A set of segments in both forms: exact (for the authority) and as a
    float array (for the filters), with what the floats can be trusted for."""

    def __init__(self, segments):
        segments = list(segments)
        if any(len(segment) != 4 for segment in segments):
            raise ValueError("a segment is (x1, y1, x2, y2)")
        arr = np.asarray(segments).reshape(-1, 4)
        if arr.dtype.kind in "fiu" and (
            arr.dtype.kind == "f" or np.abs(arr).max(initial=0) < 2**53
        ):
            # plain numbers: the floats are the walls
            self.xy = arr.astype(float)
            self.xy = self.xy[np.any(self.xy[:, :2] != self.xy[:, 2:], axis=1)]
            self._exact = None
            all_exact = True
        else:  # Fractions among them: keep the exact values in step
            exact, floats = _prepare(segments), []
            for w in exact:
                floats.append([float(v) / 2 for v in w])
            self.xy = np.array(floats, dtype=float).reshape(-1, 4)
            self._exact = exact
            all_exact = all(_is_exact_float(v) for segment in segments for v in segment)
        self.scale = float(np.abs(self.xy).max()) if len(self.xy) else 0.0
        self.grain = _grain(self.xy) if all_exact else None

    @property
    def exact(self) -> list:
        """The walls in grid.clear_between's doubled units (made when first asked)."""
        if self._exact is None:
            self._exact = [tuple(_dbl(v) for v in w) for w in self.xy.tolist()]
        return self._exact

    def __len__(self) -> int:
        return len(self.xy)


class _Points:
    """Points as float arrays, with their exact values kept for the fallback."""

    def __init__(self, points):
        self.source = points if isinstance(points, list | tuple) else list(points)
        arr = np.asarray(self.source)
        if arr.size == 0:
            arr = np.zeros((0, 2))
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError("points are (x, y) pairs")
        # Whether the floats are the points themselves (not so for 1/3).
        self.floats_exact = arr.dtype.kind in "fiu" or all(
            _is_exact_float(v) for p in self.source for v in p
        )
        self.x = arr[:, 0].astype(float)
        self.y = arr[:, 1].astype(float)
        self.scale = float(max(np.abs(self.x).max(initial=0), np.abs(self.y).max(initial=0)))
        self.grain = _grain(np.concatenate([self.x, self.y])) if self.floats_exact else None

    def __len__(self) -> int:
        return len(self.x)

    def exact(self, i: int) -> tuple:
        p = self.source[i]
        return _dbl(p[0]), _dbl(p[1])


def _tolerance(walls: _Walls, points: _Points, origin) -> float:
    """0 when float orientation tests on these values are exact, else a bound
    well above their rounding error (a few ulps of the largest product)."""
    scale = max(walls.scale, points.scale, abs(float(origin[0])), abs(float(origin[1])))
    grains = (walls.grain, points.grain, _grain(np.array([float(v) for v in origin])))
    if all(_is_exact_float(v) for v in origin) and None not in grains:
        if scale * 2.0 ** max(grains) < _EXACT_LIMIT:
            return 0.0
    return 1e-12 * (scale + 1.0) ** 2


class _Fan:
    """The walls as seen from one origin, filed under the directions they
    cover (with a margin for rounding): a sight line or ray in one direction
    can only meet the walls filed under that direction's bin, and a sight
    line only those no farther away than its end (each bin is sorted by
    distance, so those are a prefix of it). Keeps the walls' ends relative
    to the origin, and the side of each wall the origin is on."""

    def __init__(self, walls: _Walls, ox: float, oy: float):
        xy = walls.xy
        self.ux, self.uy = xy[:, 0] - ox, xy[:, 1] - oy
        self.vx, self.vy = xy[:, 2] - ox, xy[:, 3] - oy
        self.sx, self.sy = self.vx - self.ux, self.vy - self.uy
        # orient(wall end, wall end, origin), as grid.clear_between has it
        self.side = self.sx * -self.uy - self.sy * -self.ux
        self.reach = reach = _reach(self.ux, self.uy, self.vx, self.vy)
        scale = max(walls.scale, abs(ox), abs(oy)) + 1.0
        self.slack = 1e-9 * scale
        near = reach < _NEAR
        self.everywhere = np.flatnonzero(near)
        idx = np.flatnonzero(~near)
        ax, ay, bx, by = self.ux[idx], self.uy[idx], self.vx[idx], self.vy[idx]
        a1, a2 = np.arctan2(ay, ax), np.arctan2(by, bx)
        turn = ax * by - ay * bx
        span = np.arctan2(np.abs(turn), ax * bx + ay * by)  # < pi: the wall misses the origin
        start = np.where(turn >= 0, a1, a2)
        margin = 1e-9 + 64 * scale * _ULP / reach[idx]
        lo = np.floor((start - margin + math.pi) / _BIN_WIDTH).astype(np.int64)
        hi = np.floor((start + span + margin + math.pi) / _BIN_WIDTH).astype(np.int64)
        counts = hi - lo + 1
        wall_of = np.repeat(idx, counts)
        bins = (
            np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        ) % _BINS
        self._spans = (idx, start, span, margin)  # for the shadows, if asked
        # By bin, then by distance: one sorted key finds a bin's walls within a distance.
        self.stride = 2.0 * (float(reach.max(initial=0.0)) + 1.0)
        key = bins * self.stride + reach[wall_of]
        order = np.argsort(key)
        self.walls = wall_of[order]
        self.key = key[order]
        self.offsets = np.searchsorted(bins[order], np.arange(_BINS + 1))

    @functools.cached_property
    def shadow(self) -> np.ndarray:
        """For each bin, how far away a wall hides everything behind it.

        A wall that spans a bin's whole wedge (with the filing margin to
        spare, so a point's rounded direction cannot leave it) is crossed
        properly by every sight line into that wedge ending beyond it: such
        a point is not seen, whatever else is in the way. The wall's
        farthest point within the wedge is on one of the wedge's two edges
        (the distance to a line along a direction is convex in the angle),
        so beyond that distance, with a relative margin for rounding, the
        wedge is dark. inf where no wall spans a bin."""
        idx, start, span, margin = self._spans
        shadow = np.full(_BINS, np.inf)
        first = np.ceil((start + margin + math.pi) / _BIN_WIDTH).astype(np.int64)
        last = np.floor((start + span - margin + math.pi) / _BIN_WIDTH).astype(np.int64) - 1
        counts = np.maximum(last - first + 1, 0)
        if not counts.any():
            return shadow
        k = np.repeat(idx, counts)
        covered = (
            np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        ) % _BINS
        sx, sy = self.sx[k], self.sy[k]
        along = self.ux[k] * sy - self.uy[k] * sx
        least = 1e-6 * np.hypot(sx, sy)  # closer to parallel than this: not trusted
        near_edge = _EDGE_COS[covered] * sy - _EDGE_SIN[covered] * sx
        far_edge = _EDGE_COS[covered + 1] * sy - _EDGE_SIN[covered + 1] * sx
        keep = (np.abs(near_edge) > least) & (np.abs(far_edge) > least)
        with np.errstate(divide="ignore", invalid="ignore"):
            far = np.maximum(along / near_edge, along / far_edge)
        keep &= far > 0
        np.minimum.at(shadow, covered[keep], far[keep] * (1 + 1e-7) + self.slack)
        return shadow

    def hidden(self, angle: np.ndarray, distance: np.ndarray) -> np.ndarray:
        """Points (directions and distances from the origin) behind a wall
        that spans their whole wedge: not seen, without a pair test."""
        return distance > self.shadow[_bin_of(angle)]

    def pairs(self, angle: np.ndarray, distance: np.ndarray | None = None):
        """(query, wall) index pairs worth testing for directions `angle`
        (and sight lines of length `distance`)."""
        b = _bin_of(angle)
        first = self.offsets[b]
        if distance is None:
            last = self.offsets[b + 1]
        else:
            last = np.searchsorted(self.key, b * self.stride + distance + self.slack, "right")
        counts = last - first
        query = np.repeat(np.arange(len(angle)), counts)
        wall = self.walls[
            np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        ]
        if len(self.everywhere):
            n = len(angle)
            query = np.concatenate([query, np.repeat(np.arange(n), len(self.everywhere))])
            wall = np.concatenate([wall, np.tile(self.everywhere, n)])
        return query, wall


def _bin_of(angle: np.ndarray) -> np.ndarray:
    """The bin of each direction (radians, as arctan2 gives them)."""
    return np.floor((angle + math.pi) / _BIN_WIDTH).astype(np.int64) % _BINS


def _reach(ax, ay, bx, by):
    """Distance from (0, 0) to each segment a-b."""
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(-(ax * dx + ay * dy) / length, 0.0, 1.0)
    t = np.where(length > 0, t, 0.0)
    return np.hypot(ax + t * dx, ay + t * dy)


def _clear_many(walls: _Walls, fan: _Fan, origin, points: _Points, which: np.ndarray):
    """Line of sight from `origin` (exact values) to points[which], as a bool
    array: grid.clear_between's answer for every one of them.

    With o1, o2 the sides of the sight line a wall's ends are on, and o3, o4
    the sides of the wall the sight line's ends are on: a wall blocks when
    o1, o2 differ and o3, o4 differ; a wall with an end strictly inside the
    sight line adds the side its other end is on to that point, and a point
    with walls on both sides blocks (a closed corner)."""
    n = len(which)
    clear = np.ones(n, dtype=bool)
    if n == 0 or len(walls) == 0:
        return clear
    ox, oy = float(origin[0]), float(origin[1])
    ex, ey = points.x[which] - ox, points.y[which] - oy
    angle, distance = np.arctan2(ey, ex), np.hypot(ex, ey)
    hidden = fan.hidden(angle, distance)
    clear[hidden] = False
    look = np.flatnonzero(~hidden)
    q, w = fan.pairs(angle[look], distance[look])
    q = look[q]
    if len(q) == 0:
        return clear
    tol = _tolerance(walls, points, origin)
    dx, dy = ex[q], ey[q]
    ux, uy, vx, vy = fan.ux[w], fan.uy[w], fan.vx[w], fan.vy[w]
    o1 = dx * uy - dy * ux
    o2 = dx * vy - dy * vx
    if tol == 0.0:  # exact floats
        product = o1 * o2
        across = np.flatnonzero(product < 0)
        k = w[across]
        o4 = fan.sx[k] * (dy[across] - uy[across]) - fan.sy[k] * (dx[across] - ux[across])
        clear[q[across[fan.side[k] * o4 < 0]]] = False
        touch = np.flatnonzero((product == 0) & (o1 != o2))  # one end on the line
        if len(touch):
            _closed_corners(
                clear,
                q[touch],
                dx[touch],
                dy[touch],
                ux[touch],
                uy[touch],
                vx[touch],
                vy[touch],
                o1[touch],
                o2[touch],
            )
        return clear
    # Rounded floats: decide what they can, the rest exactly.
    pos1, neg1, pos2, neg2 = o1 > tol, o1 < -tol, o2 > tol, o2 < -tol
    across = (pos1 & neg2) | (neg1 & pos2)
    undecided = ~(across | (pos1 & pos2) | (neg1 & neg2))
    at = np.flatnonzero(across)
    k = w[at]
    o3 = fan.side[k]
    o4 = fan.sx[k] * (dy[at] - uy[at]) - fan.sy[k] * (dx[at] - ux[at])
    pos3, neg3, pos4, neg4 = o3 > tol, o3 < -tol, o4 > tol, o4 < -tol
    crossing = (pos3 & neg4) | (neg3 & pos4)
    clear[q[at[crossing]]] = False
    undecided[at[~(crossing | (pos3 & pos4) | (neg3 & neg4))]] = True
    undecided &= clear[q]
    if undecided.any():
        wall_ids, queries = w[undecided], q[undecided]
        ax, ay = _dbl(origin[0]), _dbl(origin[1])
        for i in np.unique(queries):
            near = [walls.exact[j] for j in wall_ids[queries == i]]
            bx, by = points.exact(int(which[i]))
            clear[i] = grid.clear_between(ax, ay, bx, by, near)
    return clear


def _closed_corners(clear, q, dx, dy, ux, uy, vx, vy, o1, o2) -> None:
    """Exact floats: sight lines with a wall end on them. An end strictly
    inside the sight line counts the side its wall leaves to; both sides at
    one point block."""
    length = dx * dx + dy * dy
    parts = []
    for on, ex, ey, other in ((o1, ux, uy, o2), (o2, vx, vy, o1)):
        dot = ex * dx + ey * dy
        hit = (on == 0) & (dot > 0) & (dot < length)
        parts.append((q[hit], ex[hit], ey[hit], np.sign(other[hit])))
    query, x, y, side = (np.concatenate(p) for p in zip(*parts, strict=True))
    if len(query) == 0:
        return
    order = np.lexsort((side, y, x, query))
    query, x, y, side = query[order], x[order], y[order], side[order]
    new = np.ones(len(query), dtype=bool)
    new[1:] = (query[1:] != query[:-1]) | (x[1:] != x[:-1]) | (y[1:] != y[:-1])
    starts = np.flatnonzero(new)
    lowest = np.minimum.reduceat(side, starts)
    highest = np.maximum.reduceat(side, starts)
    clear[query[starts[(lowest < 0) & (highest > 0)]]] = False


def _within_many(cx, cy, radius, points: _Points, which: np.ndarray, centre) -> np.ndarray:
    """points[which] no farther than `radius` from the centre (exact where close)."""
    r = float(radius)
    d2 = (points.x[which] - cx) ** 2 + (points.y[which] - cy) ** 2
    slack = 1e-12 * ((points.scale + abs(cx) + abs(cy)) ** 2 + r * r) + 1e-300
    inside = d2 <= r * r - slack
    close = np.flatnonzero(~inside & (d2 <= r * r + slack))
    for i in close:
        inside[i] = _within(centre, points.exact(int(which[i])), radius)
    return inside


def _within(centre, p, radius) -> bool:
    """Exact: p (doubled) no farther than radius from centre (grid units)."""
    dx, dy = p[0] - _dbl(centre[0]), p[1] - _dbl(centre[1])
    r = _dbl(radius)
    return dx * dx + dy * dy <= r * r


def in_sight(origin, points, segments) -> list[bool]:
    """For each point, whether the segment from `origin` to it is clear of
    `segments` (line_of_sight for each, computed together)."""
    walls = _Walls(segments)
    pts = _Points(points)
    fan = _Fan(walls, float(origin[0]), float(origin[1]))
    return _clear_many(walls, fan, origin, pts, np.arange(len(pts))).tolist()


# --------------------------------------------------------------------- sight


@dataclass(frozen=True)
class Eye:
    """A token that sees, at its centre: `sight` is how far it sees in the
    dark (grid units); in a lit scene it sees without limit."""

    x: float
    y: float
    sight: float = 0

    def __post_init__(self):
        _check_place(self.x, self.y, self.sight, "sight")


@dataclass(frozen=True)
class Light:
    """A light at (x, y) lighting `radius` grid units: a token's, at its
    centre, or one on the map. Walls cast shadows in it unless `shadows` is
    false (a light that shines through them, as a map may say)."""

    x: float
    y: float
    radius: float
    shadows: bool = True

    def __post_init__(self):
        _check_place(self.x, self.y, self.radius, "radius")


def _check_place(x, y, r, name) -> None:
    for label, v in (("x", x), ("y", y), (name, r)):
        if not isinstance(v, int | float | Fraction) or isinstance(v, bool):
            raise ValueError(f"{label} must be a number, not {v!r}")
        if not math.isfinite(v):
            raise ValueError(f"{label} must be finite")
    if r < 0:
        raise ValueError(f"{name} cannot be negative")


class Kept:
    """The `size` values last asked for (least recently used go first). Safe
    across threads (a value may be made twice by two threads at once; both
    are the same)."""

    def __init__(self, size: int):
        self.size = size
        self.values: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get_or(self, key, make):
        with self.lock:
            if key in self.values:
                self.values.move_to_end(key)
                return self.values[key]
        value = make()
        with self.lock:
            self.values[key] = value
            if len(self.values) > self.size:
                self.values.popitem(last=False)
        return value

    def put(self, key, value) -> None:
        """Keep a value made elsewhere (the next asker finds it)."""
        self.get_or(key, lambda: value)


LIT_POINTS_KEPT = 100_000  # points whose light is kept per lighting (then forgotten)


class Sight:
    """One scene's sight: its sight-blocking segments, its bounds (0..width,
    0..height), whether it is lit, and the lights in it. Build once per scene
    state; queries after are cheap, and `view` remembers each eye's area.

    A point outside the map is never seen; an eye or a light off the map sees
    or lights nothing (tokens stand on the map)."""

    def __init__(self, segments, width, height, lit: bool, lights=(), ambient=0, *, _shared=None):
        if not (_finite_number(width) and _finite_number(height)) or width <= 0 or height <= 0:
            raise ValueError("a scene's width and height are positive numbers")
        self.width, self.height, self.lit = width, height, bool(lit)
        self.lights = tuple(lights)
        # In a dim scene every eye sees at least this far (grid units) without
        # light; in a dark one 0.
        _check_place(0, 0, ambient, "ambient")
        self.ambient = 0 if self.lit else ambient
        for light in self.lights:
            if not isinstance(light, Light):
                raise ValueError(f"lights are Light, not {light!r}")
        if _shared is None:
            walls = _Walls(segments)
            _shared = {
                "walls": walls,
                "fans": Kept(64),
                "polygons": Kept(256),
                "critical": None,  # worked out for the first view
                "lightings": Kept(16),
                # Per place of a light: point -> whether its line to it is clear.
                "reached": Kept(256),
            }
        self._shared = _shared
        self._walls: _Walls = _shared["walls"]
        # Eyes' areas depend on the lighting too: kept per lighting, so a
        # Sight relit as it was finds them again.
        lighting = (True, (), 0) if self.lit else (False, self.lights, self.ambient)
        self._lighting = _shared["lightings"].get_or(
            lighting,
            lambda: {
                "areas": Kept(256),
                "lit area": None,
                "lit at": {},  # point -> whether the lights light it
                "union": (None, None),
                "unions": Kept(16),
            },
        )
        self._areas = self._lighting["areas"]

    def relit(self, lit: bool, lights=(), ambient=0) -> "Sight":
        """The same walls with other lighting (a torch-bearer moved), keeping
        what was learnt about the walls from each place, and each eye's area
        under a lighting seen before."""
        return Sight(None, self.width, self.height, lit, lights, ambient, _shared=self._shared)

    def _unlit_reach(self, eye) -> float:
        """How far an eye sees without light: its own sight, or the dim
        scene's, whichever is further."""
        return max(eye.sight, self.ambient)

    def _lit_at(self, light, point) -> bool:
        """Whether `light` reaches `point` (exact)."""
        if not (self._on_map(light.x, light.y) and light.radius > 0):
            return False
        p = (_dbl(point[0]), _dbl(point[1]))
        if not _within((light.x, light.y), p, light.radius):
            return False
        return not light.shadows or self._clear((light.x, light.y), point)

    # -- the rule, exactly

    def _on_map(self, x, y) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.height

    def _clear(self, a, b) -> bool:
        ax, ay, bx, by = _dbl(a[0]), _dbl(a[1]), _dbl(b[0]), _dbl(b[1])
        return grid.clear_between(ax, ay, bx, by, self._walls.exact)

    def sees(self, eyes, point) -> bool:
        """Whether some eye has line of sight to `point` and, unless the scene
        is lit, the point is within that eye's sight or within some light's
        radius with line of sight from that light. Exact; the authority."""
        if not self._on_map(point[0], point[1]):
            return False
        p = (_dbl(point[0]), _dbl(point[1]))
        lit = None  # lit by a light: worked out once, if needed
        for eye in eyes:
            if not self._on_map(eye.x, eye.y):
                continue
            if not self.lit and not _within((eye.x, eye.y), p, self._unlit_reach(eye)):
                if lit is None:
                    lit = any(self._lit_at(light, point) for light in self.lights)
                if not lit:
                    continue
            if self._clear((eye.x, eye.y), point):
                return True
        return False

    # -- the rule, for many points

    def _fan(self, x, y) -> _Fan:
        key = (float(x), float(y))
        return self._shared["fans"].get_or(key, lambda: _Fan(self._walls, *key))

    def seen(self, eyes, points) -> list[bool]:
        """[self.sees(eyes, p) for p in points], computed together."""
        return self._seen(eyes, *self._points(points)).tolist()

    def seen_by_each(self, eyes, points) -> list[np.ndarray]:
        """[self.seen([eye], points) for eye in eyes] as bool arrays: the
        points, and in the dark what the lights light, worked out once for
        all the eyes (a scene's every eye, when a scene is put on the table).
        Eyes alike (tokens stacked on one square) share one read-only array."""
        points = self._points(points)
        by_eye = {}
        for eye in dict.fromkeys(eyes):
            flags = by_eye[eye] = self._seen((eye,), *points)
            flags.flags.writeable = False
        return [by_eye[eye] for eye in eyes]

    def _points(self, points) -> tuple:
        """The points, which of them are on the map, and which the lights
        light (None when the scene is lit): what any eye's test starts from."""
        pts = _Points(points)
        if pts.floats_exact:
            on = (pts.x >= 0) & (pts.x <= self.width) & (pts.y >= 0) & (pts.y <= self.height)
        else:
            on = np.array([self._on_map(*p) for p in pts.source], dtype=bool)
        return pts, on, None if self.lit else self._lit_points(pts, on)

    def _seen(self, eyes, pts: _Points, on: np.ndarray, lit: np.ndarray | None) -> np.ndarray:
        seen = np.zeros(len(pts), dtype=bool)
        for eye in dict.fromkeys(eyes):
            if not self._on_map(eye.x, eye.y):
                continue
            todo = on & ~seen
            if not self.lit:
                reach = lit.copy()
                rest = np.flatnonzero(todo & ~lit)
                reach[rest] = _within_many(
                    float(eye.x), float(eye.y), self._unlit_reach(eye), pts, rest, (eye.x, eye.y)
                )
                todo &= reach
            which = np.flatnonzero(todo)
            fan = self._fan(eye.x, eye.y)
            seen[which] = _clear_many(self._walls, fan, (eye.x, eye.y), pts, which)
        return seen

    def _lit_points(self, pts: _Points, on: np.ndarray) -> np.ndarray:
        """Which points the lights light. Whether a point is lit does not
        depend on who looks, so each point's answer is kept with the
        lighting: a move asks again only for the points that moved."""
        memo = self._lighting["lit at"]
        if len(memo) > LIT_POINTS_KEPT:
            memo.clear()
        lit = np.zeros(len(pts), dtype=bool)
        ask = on.copy()
        keys = [tuple(p) for p in pts.source]
        for i in np.flatnonzero(on):
            known = memo.get(keys[i])
            if known is not None:
                lit[i], ask[i] = known, False
        fresh = self._light_points(pts, ask, keys)
        for i in np.flatnonzero(ask):
            memo[keys[i]] = bool(fresh[i])
        return lit | fresh

    def _light_points(self, pts: _Points, on: np.ndarray, keys: list) -> np.ndarray:
        """Which of the points `on` the lights light. Each light keeps what
        its walls let it reach (the walls do not change within a Sight's
        family): a torch carried to a new place asks again for itself only."""
        lit = np.zeros(len(pts), dtype=bool)
        if not on.any():
            return lit
        for light in dict.fromkeys(self.lights):
            if not self._on_map(light.x, light.y):
                continue
            rest = np.flatnonzero(on & ~lit)
            lx, ly = float(light.x), float(light.y)
            near = rest[_within_many(lx, ly, light.radius, pts, rest, (light.x, light.y))]
            if not light.shadows:
                lit[near] = True
                continue
            reached = self._shared["reached"].get_or((light.x, light.y), dict)
            if len(reached) > LIT_POINTS_KEPT:
                reached.clear()
            ask = np.array([i for i in near if keys[i] not in reached], dtype=np.intp)
            for i in near:
                if keys[i] in reached:
                    lit[i] = reached[keys[i]]
            if len(ask):
                fan = self._fan(light.x, light.y)
                clear = _clear_many(self._walls, fan, (light.x, light.y), pts, ask)
                lit[ask] = clear
                for i, flag in zip(ask.tolist(), clear.tolist(), strict=True):
                    reached[keys[i]] = flag
        return lit

    # -- the area to draw

    def _polygon(self, x, y):
        """The visibility polygon from (x, y), clipped to the map."""
        key = (float(x), float(y))
        return self._shared["polygons"].get_or(key, lambda: self._cast(*key))

    def _cast(self, x: float, y: float):
        fan = self._fan(x, y)
        critical = self._shared["critical"]
        if critical is None:
            critical = self._shared["critical"] = _critical_points(
                self._walls, self.width, self.height
            )
        ring = _visibility(self._walls, fan, critical, x, y, float(self.width), float(self.height))
        return _valid(shapely.Polygon(ring)) if len(ring) >= 3 else EMPTY

    def lit_area(self):
        """What the scene's lights light: each light's visibility polygon within its radius."""
        if self._lighting["lit area"] is None:
            parts = [
                self.light_area(light)
                for light in dict.fromkeys(self.lights)
                if self._on_map(light.x, light.y) and light.radius > 0
            ]
            self._lighting["lit area"] = _valid(shapely.union_all(parts)) if parts else EMPTY
        return self._lighting["lit area"]

    def light_area(self, light: Light, radius: float | None = None):
        """What one light lights out to `radius` (its own by default): its
        visibility polygon within that disc, or the disc when it casts no
        shadows. The map draws bright and dim light from these."""
        radius = light.radius if radius is None else radius
        if not self._on_map(light.x, light.y) or radius <= 0:
            return EMPTY
        circle = disc(light.x, light.y, radius)
        if not light.shadows:
            return _valid(shapely.intersection(circle, shapely.box(0, 0, self.width, self.height)))
        return _valid(shapely.intersection(self._polygon(light.x, light.y), circle))

    def area(self, eye: Eye):
        """What one eye sees (cached per eye)."""
        return self._areas.get_or(eye, lambda: self._area(eye))

    def _area(self, eye: Eye):
        if not self._on_map(eye.x, eye.y):
            return EMPTY
        polygon = self._polygon(eye.x, eye.y)
        if self.lit:
            return polygon
        own = self._unlit_reach(eye)
        reach = disc(eye.x, eye.y, own) if own > 0 else EMPTY
        lit = self.lit_area()
        if not lit.is_empty:
            reach = _valid(shapely.union(reach, lit))
        if reach.is_empty:
            return EMPTY
        return _valid(shapely.intersection(polygon, reach))

    def view(self, eyes):
        """The area those eyes see, to draw: for each eye its visibility
        polygon (clipped to the map), in a dark scene within its sight disc or
        the lit area; the union over the eyes."""
        key = tuple(dict.fromkeys(eyes))
        last, union = self._lighting["union"]
        if last == key:
            return union
        # One eye moved (the usual change): the others' union is kept, so
        # each further step of the same eye is one union of two areas.
        eyes_now, kept = frozenset(key), self._lighting["unions"]
        others = eyes_now & frozenset(last or ())
        if others and others != eyes_now:
            base = kept.get_or(others, lambda: self._union(others))
            result = self._union(eyes_now - others, base)
        else:
            result = self._union(eyes_now)
        self._lighting["union"] = (key, result)
        return result

    def _union(self, eyes, base=EMPTY):
        areas = [a for a in (base, *(self.area(e) for e in eyes)) if not a.is_empty]
        if not areas:
            return EMPTY
        return areas[0] if len(areas) == 1 else _valid(shapely.union_all(areas))


def _valid(geometry):
    """The area of a geometry: its polygonal part, made valid (rounding can
    pinch a ring), as a Polygon or MultiPolygon (EMPTY when there is none)."""
    if isinstance(geometry, shapely.Polygon | shapely.MultiPolygon) and geometry.is_valid:
        return geometry
    if not geometry.is_valid:
        geometry = shapely.make_valid(geometry)
    parts = _polygons(geometry)
    if len(parts) < 2:
        return parts[0] if parts else EMPTY
    merged = shapely.union_all(parts)
    return merged if isinstance(merged, shapely.Polygon | shapely.MultiPolygon) else EMPTY


def _critical_points(walls: _Walls, width: float, height: float) -> np.ndarray:
    """The points where what a ray from anywhere meets can change: the walls'
    ends, the points where walls cross one another or the map's edge, and the
    map's corners; those on the map only."""
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=float)
    ends = walls.xy.reshape(-1, 2)
    edges = np.array(
        [
            [0, 0, width, 0],
            [width, 0, width, height],
            [width, height, 0, height],
            [0, height, 0, 0],
        ],
        dtype=float,
    )
    lines = np.concatenate([walls.xy, edges])
    crossings = _crossings(lines)
    points = np.concatenate([corners, ends, crossings])
    on = (
        (points[:, 0] >= 0)
        & (points[:, 0] <= width)
        & (points[:, 1] >= 0)
        & (points[:, 1] <= height)
    )
    return np.unique(points[on], axis=0)


def _crossings(lines: np.ndarray) -> np.ndarray:
    """Where segments cross inside both (found with shapely's tree)."""
    if len(lines) < 2:
        return np.zeros((0, 2))
    geoms = shapely.linestrings(lines.reshape(-1, 2, 2))
    tree = shapely.STRtree(geoms)
    i, j = tree.query(geoms, predicate="crosses")
    keep = i < j
    i, j = i[keep], j[keep]
    if len(i) == 0:
        return np.zeros((0, 2))
    a, b = lines[i], lines[j]
    rx, ry = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
    sx, sy = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    den = rx * sy - ry * sx
    t = ((b[:, 0] - a[:, 0]) * sy - (b[:, 1] - a[:, 1]) * sx) / den
    return np.stack([a[:, 0] + t * rx, a[:, 1] + t * ry], axis=1)


# Eight directions, exact, so that no angle of the map's gap is left open for
# an origin on the map's edge.
_COMPASS = np.array(
    [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]], dtype=float
)


def _visibility(walls: _Walls, fan: _Fan, critical: np.ndarray, x, y, width, height) -> np.ndarray:
    """The visibility polygon from (x, y) inside the map [0, width] x [0, height],
    as its vertices counter-clockwise.

    One ray toward each critical point (and eight compass rays). Along a ray,
    the region just clockwise of it ends at the first wall crossing the ray or
    the first wall end on it whose wall leaves clockwise; likewise
    counter-clockwise. Between two consecutive rays the nearest wall does not
    change (no end or crossing lies between them), so the boundary there is
    straight: the polygon is these two points per ray, in angular order."""
    d = critical - (x, y)
    d = d[(d[:, 0] != 0) | (d[:, 1] != 0)]
    towards = len(d)
    d = np.concatenate([d, _COMPASS])
    dx, dy = d[:, 0], d[:, 1]
    angle = np.arctan2(dy, dx)
    length = np.hypot(dx, dy)
    scale = max(walls.scale, width, height) + 1.0
    n = len(d)
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(dx > 0, (width - x) / dx, np.where(dx < 0, -x / dx, np.inf))
        ty = np.where(dy > 0, (height - y) / dy, np.where(dy < 0, -y / dy, np.inf))
    exit_ = np.maximum(np.minimum(tx, ty), 0.0)
    cw, ccw = exit_.copy(), exit_.copy()
    q, w = fan.pairs(angle)
    if len(q):
        xy = walls.xy[w]
        ux, uy = xy[:, 0] - x, xy[:, 1] - y
        vx, vy = xy[:, 2] - x, xy[:, 3] - y
        rx, ry = dx[q], dy[q]
        near = 1e-10 * scale * length[q]
        c1, c2 = rx * uy - ry * ux, rx * vy - ry * vx
        s1 = np.where(np.abs(c1) <= near, 0, np.sign(c1))
        s2 = np.where(np.abs(c2) <= near, 0, np.sign(c2))
        dd = length[q] ** 2
        least = 1e-9 * scale / length[q]
        across = s1 * s2 < 0
        sx, sy = vx - ux, vy - uy
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(across, (ux * sy - uy * sx) / (rx * sy - ry * sx), np.inf)
        t = np.where(t > least, t, np.inf)
        np.minimum.at(cw, q, t)
        np.minimum.at(ccw, q, t)
        for s_on, s_other, ex, ey in ((s1, s2, ux, uy), (s2, s1, vx, vy)):
            t_end = (ex * rx + ey * ry) / dd
            touch = (s_on == 0) & (s_other != 0) & (t_end > least)
            left = touch & (s_other > 0)
            right = touch & (s_other < 0)
            np.minimum.at(ccw, q[left], t_end[left])
            np.minimum.at(cw, q[right], t_end[right])
    keep = np.ones(n, dtype=bool)
    keep[:towards] = np.maximum(cw[:towards], ccw[:towards]) >= 1 - 1e-9  # its point is in view
    order = np.flatnonzero(keep)[np.argsort(angle[keep], kind="stable")]
    # Rays in one direction (points in a row with the origin) give the same
    # two points: one of them is enough, and two would fold the ring back.
    order = order[np.diff(angle[order], prepend=-np.inf) > 0]
    pts = np.empty((2 * len(order), 2))
    pts[0::2, 0] = x + cw[order] * dx[order]
    pts[0::2, 1] = y + cw[order] * dy[order]
    pts[1::2, 0] = x + ccw[order] * dx[order]
    pts[1::2, 1] = y + ccw[order] * dy[order]
    step = np.abs(np.diff(pts, axis=0, append=pts[:1])).max(axis=1)
    return pts[step > 1e-9 * scale]


# ------------------------------------------------------------------ geometry

_DISC_ERROR = 0.01  # grid units: how far a drawn disc's edge may stand outside the circle


def disc(x, y, radius):
    """A polygon just containing the circle (every side touches it), so the
    view never leaves out a point within a radius."""
    r = float(radius)
    if r < 1e-6:  # nothing to draw (the rule still sees the centre itself)
        return EMPTY
    sides = int(min(256, max(24, math.ceil(math.pi / math.sqrt(2 * _DISC_ERROR / r)))))
    out = r / math.cos(math.pi / sides)
    a = (np.arange(sides) + 0.5) * (2 * math.pi / sides)
    return shapely.Polygon(np.stack([float(x) + out * np.cos(a), float(y) + out * np.sin(a)], 1))


def union(a, b, grid_size=None):
    return _valid(shapely.union(a, b, grid_size=grid_size))


def union_all(areas):
    return _valid(shapely.union_all([a for a in areas if not a.is_empty]))


def difference(a, b, grid_size=None):
    return _valid(shapely.difference(a, b, grid_size=grid_size))


def rect(x, y, w, h):
    return shapely.box(x, y, x + w, y + h)


def _polygons(geometry) -> list:
    if geometry is None or geometry.is_empty:
        return []
    if isinstance(geometry, shapely.Polygon):
        return [geometry]
    if isinstance(geometry, shapely.MultiPolygon | shapely.GeometryCollection):
        return [p for g in geometry.geoms for p in _polygons(g)]
    return []


def to_path(geometry, digits: int = 2) -> str:
    """An SVG path of a geometry's polygons: "M x y L x y ... Z" per ring,
    holes included, to be drawn with fill-rule evenodd; coordinates rounded
    to `digits`; "" when empty."""
    rings = []
    for polygon in _polygons(geometry):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.round(np.asarray(ring.coords)[:-1], digits)
            if len(coords) and np.all(coords[-1] == coords[0]):
                coords = coords[:-1]
            if len(coords):
                repeat = np.all(coords == np.roll(coords, 1, axis=0), axis=1)
                coords = coords[~repeat] if not repeat.all() else coords[:1]
            if len(coords) < 3:
                continue
            # Rounded already: %g writes it short ("3.5", "12"); six
            # significant digits hold any map's squares to the hundredth.
            words = " L ".join(f"{px:g} {py:g}" for px, py in coords.tolist())
            rings.append(f"M {words} Z")
    return " ".join(rings)


_PATH_TOKEN = re.compile(r"\s*(?:([MLZ])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?")


def from_path(text: str):
    """The geometry of an SVG path written by to_path (rings read with the
    even-odd rule). ValueError on anything else."""
    if not isinstance(text, str):
        raise ValueError("a path is text")
    tokens, at = [], 0
    while at < len(text):
        m = _PATH_TOKEN.match(text, at)
        if not m or m.end() == at:
            if text[at:].strip() == "":
                break
            raise ValueError(f"unexpected {text[at : at + 12]!r} at {at} in the path")
        tokens.append(m.group(1) or float(m.group(2)))
        at = m.end()
    rings, ring, i = [], None, 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "Z":
            if ring is None:
                raise ValueError("Z without a ring")
            rings.append(ring)
            ring, i = None, i + 1
        elif tok in ("M", "L"):
            if (tok == "M") != (ring is None):
                raise ValueError("a ring starts with M and goes on with L")
            if (
                i + 2 >= len(tokens)
                or isinstance(tokens[i + 1], str)
                or isinstance(tokens[i + 2], str)
            ):
                raise ValueError(f"{tok} needs two numbers")
            ring = (ring or []) + [(tokens[i + 1], tokens[i + 2])]
            i += 3
        else:
            raise ValueError("a number out of place in the path")
    if ring is not None:
        raise ValueError("a ring is not closed with Z")
    polygons = [_valid(shapely.Polygon(r)) for r in rings if len(r) >= 3]
    if not polygons:
        return EMPTY
    return _valid(reduce(shapely.symmetric_difference, polygons))


def touches(area, segment) -> bool:
    """Whether a segment (x1, y1, x2, y2) meets an area (a door within a
    token's reach)."""
    return area.intersects(shapely.LineString([segment[:2], segment[2:]]))
