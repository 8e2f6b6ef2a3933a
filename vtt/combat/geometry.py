"""Range and sight between tokens on the 1" = 5' grid, on top of the rules'
grid functions (vtt.rules.grid), so the attack and the range bands the map
draws give the same category for the same squares.

Tokens may cover size x size squares. Distance and adjacency are measured
between the nearest squares of the two footprints; sight runs between the
centres of the footprints."""

import math
from fractions import Fraction

from vtt.rules import grid

BAND_LETTERS = {"adjacent": "a", "near": "n", "far": "f", "out_of_range": "o"}


def footprint(token) -> tuple[int, int, int]:
    return token.x, token.y, token.size


def _nearest(a_lo: int, a_size: int, b_lo: int, b_size: int) -> tuple[int, int]:
    """The closest pair of coordinates of two runs of squares on one axis."""
    a_hi, b_hi = a_lo + a_size - 1, b_lo + b_size - 1
    if a_hi < b_lo:
        return a_hi, b_lo
    if b_hi < a_lo:
        return a_lo, b_hi
    meet = max(a_lo, b_lo)
    return meet, meet


def nearest_squares(a, b) -> tuple[tuple[int, int], tuple[int, int]]:
    (ax, ay, asize), (bx, by, bsize) = a, b
    x1, x2 = _nearest(ax, asize, bx, bsize)
    y1, y2 = _nearest(ay, asize, by, bsize)
    return (x1, y1), (x2, y2)


def centre(fp):
    """The footprint's centre as a (possibly fractional) square, the form
    grid.line_of_sight takes: square (x, y) has its centre at x + 1/2."""
    x, y, size = fp
    half = Fraction(size - 1, 2) if size % 2 == 0 else (size - 1) // 2
    return (x + half, y + half)


def weapon_category(distance_ft: int, adjacent: bool, weapon: dict) -> str:
    """The range category of a target for this weapon, sight aside.

    A melee weapon reaches the adjacent squares only, or with a listed reach R
    also anything within R (no Far band: a spear is not thrown). Missile
    weapons and spells use the rules' categories."""
    range_ft = weapon.get("range_ft")
    if weapon.get("kind") == "melee":
        if adjacent:
            return "adjacent"
        if isinstance(range_ft, int) and distance_ft <= range_ft:
            return "near"
        return "out_of_range"
    return grid.range_category(distance_ft, range_ft, adjacent, True)


def measure(attacker_fp, target_fp, weapon: dict, walls, diagonal: str) -> dict:
    a, b = nearest_squares(attacker_fp, target_fp)
    distance = grid.distance_ft(a, b, diagonal)
    adjacent = grid.adjacent(a, b)
    sight = grid.line_of_sight(centre(attacker_fp), centre(target_fp), walls)
    category = weapon_category(distance, adjacent, weapon)
    return {
        "distance_ft": distance,
        "adjacent": adjacent,
        "category": category,
        "line_of_sight": sight,
        "diagonal": diagonal,
        "range_ft": weapon.get("range_ft"),
        "kind": weapon.get("kind"),
    }


def refusal(measured: dict) -> tuple[str, str] | None:
    """(code, message) when the attack cannot be made from here, else None."""
    if measured["category"] == "out_of_range":
        return "out_of_range", (
            f"the target is out of range ({measured['distance_ft']} ft): no attack can be made"
        )
    if measured["kind"] == "spell" and not measured["line_of_sight"]:
        return "no_line_of_sight", "the caster cannot see the target: a wall is in the way"
    return None


# ------------------------------------------------------------ range bands

_BINS = 1024
_BIN_WIDTH = 2 * math.pi / _BINS
_EPS = 1e-7


class _SightIndex:
    """Which walls could touch the sight line from one origin to a square.

    Walls are filed by the directions they cover as seen from the origin (with
    a margin); a sight line can only meet walls filed under its own direction
    and no farther away than its end. The exact test is grid.line_of_sight on
    those few walls, so the answer is the same as testing every wall."""

    def __init__(self, origin, walls):
        self.origin = origin
        self.ox, self.oy = float(2 * origin[0] + 1), float(2 * origin[1] + 1)
        self.bins: list[list] = [[] for _ in range(_BINS)]
        self.everywhere: list = []
        for wall in grid.prepare_walls(walls):
            self._file(wall)
        for walls_here in self.bins:
            walls_here.sort(key=lambda item: item[0])

    def _file(self, wall) -> None:
        px, py, qx, qy = (float(v) for v in wall)
        ax, ay, bx, by = px - self.ox, py - self.oy, qx - self.ox, qy - self.oy
        reach = _distance_to_segment(ax, ay, bx, by)
        if reach < 1e-6:
            self.everywhere.append(wall)  # the wall runs through the origin
            return
        a1, a2 = math.atan2(ay, ax), math.atan2(by, bx)
        span = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi
        start = a1 if span >= 0 else a2
        lo = math.floor((start - _EPS + math.pi) / _BIN_WIDTH)
        hi = math.floor((start + abs(span) + _EPS + math.pi) / _BIN_WIDTH)
        for b in range(lo, hi + 1):
            self.bins[b % _BINS].append((reach - 1e-6, wall))

    def visible(self, square) -> bool:
        tx, ty = 2 * square[0] + 1 - self.ox, 2 * square[1] + 1 - self.oy
        if tx == 0 and ty == 0:
            return True
        far = math.hypot(tx, ty)
        b = math.floor((math.atan2(ty, tx) + math.pi) / _BIN_WIDTH) % _BINS
        near = [w for reach, w in self.bins[b] if reach <= far]
        near.extend(self.everywhere)
        return not near or grid.line_of_sight(self.origin, square, near, prepared=True)


def _distance_to_segment(ax, ay, bx, by) -> float:
    """Distance from (0, 0) to the segment a-b."""
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length))
    return math.hypot(ax + t * dx, ay + t * dy)


def range_bands(origin_fp, weapon: dict, width: int, height: int, walls, diagonal: str) -> list:
    """The category of every square of the map for an attack from a token at
    `origin_fp` with `weapon`, as rows of one letter per square (a adjacent,
    n near, f far, o out of range): bands[y][x]. A square the attack would be
    refused at (out of range, or a spell without sight) is o."""
    # Only a spell needs sight (see refusal()).
    sight = _SightIndex(centre(origin_fp), walls) if weapon.get("kind") == "spell" else None
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            a, b = nearest_squares(origin_fp, (x, y, 1))
            distance = grid.distance_ft(a, b, diagonal)
            category = weapon_category(distance, grid.adjacent(a, b), weapon)
            if category != "out_of_range" and sight is not None and not sight.visible((x, y)):
                category = "out_of_range"
            row.append(BAND_LETTERS[category])
        rows.append("".join(row))
    return rows
