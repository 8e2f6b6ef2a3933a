"""A scene's light as sight reads it: the map's lights that are on, the
lights its tokens carry (at their centres: they go where the token goes),
and in a dim scene how far every eye sees without any light.

Seeing needs light, bright or dim alike: a light lights out to its dim
radius (`bright` only changes how the map draws it). A hidden token's light
lights nothing, or a player would learn where it stands."""

from vtt.rules import sight
from vtt.tabletop.models import Light

from .eyes import SQUARE_FT, centre

# A dim scene (dusk, moonlight, a cave mouth): every token sees what is in
# its line of sight this far without a light; beyond it only what a light
# reaches or its own dark vision (`sight_ft`). docs/vision.md.
DIM_SIGHT_FT = 60

LIGHT_COLUMNS = ("id", "token_id", "x", "y", "bright", "dim", "shadows")


def ambient(scene) -> float:
    """How far every eye sees without light on `scene`, in squares."""
    return DIM_SIGHT_FT / SQUARE_FT if scene.lighting == "dim" else 0


def lights_on(scene_id: int) -> list[dict]:
    """The scene's lights that are on, in one query."""
    return list(Light.objects.filter(scene_id=scene_id, on=True).values(*LIGHT_COLUMNS))


def carriers(lights: list[dict]) -> set[int]:
    """The tokens carrying a light that is on: moving one relights the scene."""
    return {light["token_id"] for light in lights if light["token_id"] is not None}


def sight_lights(lights: list[dict], tokens: list[dict]) -> list[sight.Light]:
    """The scene's lights as sight.Light: the lights that are on, and the
    plain `light_ft` a token may carry."""
    by_id = {t["id"]: t for t in tokens}
    out = [
        sight.Light(*centre(t), t["light_ft"] / SQUARE_FT)
        for t in tokens
        if t["light_ft"] and not t["hidden"]
    ]
    for light in lights:
        reach = max(light["bright"], light["dim"])
        if light["token_id"] is None:
            out.append(sight.Light(light["x"], light["y"], reach, light["shadows"]))
            continue
        token = by_id.get(light["token_id"])
        if token is not None and not token["hidden"]:
            out.append(sight.Light(*centre(token), reach, light["shadows"]))
    return out
