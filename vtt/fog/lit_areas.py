"""The lit areas the map draws on a dim or dark scene: each light's bright
and dim area (its visibility polygon within each radius when it casts
shadows), tinted by its colour. The GM gets every light's whole area; a
sight group only what it sees of them, cut to its view, and never where a
light stands: an area it cannot see tells it nothing of the light.

A light a token carries shines from the token's centre; a hidden token's
lights nothing (vtt.fog.lights). A token's plain `light_ft` is a torch."""

import json

import shapely

from vtt.rules import sight
from vtt.tabletop.models import Light, Scene, Token
from vtt.tabletop.walls import sight_walls

from .eyes import SQUARE_FT, centre
from .lights import LIGHT_COLUMNS

TORCH = "#ffb347"  # a token's plain light_ft has no colour of its own
TOKEN_COLUMNS = ("id", "x", "y", "size", "hidden", "light_ft")

# Each scene's walls as geometry, kept between frames: a light's area is
# its visibility polygon, which the walls alone decide.
_WALLS = sight.Kept(16)
# And each light's area under those walls: a frame redraws the lights that
# did not move from here (a light that moved, or other walls, is a new key).
_AREAS = sight.Kept(2048)


def _walls(scene):
    """The scene's walls as geometry, and the key they are kept under."""
    text = json.dumps(scene.walls or [])
    key = (scene.pk, scene.width, scene.height, text)

    def make():
        return sight.Sight(sight_walls(scene.walls, text), scene.width, scene.height, True)

    return _WALLS.get_or(key, make), key


def _area(walls, key, light: sight.Light, radius: float):
    at = (key, light.x, light.y, radius, light.shadows)
    return _AREAS.get_or(at, lambda: walls.light_area(light, radius))


def scene_tokens(scene_id: int) -> list[dict]:
    """What the lights need of the scene's tokens (a carried light's place)."""
    return list(Token.objects.filter(scene_id=scene_id).values(*TOKEN_COLUMNS))


def _shining(scene_id: int, tokens: list[dict]) -> list[tuple[sight.Light, float, str]]:
    """Each light that is on, as (sight.Light to its dim reach, bright
    radius, colour)."""
    by_id = {t["id"]: t for t in tokens}
    out = []
    for t in tokens:
        if t["light_ft"] and not t["hidden"]:
            reach = t["light_ft"] / SQUARE_FT
            out.append((sight.Light(*centre(t), reach), reach, TORCH))
    rows = Light.objects.filter(scene_id=scene_id, on=True).values(*LIGHT_COLUMNS, "color")
    for row in rows:
        reach = max(row["bright"], row["dim"])
        at = (row["x"], row["y"])
        if row["token_id"] is not None:
            token = by_id.get(row["token_id"])
            if token is None or token["hidden"]:
                continue
            at = centre(token)
        out.append((sight.Light(*at, reach, row["shadows"]), row["bright"], row["color"]))
    return out


def _areas(scene, tokens: list[dict]) -> list[tuple[str, object, object]]:
    """Each shining light's (colour, bright area, dim area) as shapes."""
    walls, key = _walls(scene)
    out = []
    for light, bright, color in _shining(scene.pk, tokens):
        dim = _area(walls, key, light, light.radius)
        if dim.is_empty:
            continue
        out.append((color, _area(walls, key, light, min(bright, light.radius)), dim))
    return out


def _drawn(areas, within=None) -> list[dict]:
    """The areas as the map draws them, cut to `within` when given; a light
    nothing of which falls inside it is left out."""
    out = []
    for color, lit, dim in areas:
        if within is not None:
            if not shapely.intersects(dim, within):
                continue
            dim = shapely.intersection(dim, within)
            lit = shapely.intersection(lit, within)
        if dim.is_empty or dim.area <= 0:
            continue
        out.append({"color": color, "bright": sight.to_path(lit), "dim": sight.to_path(dim)})
    return out


def lit_areas(scene, tokens: list[dict] | None = None) -> list[dict]:
    """The scene's lit areas, whole, as the GM's map draws them:
    [{color, bright, dim}] with SVG paths in squares, the dim one taking in
    the bright. None on a lit scene: nothing to draw."""
    if scene.lit:
        return []
    return _drawn(_areas(scene, scene_tokens(scene.pk) if tokens is None else tokens))


def seen_by(scene_id: int, views: dict[str, str]) -> dict[str, list[dict]]:
    """Each group's lit areas, cut to its view (an SVG path): none on a lit
    scene, none for a group that sees nothing. Each light's area is worked
    out once for all the groups."""
    scene = Scene.objects.get(pk=scene_id)
    if scene.lit or not any(views.values()):
        return {group: [] for group in views}
    areas = _areas(scene, scene_tokens(scene_id))
    return {
        group: _drawn(areas, sight.from_path(view)) if view and areas else []
        for group, view in views.items()
    }
