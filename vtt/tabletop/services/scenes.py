"""Scenes: the battle maps of a campaign (W x H squares at 1" = 5 ft), their
walls and background images, and which one the room is looking at."""

from dataclasses import replace

from django.db import transaction

from vtt.core import shapes
from vtt.pictures import images
from vtt.rules import sight

from .. import event_kinds, policy
from ..events import append_event
from ..models import Campaign, Marker, Scene, Token
from ..serialize import markers_by_token, scene_data, token_table
from ..walls import within_reach
from .access import actor, as_gm, find, require_gm, unknown
from .errors import NotAllowed, ServiceError

MAX_SIDE = 200  # squares: a 1000 ft battle map
MAX_WALLS = 2000
# A scene's light; `lit` is the first of them (Scene.lit: the flag sight reads).
LIGHTING = ("lit", "dim", "dark")


KINDS = {sight.WALL: (), sight.WINDOW: (), sight.DOOR: (sight.OPEN, sight.CLOSED, sight.LOCKED)}


def clean_walls(walls, width: int, height: int) -> list:
    """Wall segments [x1, y1, x2, y2] in grid units, inside the map; a
    window or a door names its kind after them, a door perhaps its state
    (vtt.rules.sight.parse_barriers reads them)."""
    if walls is None:
        return []
    shapes.items(walls, "walls", MAX_WALLS)
    return [clean_wall(wall, width, height, f"walls[{i}]") for i, wall in enumerate(walls)]


def clean_wall(wall, width: int, height: int, path: str = "wall") -> list:
    """One segment of clean_walls, its refusals named after `path`."""
    if not isinstance(wall, list) or not 4 <= len(wall) <= 6:
        raise shapes.invalid(path, 'must be [x1, y1, x2, y2], then "window" or "door"')
    x1, y1, x2, y2 = (
        shapes.number(v, f"{path}[{j}]", 0, width if j % 2 == 0 else height)
        for j, v in enumerate(wall[:4])
    )
    if (x1, y1) == (x2, y2):
        raise shapes.invalid(path, "a wall needs two different ends")
    kind = wall[4] if len(wall) > 4 else sight.WALL
    if kind not in KINDS:
        raise shapes.invalid(f"{path}[4]", "must be wall, window or door")
    state = wall[5] if len(wall) > 5 else sight.CLOSED
    if len(wall) > 5 and state not in KINDS[kind]:
        states = ", ".join(KINDS[kind]) or "nothing"
        raise shapes.invalid(f"{path}[5]", f"a {kind} may be followed by {states}")
    return sight.Barrier(x1, y1, x2, y2, kind, state).as_list()


def _side(value, path: str) -> int:
    return shapes.whole(value, path, 1, MAX_SIDE)


