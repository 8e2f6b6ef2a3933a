"""Request fields Artifice needs beyond the generic ones: optional values that
may be sent as null, grid squares and walls, listed ranges, and the
campaign's condition track."""

import math

from vtt.rules.errors import invalid
from vtt.rules.grid import LINE_OF_SIGHT
from vtt.rules.schema import Field, Int, Obj

COORD_LIMIT = 10_000  # squares and wall ends stay within +-this many grid units
MAX_WALLS = 5_000
MAX_RANGE_FT = 5_000
MAX_NAME = 40

STANDARD_TRACK = ("Healthy", "Hurt", "Injured", "Wounded", "Critical", "Incapacitated", "Dead")


class Nullable(Field):
    """An optional field where null means the same as leaving it out."""

    def __init__(self, inner: Field):
        super().__init__(None)
        self.inner = inner

    def clean(self, value, path):
        return None if value is None else self.inner.clean(value, path)


class Square(Field):
    """A grid square [x, y]."""

    def clean(self, value, path):
        if (
            type(value) is not list
            or len(value) != 2
            or any(type(v) is not int or abs(v) > COORD_LIMIT for v in value)
        ):
            raise invalid(
                path, f"{path} must be a square [x, y] of whole numbers within ±{COORD_LIMIT}"
            )
        return (value[0], value[1])


def _number(v) -> bool:
    return (type(v) is int or (type(v) is float and math.isfinite(v))) and abs(v) <= COORD_LIMIT


class Walls(Field):
    """Wall segments [[x1, y1, x2, y2], ...] in grid units."""

    def __init__(self):
        super().__init__(())

    def clean(self, value, path):
        if type(value) is not list or len(value) > MAX_WALLS:
            raise invalid(path, f"{path} must be a list of at most {MAX_WALLS} walls")
        for i, wall in enumerate(value):
            if type(wall) is not list or len(wall) != 4 or not all(map(_number, wall)):
                raise invalid(
                    f"{path}[{i}]",
                    f"{path}[{i}] must be a wall [x1, y1, x2, y2] of numbers within ±{COORD_LIMIT}",
                )
        return value


class RangeFt(Field):
    """A listed range in whole feet, null for no listed range, or
    "line_of_sight" for a spell that reaches whatever can be seen."""

    def __init__(self):
        super().__init__(None)

    def clean(self, value, path):
        if value is None or value == LINE_OF_SIGHT:
            return value
        if type(value) is not int or not 0 <= value <= MAX_RANGE_FT:
            raise invalid(
                path,
                f"{path} must be whole feet from 0 to {MAX_RANGE_FT}, null, or {LINE_OF_SIGHT!r}",
            )
        return value


class Name(Field):
    """A short non-empty name."""

    def clean(self, value, path):
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
            raise invalid(path, f"{path} must be a name of 1 to {MAX_NAME} characters")
        return value


class ConditionTrack(Field):
    """The campaign's condition track, best to worst: 3 to 12 distinct names.
    The second-to-last is Incapacitated, the last Dead, whatever they are called."""

    def __init__(self):
        super().__init__(STANDARD_TRACK)

    def clean(self, value, path):
        if type(value) is not list or not 3 <= len(value) <= 12:
            raise invalid(path, f"{path} must be a list of 3 to 12 condition names")
        names = Name()
        track = tuple(names.clean(v, f"{path}[{i}]") for i, v in enumerate(value))
        if len(set(track)) != len(track):
            raise invalid(path, f"{path} must not name a condition twice")
        return track


class Side(Obj):
    """One side of a Test, {pool, modifier}. Valid sides take a single pass
    (every Test checks two); anything else goes through the generic checks so
    the errors are the usual ones."""

    def __init__(self, max_pool: int, max_modifier: int):
        super().__init__(
            {"pool": Int(0, max_pool), "modifier": Int(-max_modifier, max_modifier, default=0)}
        )
        self.max_pool, self.max_modifier = max_pool, max_modifier

    def clean(self, value, path):
        if type(value) is dict and len(value) <= 2:
            pool = value.get("pool")
            modifier = value.get("modifier", 0)
            if (
                type(pool) is int
                and type(modifier) is int
                and 0 <= pool <= self.max_pool
                and -self.max_modifier <= modifier <= self.max_modifier
                and (len(value) == 1 or "modifier" in value)
            ):
                return {"pool": pool, "modifier": modifier}
        return super().clean(value, path)
