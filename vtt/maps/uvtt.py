"""A Universal VTT file (`.dd2vtt`, `.uvtt`, `.df2vtt`: one JSON format,
written by Dungeondraft, Dungeon Alchemist and DungeonFog) read and judged
whole before anything is stored. Every refusal is a ServiceError on the
upload's field, naming where in the file it is and the limit passed.

Coordinates in the file are in grid squares from `resolution.map_origin`;
here they are from the map's top-left corner, as a scene's walls are."""

import base64
import binascii
import json
import math
from dataclasses import dataclass

from vtt.core.errors import ServiceError

# The versions of the format this reader knows (Dungeondraft writes 0.3,
# older exports 0.2; 0.1 has the same fields).
FORMATS = (0.1, 0.2, 0.3)
# How far past the map's edge a point may lie and be put on it: exports
# round their floats.
EDGE = 1e-3
# The light's colour when the file gives none, and the most intensity kept.
WHITE = "#ffffff"
MAX_INTENSITY = 100.0
# The ambient light's brightness (0..1) from which a scene is lit, or dim.
LIT_FROM, DIM_FROM = 0.75, 0.3


@dataclass(frozen=True)
class Limits:
    """What a file may hold; the settings' MAP_IMPORT_* give them."""

    max_bytes: int
    max_segments: int
    max_portals: int
    max_lights: int
    max_depth: int
    max_side: int  # squares, a scene's largest side


@dataclass(frozen=True)
class Portal:
    """A door: the segment between its bounds, closed or open."""

    x1: float
    y1: float
    x2: float
    y2: float
    closed: bool
    freestanding: bool


@dataclass(frozen=True)
class MapLight:
    x: float
    y: float
    range: float  # squares
    intensity: float
    color: str  # "#rrggbb"
    shadows: bool


@dataclass(frozen=True)
class UvttMap:
    format: float
    width: int  # squares
    height: int
    pixels_per_grid: float
    # Polylines of (x, y) points in squares: line_of_sight, then
    # objects_line_of_sight.
    polylines: tuple
    segments: int  # how many segments the polylines hold
    portals: tuple
    lights: tuple
    lighting: str  # "lit", "dim" or "dark"
    baked_lighting: bool
    image: bytes


def refusal(message: str, field: str = "file") -> ServiceError:
    return ServiceError("bad_map", message, field)


def _no_constant(name: str):
    raise refusal(f"the file holds {name}, which is not a number")


def read(data: bytes, limits: Limits) -> UvttMap:
    """The map a file holds, or a refusal saying why not."""
    if len(data) > limits.max_bytes:
        raise refusal(too_large(len(data), limits.max_bytes))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refusal("the file is not a Universal VTT map: it is not UTF-8 text") from None
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise refusal(_too_deep(limits)) from None
    except ValueError as error:
        raise refusal(f"the file is not a Universal VTT map: not JSON ({error})") from None
    if not isinstance(doc, dict):
        raise refusal("the file is not a Universal VTT map: it must be a JSON object")
    reader = _Reader(limits)
    reader.count(doc)  # the cheap refusals first
    _check_depth(doc, limits)
    return reader.map(doc)


def too_large(size: int, most: int) -> str:
    return f"the file is {_mb(size)}; a map file may be at most {_mb(most)} (MAP_IMPORT_MAX_BYTES)"


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def _too_deep(limits: Limits) -> str:
    return (
        f"the file nests lists and objects more than {limits.max_depth} deep (MAP_IMPORT_MAX_DEPTH)"
    )


def _check_depth(doc, limits: Limits) -> None:
    """Refuse nesting past the limit, one level at a time (a loop: the junk
    may be nested deep)."""
    level, depth = [doc], 0
    while level:
        depth += 1
        if depth > limits.max_depth:
            raise refusal(_too_deep(limits))
        inner = []
        for item in level:
            values = item.values() if type(item) is dict else item
            inner += [value for value in values if type(value) in _NESTS]
        level = inner


_NESTS = (dict, list)


