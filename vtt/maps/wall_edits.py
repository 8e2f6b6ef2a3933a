"""The GM's edits of a scene's walls, doors and windows one segment at a
time: add one, change one (move its ends, or make it another kind), delete
one. Each names the segment by its index in the scene's walls and by the
ends the GM saw there (`was`), so an edit made on a list that changed
meanwhile (another GM's edit, a door a player opened) is refused instead
of landing on the wrong segment or undoing the other change; a move keeps
the segment's kind and a door's state as they are now. Each appends
scene.updated, which redraws every page's map and the players' fog."""

from dataclasses import replace

from django.db import transaction

from vtt.core import shapes
from vtt.rules import sight
from vtt.tabletop import event_kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Scene
from vtt.tabletop.serialize import scene_data
from vtt.tabletop.services.access import actor
from vtt.tabletop.services.scenes import MAX_WALLS, clean_wall, scene_for_gm

DOING = "edit walls"


def wall_add(*, scene_id: int, by, wall: list) -> Scene:
    """A new segment [x1, y1, x2, y2] (then "window" or "door", and a
    door's state), after the others."""
    scene_for_gm(scene_id, by, DOING)
    with transaction.atomic():
        scene = _locked(scene_id)
        walls = list(scene.walls or [])
        if len(walls) >= MAX_WALLS:
            raise shapes.invalid("wall", f"a scene has at most {MAX_WALLS} walls")
        walls.append(clean_wall(wall, scene.width, scene.height))
        return _save(scene, walls, by)


def wall_change(*, scene_id: int, by, index: int, was: list, wall: list) -> Scene:
    """Segment `index` becomes `wall`: four numbers move its ends and keep
    its kind and state; a longer list says the kind (and state) too."""
    scene_for_gm(scene_id, by, DOING)
    with transaction.atomic():
        scene = _locked(scene_id)
        walls = list(scene.walls or [])
        current = _segment(walls, index, was)
        if isinstance(wall, list) and len(wall) == 4:
            moved = clean_wall(wall, scene.width, scene.height)
            wall = replace(current, x1=moved[0], y1=moved[1], x2=moved[2], y2=moved[3]).as_list()
        walls[index] = clean_wall(wall, scene.width, scene.height)
        if walls[index] == current.as_list():
            return scene
        return _save(scene, walls, by)


def wall_delete(*, scene_id: int, by, index: int, was: list) -> Scene:
    """Segment `index` taken away: those after it move up one."""
    scene_for_gm(scene_id, by, DOING)
    with transaction.atomic():
        scene = _locked(scene_id)
        walls = list(scene.walls or [])
        _segment(walls, index, was)
        del walls[index]
        return _save(scene, walls, by)


def _locked(scene_id: int) -> Scene:
    return Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)


def _segment(walls: list, index, was) -> sight.Barrier:
    """The segment at `index`, if its ends are still those the asker saw."""
    if type(index) is not int or not 0 <= index < len(walls):
        raise shapes.invalid("wall", f"must be the index of one of the {len(walls)} walls")
    if not isinstance(was, list) or len(was) != 4:
        raise shapes.invalid("was", "must be the segment's ends [x1, y1, x2, y2] as you saw them")
    current = sight.parse_barriers([walls[index]])[0]
    if [current.x1, current.y1, current.x2, current.y2] != was:
        raise shapes.invalid("was", f"walls[{index}] has changed since you saw it")
    return current


def _save(scene: Scene, walls: list, by) -> Scene:
    scene.walls = walls
    scene.save(update_fields=["walls"])
    append_event(
        campaign=scene.campaign,
        kind=event_kinds.SCENE_UPDATED,
        data={"scene": scene_data(scene)},
        actor=actor(by),
        scene_id=scene.pk,
    )
    return scene
