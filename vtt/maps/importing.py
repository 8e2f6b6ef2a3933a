"""A Universal VTT map file made a scene (docs/maps.md): its picture the
background (through vtt.pictures, like any upload), its walls joined and
simplified, its portals doors, its lights Light rows and its ambient light
the scene's lighting. A new scene, or an existing one whose walls, doors and
lights are replaced (its tokens stay) once the GM confirms. Judged whole
before anything is stored; written in one transaction with the scene's
event, so the room redraws the map live."""

from dataclasses import asdict, dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction

from vtt.core import shapes
from vtt.pictures import images
from vtt.rules import sight
from vtt.tabletop import event_kinds
from vtt.tabletop.models import Campaign, Light, Scene
from vtt.tabletop.serialize import scene_data
from vtt.tabletop.services.access import require_gm, unknown
from vtt.tabletop.services.errors import ServiceError
from vtt.tabletop.services.scenes import (
    MAX_SIDE,
    MAX_WALLS,
    _delete_file,
    _scene_event,
    clean_walls,
    scene_for_gm,
    set_lighting,
)

from . import uvtt, wall_paths

# Squares a corner may stray from the straight wall that replaces it.
DEFAULT_SIMPLIFY = 0.05
MAX_SIMPLIFY = 2.0
FIELD = "file"


def limits() -> uvtt.Limits:
    """What a map file may hold, as the settings say now."""
    return uvtt.Limits(
        max_bytes=settings.MAP_IMPORT_MAX_BYTES,
        max_segments=settings.MAP_IMPORT_MAX_SEGMENTS,
        max_portals=settings.MAP_IMPORT_MAX_PORTALS,
        max_lights=settings.MAP_IMPORT_MAX_LIGHTS,
        max_depth=settings.MAP_IMPORT_MAX_DEPTH,
        max_side=MAX_SIDE,
    )


@dataclass(frozen=True)
class MapPlan:
    """What an import makes, shown before it is saved."""

    name: str
    width: int
    height: int
    format: float
    segments: int  # in the file
    walls: int  # after joining and simplifying
    doors: int
    lights: int
    lighting: str
    baked_lighting: bool
    simplify: float
    # What the scene has now that the import replaces (None: a new scene).
    replaces: dict | None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class _Reading:
    plan: MapPlan
    map: uvtt.UvttMap
    walls: list


def read_upload(upload) -> bytes:
    """The bytes of an uploaded or open file; one past the limit is refused
    by its size, unread, naming the limit."""
    most = settings.MAP_IMPORT_MAX_BYTES
    size = getattr(upload, "size", None)
    if size is not None and size > most:
        raise uvtt.refusal(uvtt.too_large(size, most))
    if hasattr(upload, "seek"):
        upload.seek(0)
    return upload.read(most + 1)  # one byte more: the reader refuses it


def _tolerance(simplify) -> float:
    if simplify is None:
        return DEFAULT_SIMPLIFY
    return float(shapes.number(simplify, "simplify", 0, MAX_SIMPLIFY))


def _now(scene: Scene | None) -> dict | None:
    """The walls, doors and map lights a re-import would replace."""
    if scene is None:
        return None
    barriers = sight.parse_barriers(scene.walls or [])
    doors = sum(1 for b in barriers if b.kind == sight.DOOR)
    lights = Light.objects.filter(scene=scene, token__isnull=True).count()
    return {"walls": len(barriers) - doors, "doors": doors, "lights": lights}


