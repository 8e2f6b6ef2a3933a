"""Geometry of the 1" = 5' battle map: distance, range categories, line of
sight and range bands. Pure functions, shared by the adjudicator, the battle
map and combat.

Square (x, y) covers [x, x+1] x [y, y+1] in grid units; a wall is a segment
(x1, y1, x2, y2) in the same units. Sight runs from the centre of one square
to the centre of the other.
"""

from fractions import Fraction

SQUARE_FT = 5
NO_LISTED_RANGE_FT = 30  # Near without a listed range
NO_LISTED_FAR_LIMIT_FT = 100  # Far without a listed range is under this
LINE_OF_SIGHT = "line_of_sight"
DIAGONALS = ("uniform", "alternating")
CATEGORIES = ("adjacent", "near", "far", "out_of_range")


def distance_ft(a, b, diagonal: str = "uniform") -> int:
    """Feet between squares a and b. `uniform`: every step, diagonal or not,
    is 5 ft. `alternating`: every second diagonal step costs 10 ft (5-10-5)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    far, near = (dx, dy) if dx >= dy else (dy, dx)
    if diagonal == "uniform":
        return SQUARE_FT * far
    if diagonal == "alternating":
        return SQUARE_FT * (far + near // 2)
    raise ValueError(f"diagonal must be one of {', '.join(DIAGONALS)}")


def adjacent(a, b) -> bool:
    """Squares touching by side or corner (or the same square)."""
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def range_category(distance_ft: int, range_ft, adjacent: bool, visible: bool = True) -> str:
    """adjacent | near | far | out_of_range for a weapon or spell.

    range_ft: listed range in feet; None for no listed range (Near up to 30 ft,
    Far under 100 ft); "line_of_sight" for a spell that reaches whatever can be
    seen (Near when `visible`, else out of range)."""
    if range_ft == LINE_OF_SIGHT:
        if not visible:
            return "out_of_range"
        return "adjacent" if adjacent else "near"
    if adjacent:
        return "adjacent"
    if range_ft is None:
        if distance_ft <= NO_LISTED_RANGE_FT:
            return "near"
        return "far" if distance_ft < NO_LISTED_FAR_LIMIT_FT else "out_of_range"
    if distance_ft <= range_ft:
        return "near"
    return "far" if distance_ft <= 2 * range_ft else "out_of_range"


def doubled(v):
    """A coordinate in the doubled exact units line of sight works in: doubled
    so square centres (x + 1/2) are whole; floats kept exact too."""
    return 2 * v if type(v) is int else 2 * Fraction(v)


def _orient(ax, ay, bx, by, px, py):
    """> 0 when p is left of a->b, < 0 right, 0 on the line."""
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


def _sign(v) -> int:
    return (v > 0) - (v < 0)


def prepare_walls(walls) -> list:
    """Walls in the doubled exact units line_of_sight works in; zero-length
    walls are dropped (a point hides nothing)."""
    out = []
    for x1, y1, x2, y2 in walls:
        w = (doubled(x1), doubled(y1), doubled(x2), doubled(y2))
        if w[:2] != w[2:]:
            out.append(w)
    return out


def line_of_sight(a, b, walls, prepared: bool = False) -> bool:
    """Whether the centre-to-centre segment from square a to square b is clear.

    It is blocked when it crosses a wall: passes through a wall's inside from
    one side to the other, or passes through a point where walls end with
    walls leaving that point on both sides of the segment (a straight wall
    drawn as two pieces, the closed corner of a room). It is not blocked when
    it only grazes a wall end or a corner whose walls all stay on one side,
    when it runs along a wall, or when a wall touches only its own end points
    (the centres of the two squares)."""
    ax, ay = 2 * a[0] + 1, 2 * a[1] + 1
    bx, by = 2 * b[0] + 1, 2 * b[1] + 1
    return clear_between(ax, ay, bx, by, walls if prepared else prepare_walls(walls))


def clear_between(ax, ay, bx, by, walls) -> bool:
    """line_of_sight's rule for the segment between any two points a and b,
    given in doubled units (`doubled`), against prepared walls."""
    if (ax, ay) == (bx, by):
        return True
    lo_x, hi_x = min(ax, bx), max(ax, bx)
    lo_y, hi_y = min(ay, by), max(ay, by)
    touches: dict = {}  # wall end on the segment's inside -> sides its walls leave to
    for px, py, qx, qy in walls:
        if max(px, qx) < lo_x or min(px, qx) > hi_x or max(py, qy) < lo_y or min(py, qy) > hi_y:
            continue
        op = _orient(ax, ay, bx, by, px, py)
        oq = _orient(ax, ay, bx, by, qx, qy)
        if op * oq < 0:
            oa = _orient(px, py, qx, qy, ax, ay)
            ob = _orient(px, py, qx, qy, bx, by)
            if oa * ob < 0:
                return False  # a proper crossing
            continue  # the wall meets the segment at one of its own ends, or misses
        for o, ex, ey, other in ((op, px, py, oq), (oq, qx, qy, op)):
            if o == 0 and other != 0 and _inside(ax, ay, bx, by, ex, ey):
                sides = touches.setdefault((ex, ey), set())
                sides.add(_sign(other))
                if len(sides) == 2:
                    return False
    return True


def _inside(ax, ay, bx, by, px, py) -> bool:
    """p (known to be on the line a-b) lies strictly between a and b."""
    if ax != bx:
        return min(ax, bx) < px < max(ax, bx)
    return min(ay, by) < py < max(ay, by)


def range_bands(origin, range_ft, width: int, height: int, walls=(), diagonal="uniform") -> list:
    """The category of every square of a width x height map seen from `origin`,
    as rows: bands[y][x]. Walls matter only for a `line_of_sight` range, as in
    the adjudicator's `range` action."""
    sight = range_ft == LINE_OF_SIGHT
    prepared = prepare_walls(walls) if sight else ()
    bands = []
    for y in range(height):
        row = []
        for x in range(width):
            sq = (x, y)
            row.append(
                range_category(
                    distance_ft(origin, sq, diagonal),
                    range_ft,
                    adjacent(origin, sq),
                    line_of_sight(origin, sq, prepared, prepared=True) if sight else True,
                )
            )
        bands.append(row)
    return bands