class _Reader:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.origin = (0.0, 0.0)
        self.width = self.height = 0

    # Values ---------------------------------------------------------------

    def number(self, value, path: str, lo: float = -math.inf, hi: float = math.inf) -> float:
        if type(value) not in (int, float):
            raise refusal(f"{path} must be a number")
        if not math.isfinite(value):
            raise refusal(f"{path} must be a finite number, not {value}")
        if not lo <= value <= hi:
            raise refusal(f"{path} must be between {lo:g} and {hi:g}, not {value:g}")
        return float(value)

    def flag(self, value, path: str, default: bool) -> bool:
        if value is None:
            return default
        if type(value) is not bool:
            raise refusal(f"{path} must be true or false")
        return value

    def obj(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            raise refusal(f"{path} must be an object")
        return value

    def items(self, value, path: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise refusal(f"{path} must be a list")
        return value

    def point(self, value, path: str) -> tuple[float, float]:
        """A point of the map, from its top-left corner."""
        value = self.obj(value, path)
        x = self.number(value.get("x"), f"{path}.x") - self.origin[0]
        y = self.number(value.get("y"), f"{path}.y") - self.origin[1]
        if not (-EDGE <= x <= self.width + EDGE and -EDGE <= y <= self.height + EDGE):
            raise refusal(
                f"{path} ({x:g}, {y:g}) is outside the map of {self.width} x {self.height} squares"
            )
        return min(max(x, 0.0), self.width), min(max(y, 0.0), self.height)

    def color(self, value, path: str, default: str) -> tuple[str, float]:
        """A colour written AARRGGBB (or RRGGBB), as #rrggbb and its alpha."""
        if value is None:
            return default, 1.0
        if not isinstance(value, str) or len(value) not in (6, 8):
            raise refusal(f'{path} must be a colour written AARRGGBB in hex, like "ffffffff"')
        try:
            int(value, 16)
        except ValueError:
            raise refusal(
                f"{path} must be a colour written AARRGGBB in hex, not {value!r}"
            ) from None
        alpha = int(value[:2], 16) / 255 if len(value) == 8 else 1.0
        return "#" + value[-6:].lower(), alpha

    # The file -------------------------------------------------------------

    def count(self, doc: dict) -> None:
        """Refuse a file with more walls, portals or lights than the limits
        before a point of it is read."""
        segments = 0
        for name in ("line_of_sight", "objects_line_of_sight"):
            for line in self.items(doc.get(name), name):
                if isinstance(line, list):
                    segments += max(0, len(line) - 1)
        if segments > self.limits.max_segments:
            raise refusal(
                f"the file has {segments:,} wall segments; a map may have at most "
                f"{self.limits.max_segments:,} (MAP_IMPORT_MAX_SEGMENTS)"
            )
        for name, most, setting in (
            ("portals", self.limits.max_portals, "MAP_IMPORT_MAX_PORTALS"),
            ("lights", self.limits.max_lights, "MAP_IMPORT_MAX_LIGHTS"),
        ):
            found = len(self.items(doc.get(name), name))
            if found > most:
                raise refusal(
                    f"the file has {found:,} {name}; a map may have at most {most:,} ({setting})"
                )

    def map(self, doc: dict) -> UvttMap:
        version = self.format(doc.get("format"))
        self.resolution(doc.get("resolution"))
        polylines, segments = self.walls(doc)
        return UvttMap(
            format=version,
            width=self.width,
            height=self.height,
            pixels_per_grid=self.pixels_per_grid,
            polylines=polylines,
            segments=segments,
            portals=self.portals(doc.get("portals")),
            lights=self.lights(doc.get("lights")),
            **self.environment(doc.get("environment")),
            image=self.image(doc.get("image")),
        )

    def format(self, value) -> float:
        if value is None:
            raise refusal("the file is not a Universal VTT map: it has no format")
        if type(value) in (int, float) and any(abs(value - known) < 1e-9 for known in FORMATS):
            return float(value)
        known = ", ".join(f"{v:g}" for v in FORMATS)
        raise refusal(f"format {value!r} is not one this server reads ({known})")

    def resolution(self, value) -> None:
        if value is None:
            raise refusal("the file has no resolution: its grid is unknown")
        value = self.obj(value, "resolution")
        origin = self.obj(value.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin")
        self.origin = (
            self.number(origin.get("x"), "resolution.map_origin.x"),
            self.number(origin.get("y"), "resolution.map_origin.y"),
        )
        size = self.obj(value.get("map_size"), "resolution.map_size")
        side = self.limits.max_side
        sides = []
        for axis in ("x", "y"):
            path = f"resolution.map_size.{axis}"
            squares = self.number(size.get(axis), path)
            if squares <= 0:
                raise refusal(f"{path} must be more than 0 squares, not {squares:g}")
            if math.ceil(squares - EDGE) > side:
                raise refusal(
                    f"{path} is {squares:g} squares; a scene has at most {side} squares a side"
                )
            sides.append(max(1, math.ceil(squares - EDGE)))
        self.width, self.height = sides
        self.pixels_per_grid = self.number(
            value.get("pixels_per_grid"), "resolution.pixels_per_grid", 1, 10_000
        )

    def walls(self, doc: dict) -> tuple[tuple, int]:
        lines = []
        for name in ("line_of_sight", "objects_line_of_sight"):
            for i, line in enumerate(self.items(doc.get(name), name)):
                lines.append((f"{name}[{i}]", self.items(line, f"{name}[{i}]")))
        segments = sum(max(0, len(points) - 1) for _, points in lines)
        polylines = []
        for path, points in lines:
            if len(points) < 2:
                raise refusal(f"{path}: a wall needs at least two points, not {len(points)}")
            polylines.append(tuple(self.point(p, f"{path}[{j}]") for j, p in enumerate(points)))
        return tuple(polylines), segments

    def portals(self, value) -> tuple:
        portals = self.items(value, "portals")
        doors = []
        for i, portal in enumerate(portals):
            path = f"portals[{i}]"
            portal = self.obj(portal, path)
            if "position" in portal:
                self.point(portal["position"], f"{path}.position")
            if "rotation" in portal:
                self.number(portal["rotation"], f"{path}.rotation")
            bounds = self.items(portal.get("bounds"), f"{path}.bounds")
            if len(bounds) != 2:
                raise refusal(f"{path}.bounds must be two points, not {len(bounds)}")
            (x1, y1), (x2, y2) = (
                self.point(b, f"{path}.bounds[{j}]") for j, b in enumerate(bounds)
            )
            if math.isclose(x1, x2, abs_tol=1e-9) and math.isclose(y1, y2, abs_tol=1e-9):
                raise refusal(f"{path}.bounds: a door needs two different ends")
            doors.append(
                Portal(
                    x1,
                    y1,
                    x2,
                    y2,
                    closed=self.flag(portal.get("closed"), f"{path}.closed", True),
                    freestanding=self.flag(
                        portal.get("freestanding"), f"{path}.freestanding", False
                    ),
                )
            )
        return tuple(doors)

    def lights(self, value) -> tuple:
        lights = self.items(value, "lights")
        reach = 2 * self.limits.max_side
        found = []
        for i, light in enumerate(lights):
            path = f"lights[{i}]"
            light = self.obj(light, path)
            x, y = self.point(light.get("position"), f"{path}.position")
            color, _alpha = self.color(light.get("color"), f"{path}.color", WHITE)
            found.append(
                MapLight(
                    x,
                    y,
                    range=self.number(light.get("range"), f"{path}.range", 0, reach),
                    intensity=self.number(
                        light.get("intensity", 1.0), f"{path}.intensity", 0, MAX_INTENSITY
                    ),
                    color=color,
                    shadows=self.flag(light.get("shadows"), f"{path}.shadows", True),
                )
            )
        return tuple(found)

    def environment(self, value) -> dict:
        """The scene's light: lit, dim or dark from the ambient light's
        brightness (its alpha times its luminance); whether the picture has
        its lighting painted in."""
        if value is None:
            return {"lighting": "lit", "baked_lighting": False}
        value = self.obj(value, "environment")
        baked = self.flag(value.get("baked_lighting"), "environment.baked_lighting", False)
        color, alpha = self.color(value.get("ambient_light"), "environment.ambient_light", WHITE)
        red, green, blue = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
        brightness = alpha * (0.2126 * red + 0.7152 * green + 0.0722 * blue)
        lighting = "lit" if brightness >= LIT_FROM else "dim" if brightness >= DIM_FROM else "dark"
        return {"lighting": lighting, "baked_lighting": baked}

    def image(self, value) -> bytes:
        if value is None or value == "":
            raise refusal("the file carries no image: the map's picture is missing")
        if not isinstance(value, str):
            raise refusal("image must be the picture in base64")
        if value.startswith("data:") and "," in value:
            value = value.split(",", 1)[1]  # a data URL's header
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            pass
        try:  # some writers wrap the base64 in lines
            return base64.b64decode("".join(value.split()), validate=True)
        except (binascii.Error, ValueError):
            raise refusal("image is not base64: the map's picture cannot be read") from None