def _reading(data: bytes, *, name: str, simplify, scene: Scene | None) -> _Reading:
    tolerance = _tolerance(simplify)
    found = uvtt.read(data, limits())
    walls = wall_paths.wall_segments(found.polylines, tolerance)
    joined = len(walls)
    for door in found.portals:
        state = [] if door.closed else [sight.OPEN]
        walls.append(
            [*(wall_paths.short(v) for v in (door.x1, door.y1, door.x2, door.y2)), "door", *state]
        )
    if len(walls) > MAX_WALLS:
        raise uvtt.refusal(
            f"the map has {joined:,} walls and {len(found.portals):,} doors after joining and "
            f"simplifying at {tolerance:g} squares; a scene holds at most {MAX_WALLS:,}: "
            "raise the simplify tolerance"
        )
    try:
        walls = clean_walls(walls, found.width, found.height)
    except ServiceError as error:
        raise uvtt.refusal(error.message) from None
    plan = MapPlan(
        name=name,
        width=found.width,
        height=found.height,
        format=found.format,
        segments=found.segments,
        walls=joined,
        doors=len(found.portals),
        lights=len(found.lights),
        lighting=found.lighting,
        baked_lighting=found.baked_lighting,
        simplify=tolerance,
        replaces=_now(scene),
    )
    return _Reading(plan, found, walls)


def _target(campaign_id, scene_id, by) -> tuple[int, Scene | None]:
    """The campaign (its GM asking) and the scene re-imported, if any."""
    if scene_id is None:
        require_gm(campaign_id, by, doing="import maps")
        if not Campaign.objects.filter(pk=campaign_id).exists():  # the server asking
            raise unknown("campaign")
        return campaign_id, None
    scene = scene_for_gm(scene_id, by, "import maps")
    if campaign_id is not None and scene.campaign_id != campaign_id:
        raise unknown("scene", "scene")
    return scene.campaign_id, scene


def map_preview(
    *, by, data: bytes, campaign_id=None, scene_id=None, name="Imported map", simplify=None
) -> MapPlan:
    """What importing `data` would make, without storing anything: the
    file judged whole (its picture too, not yet decoded)."""
    _, scene = _target(campaign_id, scene_id, by)
    reading = _reading(data, name=_name(name, scene), simplify=simplify, scene=scene)
    _check_picture(reading.map.image)
    return reading.plan


@dataclass(frozen=True)
class MapSketch:
    """What the GM looks at before importing: the picture, small, and over
    it the walls, doors and lights as the scene would have them."""

    width: int
    height: int
    walls: list  # [x1, y1, x2, y2], in squares
    doors: list  # [x1, y1, x2, y2, open]
    lights: list  # {x, y, dim, color}
    picture: bytes  # WebP, at most SKETCH_SIDE px a side


SKETCH_SIDE = 720


def map_review(
    *, by, data: bytes, campaign_id=None, scene_id=None, name="Imported map", simplify=None
) -> tuple[MapPlan, MapSketch]:
    """map_preview's count, and a sketch of the map to show with it (its
    picture decoded, to make it small): nothing stored."""
    _, scene = _target(campaign_id, scene_id, by)
    reading = _reading(data, name=_name(name, scene), simplify=simplify, scene=scene)
    found = reading.map
    try:
        picture = images.background_preview(
            ContentFile(found.image), largest=SKETCH_SIDE, field=FIELD
        )
    except ServiceError as error:
        raise _picture_refusal(error) from None
    walls = [w[:4] for w in reading.walls if len(w) == 4]
    doors = [[*w[:4], len(w) > 5 and w[5] == sight.OPEN] for w in reading.walls if len(w) > 4]
    lights = [{"x": x.x, "y": x.y, "dim": x.range, "color": x.color} for x in found.lights]
    sketch = MapSketch(found.width, found.height, walls, doors, lights, picture)
    return reading.plan, sketch


def _name(name, scene: Scene | None) -> str:
    if scene is not None:
        return scene.name
    return shapes.text(name or "Imported map", "name", 120)


def _check_picture(image: bytes) -> None:
    try:
        images.check_image(ContentFile(image), field=FIELD)
    except ServiceError as error:
        raise _picture_refusal(error) from None


def _picture_refusal(error: ServiceError) -> ServiceError:
    if error.field != FIELD:
        return error  # busy: said as it is
    return ServiceError(error.code, f"image: {error.message}", FIELD)


