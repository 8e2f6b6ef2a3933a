"""Lights on a scene: the GM places, moves, changes and removes them; a
token's owner (or the GM) turns the light it carries on and off. Each
change is a `light.changed` event; on a fog scene it is the GM's alone, and
the players learn only what their view gained or lost (vtt.fog.vision)."""

import re

from django.db import transaction

from vtt.core import shapes
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Light, Scene, Token, Visibility
from vtt.tabletop.serialize import light_data
from vtt.tabletop.services.access import actor, as_gm, find, unknown
from vtt.tabletop.services.errors import NotAllowed

COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_REACH = 200  # squares: a light's farthest dim radius
MAX_INTENSITY = 10
CHANGEABLE = ("x", "y", "bright", "dim", "color", "intensity", "shadows", "on")


def _color(value) -> str:
    if not isinstance(value, str) or not COLOR.match(value):
        raise shapes.invalid("color", "must be a colour like #ffcc66")
    return value.lower()


def _event(light: Light, scene: Scene, by, action: str) -> None:
    # Under fog a light tells of a room nobody has seen: the GM's alone.
    visibility = Visibility.GM if scene.fog else Visibility.PUBLIC
    append_event(
        campaign=scene.campaign,
        kind=event_kinds.LIGHT_CHANGED,
        data={"light": light_data(light), "action": action},
        actor=actor(by),
        visibility=visibility,
        scene_id=scene.pk,
    )


def _known(fields: dict) -> None:
    strange = sorted(set(fields) - set(CHANGEABLE))
    if strange:
        raise shapes.invalid(strange[0], f"{strange[0]} is not a light's field")


def _clean(fields: dict, scene: Scene, now: dict) -> dict:
    """The fields given, checked against the scene and each other (`now`:
    the light's values before, for those not given)."""
    clean = {}
    if "x" in fields:
        clean["x"] = shapes.number(fields["x"], "x", 0, scene.width)
    if "y" in fields:
        clean["y"] = shapes.number(fields["y"], "y", 0, scene.height)
    for name in ("bright", "dim"):
        if name in fields:
            clean[name] = shapes.number(fields[name], name, 0, MAX_REACH)
    if "color" in fields:
        clean["color"] = _color(fields["color"])
    if "intensity" in fields:
        clean["intensity"] = shapes.number(fields["intensity"], "intensity", 0, MAX_INTENSITY)
    for name in ("shadows", "on"):
        if name in fields:
            clean[name] = shapes.boolean(fields[name], name)
    bright = clean.get("bright", now["bright"])
    if clean.get("dim", now["dim"]) < bright:
        raise shapes.invalid("dim", "dim light reaches at least as far as bright light")
    return clean


def light_place(*, scene_id: int, by, token_id: int | None = None, **fields) -> Light:
    """Put a light on the map at (x, y), or give token `token_id` one to
    carry (it goes where the token goes). Radii in squares; the GM's."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene")
    viewer = policy.member_viewer(member, scene.campaign.settings)
    if not policy.sees_scene(viewer, scene):
        raise unknown("scene")
    as_gm(member, "place lights")
    _known(fields)
    if token_id is not None:
        if not Token.objects.filter(pk=token_id, scene=scene).exists():
            raise shapes.invalid("token_id", "no such token on this scene")
        fields.setdefault("x", 0)
        fields.setdefault("y", 0)
    elif "x" not in fields or "y" not in fields:
        raise shapes.invalid("x" if "x" not in fields else "y", "a light on the map needs x and y")
    clean = _clean(fields, scene, {"bright": 0, "dim": 0})
    with transaction.atomic():
        light = Light.objects.create(scene=scene, token_id=token_id, **clean)
        _event(light, scene, by, "placed")
    return light


def _light_for(light_id: int, by):
    light, member = find(
        Light.objects.select_related("scene__campaign"),
        light_id,
        by,
        "light",
        campaign="scene.campaign_id",
    )
    viewer = policy.member_viewer(member, light.scene.campaign.settings)
    return light, viewer


def light_update(*, light_id: int, by, **fields) -> Light:
    """Change a light: the GM any of its fields; a token's controller only
    whether the light it carries is on. A carried light's place is its
    token's."""
    light, viewer = _light_for(light_id, by)
    controllers = []
    if light.token_id is not None:
        controllers = Token.controllers.through.objects.filter(token_id=light.token_id)
        controllers = list(controllers.values_list("user_id", flat=True))
    if not policy.runs_table(viewer):
        if not policy.sees_lights(viewer, light.scene) and viewer.user_id not in controllers:
            raise unknown("light")  # under fog a player's light alone is theirs to know
        if not policy.switches_light(viewer, controllers) or set(fields) - {"on"}:
            raise NotAllowed(
                "only the GM changes lights; a token's owner turns its light on and off"
            )
    _known(fields)
    if light.token_id is not None and {"x", "y"} & set(fields):
        raise shapes.invalid("x" if "x" in fields else "y", "a carried light goes with its token")
    with transaction.atomic():
        light = Light.objects.select_for_update().select_related("scene__campaign").get(pk=light.pk)
        clean = _clean(fields, light.scene, {"bright": light.bright, "dim": light.dim})
        changed = [name for name, value in clean.items() if getattr(light, name) != value]
        if not changed:
            return light
        for name in changed:
            setattr(light, name, clean[name])
        light.save(update_fields=changed)
        _event(light, light.scene, by, "changed")
    return light


def light_remove(*, light_id: int, by) -> None:
    """Take a light off the scene (or from the token carrying it): the GM's."""
    light, viewer = _light_for(light_id, by)
    if not policy.runs_table(viewer):
        raise NotAllowed("only the GM removes lights")
    with transaction.atomic():
        light = Light.objects.select_for_update().select_related("scene__campaign").get(pk=light.pk)
        pk = light.pk
        light.delete()
        light.pk = pk  # named in its event
        _event(light, light.scene, by, "removed")