def scene_for_gm(scene_id: int, by, doing: str) -> Scene:
    """The scene, with its campaign, if `by` is its campaign's GM."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene")
    as_gm(member, doing)
    return scene


def _scene_event(scene: Scene, kind: str, by, data: dict):
    """Players see the scene the room is on; the GM sees every scene."""
    append_event(campaign=scene.campaign, kind=kind, data=data, actor=actor(by), scene_id=scene.pk)


def scene_create(
    *,
    campaign_id: int,
    by,
    name: str,
    width: int = 20,
    height: int = 20,
    walls: list | None = None,
    fog: bool = False,
    lit: bool = True,
    lighting: str | None = None,
    baked_lighting: bool = False,
) -> Scene:
    require_gm(campaign_id, by, doing="create scenes")
    width, height = _side(width, "width"), _side(height, "height")
    lit = shapes.boolean(lit, "lit")
    lighting = _lighting(lighting) if lighting is not None else ("lit" if lit else "dark")
    scene = Scene(
        campaign=Campaign.objects.get(pk=campaign_id),
        name=shapes.text(name, "name", 120),
        width=width,
        height=height,
        walls=clean_walls(walls, width, height),
        fog=shapes.boolean(fog, "fog"),
        lighting=lighting,
        baked_lighting=shapes.boolean(baked_lighting, "baked_lighting"),
    )
    with transaction.atomic():
        scene.save()
        _scene_event(scene, event_kinds.SCENE_CREATED, by, {"scene": scene_data(scene)})
    return scene


def _lighting(value) -> str:
    return shapes.choice(value, "lighting", LIGHTING)


def set_lighting(scene: Scene, *, lit=None, lighting=None) -> None:
    """The scene's light from either word: `lighting` (lit, dim, dark), or
    `lit` (true: lit; false: dark, or dim if it was dim)."""
    if lighting is not None:
        scene.lighting = _lighting(lighting)
    elif lit is not None:
        if shapes.boolean(lit, "lit"):
            scene.lighting = "lit"
        elif scene.lighting == "lit":
            scene.lighting = "dark"


SCENE_FIELDS = ("name", "width", "height", "walls", "fog", "lit", "lighting", "baked_lighting")


def scene_update(*, scene_id: int, by, **fields) -> Scene:
    """Change some of name, width, height, walls, fog, lit, lighting and
    baked_lighting. A map never shrinks from under a token or a wall."""
    scene_for_gm(scene_id, by, "change scenes")
    for field in fields:
        if field not in SCENE_FIELDS:
            raise ServiceError("unknown_field", f"{field} is not a known field", field)
    with transaction.atomic():
        scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
        if "name" in fields:
            scene.name = shapes.text(fields["name"], "name", 120)
        if "width" in fields:
            scene.width = _side(fields["width"], "width")
        if "height" in fields:
            scene.height = _side(fields["height"], "height")
        for flag in ("fog", "baked_lighting"):
            if flag in fields:
                setattr(scene, flag, shapes.boolean(fields[flag], flag))
        set_lighting(scene, lit=fields.get("lit"), lighting=fields.get("lighting"))
        walls = fields["walls"] if "walls" in fields else scene.walls
        path = "walls" if "walls" in fields else ("width" if "width" in fields else "height")
        try:
            scene.walls = clean_walls(walls, scene.width, scene.height)
        except ServiceError as error:
            if path == "walls":
                raise
            raise shapes.invalid(path, "a wall would fall outside the map") from error
        for token in scene.tokens.all():
            if token.x + token.size > scene.width or token.y + token.size > scene.height:
                field = "width" if token.x + token.size > scene.width else "height"
                raise shapes.invalid(field, f"token {token.name} would fall outside the map")
        scene.save()
        _scene_event(scene, event_kinds.SCENE_UPDATED, by, {"scene": scene_data(scene)})
    return scene


def scene_set_background(*, scene_id: int, by, image) -> Scene:
    """A new background, checked and re-encoded by vtt.pictures.images (no
    metadata survives) and stored under a random name."""
    scene = scene_for_gm(scene_id, by, "change scenes")
    encoded = images.reencode_background(image)
    storage = scene.background.storage
    folder = scene.background.field.upload_to
    stored = images.save_files(storage, folder, encoded)["image"]
    try:
        with transaction.atomic():
            scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
            old = scene.background.name if scene.background else None
            scene.background.name = stored
            scene.save(update_fields=["background"])
            transaction.on_commit(lambda: _delete_file(scene, old))
            _scene_event(scene, event_kinds.SCENE_UPDATED, by, {"scene": scene_data(scene)})
    except BaseException:
        storage.delete(stored)  # the row did not change: the new file must not linger
        raise
    return scene


def scene_clear_background(*, scene_id: int, by) -> Scene:
    scene_for_gm(scene_id, by, "change scenes")
    with transaction.atomic():
        scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
        old = scene.background.name if scene.background else None
        if old is None:
            return scene
        scene.background = None
        scene.save(update_fields=["background"])
        transaction.on_commit(lambda: _delete_file(scene, old))
        _scene_event(scene, event_kinds.SCENE_UPDATED, by, {"scene": scene_data(scene)})
    return scene


def _delete_file(scene: Scene, name: str | None):
    if name:
        scene.background.storage.delete(name)


def scene_activate(*, scene_id: int, by) -> Scene:
    """Put the room on this scene. The event carries the scene and its
    tokens as they are at its sequence number (players: without the hidden
    ones), so a client switches maps from the event alone, live or in a
    resync, and the token events numbered after it apply on top."""
    scene = scene_for_gm(scene_id, by, "change the active scene")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=scene.campaign_id)
        campaign.active_scene = scene
        campaign.save(update_fields=["active_scene"])
        # Read with the campaign row locked: a token change numbered before
        # this event has committed, one numbered after it has not.
        append_event(
            campaign=campaign,
            kind=event_kinds.SCENE_ACTIVATED,
            data=activation_data(scene),
            actor=actor(by),
        )
    scene.campaign = campaign
    return scene


def activation_data(scene: Scene) -> dict:
    """The scene.activated event's data: the scene and all of its tokens as
    a table, each with its status markers (players' copies keep only the
    rows they may see, and no GM-only marker: policy)."""
    # Read as a snapshot reads them (three queries, no token instances):
    # this runs with the campaign's row locked.
    markers = markers_by_token(Marker.objects.filter(token__scene_id=scene.pk))
    return {
        "scene": scene_data(scene),
        "tokens": token_table(scene.tokens.order_by("pk"), scene.pk, markers),
    }


def scene_delete(*, scene_id: int, by) -> None:
    scene = scene_for_gm(scene_id, by, "delete scenes")
    with transaction.atomic():
        _scene_event(
            scene, event_kinds.SCENE_DELETED, by, {"scene": {"id": scene.pk, "name": scene.name}}
        )
        old = scene.background.name if scene.background else None
        images.forget_pictures(scene.tokens.all())
        scene.delete()
        transaction.on_commit(lambda: _delete_file(scene, old))


def scene_set_door(*, scene_id: int, by, wall: int, state: str) -> Scene:
    """Open, close, lock or unlock the door `walls[wall]` of a scene. A GM
    any door of any scene; a player, when the table lets players open doors,
    a door of the room's scene within a square of a token they control, and
    never a locked one nor to lock it."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene")
    viewer = policy.member_viewer(member, scene.campaign.settings)
    if not policy.sees_scene(viewer, scene):
        raise unknown("scene")
    if not policy.runs_table(viewer) and not policy.opens_doors(viewer, scene.campaign.settings):
        raise NotAllowed("only the GM opens and closes doors in this campaign")
    if state not in (sight.OPEN, sight.CLOSED, sight.LOCKED):
        raise shapes.invalid("state", "must be open, closed or locked")
    with transaction.atomic():
        scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
        barriers = sight.parse_barriers(scene.walls or [])
        if type(wall) is not int or not 0 <= wall < len(barriers):
            raise shapes.invalid("wall", f"must be the index of one of the {len(barriers)} walls")
        door = barriers[wall]
        if door.kind != sight.DOOR:
            raise shapes.invalid("wall", f"walls[{wall}] is not a door")
        if not policy.runs_table(viewer):
            _player_may_use(viewer, scene, door, state)
        if door.state == state:
            return scene
        walls = list(scene.walls)
        walls[wall] = replace(door, state=state).as_list()
        scene.walls = walls
        scene.save(update_fields=["walls"])
        _scene_event(scene, event_kinds.SCENE_UPDATED, by, {"scene": scene_data(scene)})
    return scene


def _player_may_use(viewer, scene: Scene, door, state: str) -> None:
    if door.state == sight.LOCKED or state == sight.LOCKED:
        raise NotAllowed(
            "the door is locked" if door.state == sight.LOCKED else "only a GM locks doors"
        )
    tokens = Token.objects.filter(scene=scene, hidden=False, controllers=viewer.user_id)
    if not any(within_reach(token, door) for token in tokens):
        raise NotAllowed("none of your tokens stands next to that door", "wall")