def map_import(
    *,
    by,
    data: bytes,
    campaign_id=None,
    scene_id=None,
    name="Imported map",
    simplify=None,
    replace: bool = False,
) -> tuple[Scene, MapPlan]:
    """Make `data` a new scene of the campaign, or the scene `scene_id`'s
    map. A scene with walls, doors or lights of its own keeps them unless
    `replace` says the GM has seen what goes; its tokens always stay."""
    campaign_id, scene = _target(campaign_id, scene_id, by)
    reading = _reading(data, name=_name(name, scene), simplify=simplify, scene=scene)
    if scene is not None:
        _confirmed(reading.plan.replaces, replace)
    try:
        encoded = images.reencode_background(
            ContentFile(reading.map.image), field=FIELD, as_webp=True
        )
    except ServiceError as error:
        raise _picture_refusal(error) from None
    storage = Scene._meta.get_field("background").storage
    stored = images.save_files(storage, Scene.background.field.upload_to, encoded)["image"]
    try:
        with transaction.atomic():
            if scene is None:
                scene = _create(campaign_id, by, reading, stored)
            else:
                scene = _replace(scene.pk, by, reading, stored, replace)
    except BaseException:
        storage.delete(stored)  # no row points at it
        raise
    return scene, reading.plan


def _confirmed(replaces: dict | None, replace) -> None:
    if replaces and any(replaces.values()) and shapes.boolean(replace, "replace") is not True:
        said = ", ".join(f"{count} {what}" for what, count in replaces.items() if count)
        raise ServiceError(
            "confirm",
            f"the scene has {said}: the import replaces them (its tokens stay); confirm to go on",
            "replace",
        )


def _lights(scene: Scene, found: uvtt.UvttMap) -> None:
    Light.objects.bulk_create(
        Light(
            scene=scene,
            x=light.x,
            y=light.y,
            # A map light's range is how far it reaches at all: bright for
            # the first half of it, dim beyond.
            bright=light.range / 2,
            dim=light.range,
            color=light.color,
            intensity=light.intensity,
            shadows=light.shadows,
        )
        for light in found.lights
    )


def _create(campaign_id: int, by, reading: _Reading, stored: str) -> Scene:
    found = reading.map
    scene = Scene(
        campaign_id=campaign_id,
        name=reading.plan.name,
        width=found.width,
        height=found.height,
        walls=reading.walls,
        baked_lighting=found.baked_lighting,
    )
    set_lighting(scene, lighting=found.lighting)
    scene.background.name = stored
    scene.save()
    _lights(scene, found)
    scene = Scene.objects.select_related("campaign").get(pk=scene.pk)
    _scene_event(scene, event_kinds.SCENE_CREATED, by, {"scene": scene_data(scene)})
    return scene


def _replace(scene_id: int, by, reading: _Reading, stored: str, replace) -> Scene:
    found = reading.map
    scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
    _confirmed(_now(scene), replace)  # as it is now, the row held
    for token in scene.tokens.all():
        if token.x + token.size > found.width or token.y + token.size > found.height:
            raise uvtt.refusal(
                f"token {token.name} at ({token.x}, {token.y}) would fall outside the imported "
                f"map of {found.width} x {found.height} squares: move it first"
            )
    old = scene.background.name if scene.background else None
    scene.width, scene.height, scene.walls = found.width, found.height, reading.walls
    scene.baked_lighting = found.baked_lighting
    set_lighting(scene, lighting=found.lighting)
    scene.background.name = stored
    scene.save()
    Light.objects.filter(scene=scene, token__isnull=True).delete()
    _lights(scene, found)
    transaction.on_commit(lambda: _delete_file(scene, old))
    _scene_event(scene, event_kinds.SCENE_UPDATED, by, {"scene": scene_data(scene)})
    return scene
