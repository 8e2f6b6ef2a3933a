"""Range and sight between tokens on the 1" = 5' grid, on top of the rules'
grid functions (vtt.rules.grid), so the attack and the range bands the map
draws give the same category for the same squares.

Tokens may cover size x size squares. Distance and adjacency are measured
between the nearest squares of the two footprints; sight runs between the
centres of the footprints."""

from fractions import Fraction

from vtt.rules import grid, sight

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


def range_bands(origin_fp, weapon: dict, width: int, height: int, walls, diagonal: str) -> list:
    """The category of every square of the map for an attack from a token at
    `origin_fp` with `weapon`, as rows of one letter per square (a adjacent,
    n near, f far, o out of range): bands[y][x]. A square the attack would be
    refused at (out of range, or a spell without sight) is o."""
    letters = []
    for y in range(height):
        for x in range(width):
            a, b = nearest_squares(origin_fp, (x, y, 1))
            distance = grid.distance_ft(a, b, diagonal)
            letters.append(BAND_LETTERS[weapon_category(distance, grid.adjacent(a, b), weapon)])
    if weapon.get("kind") == "spell":  # only a spell needs sight (see refusal())
        # Sight between square centres, all lines from one origin at once.
        in_reach = [i for i, letter in enumerate(letters) if letter != "o"]
        half = Fraction(1, 2)
        cx, cy = centre(origin_fp)
        points = [(i % width + 0.5, i // width + 0.5) for i in in_reach]
        for i, clear in zip(
            in_reach, sight.in_sight((cx + half, cy + half), points, walls), strict=True
        ):
            if not clear:
                letters[i] = "o"
    return ["".join(letters[y * width : (y + 1) * width]) for y in range(height)]
