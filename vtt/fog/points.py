"""Which sight groups can see a point of a fog scene: those whose map shows
the ground there, in their view now or in what they explored. A ping (the
live rooms' `map.ping`) reaches a player only when their group is one of
them, so a point under unexplored fog tells nobody where the GM looks; a
drawing, when some point of it is shown (`groups_seeing_any`)."""

import shapely

from vtt.rules import fog_paint, sight
from vtt.tabletop.models import SceneSight


def groups_seeing(scene_id: int, x: float, y: float) -> list[str]:
    """The groups of the scene whose drawn view or explored area covers
    (x, y), in squares; a group with no drawing yet sees nothing."""
    return groups_seeing_any(scene_id, [(x, y)])


def groups_seeing_any(scene_id: int, points) -> list[str]:
    """The groups of the scene whose map shows at least one of `points`
    ([[x, y], ...] in squares): the drawing made of them reaches them."""
    shape = _points(points)
    if shape is None:
        return []
    rows = SceneSight.objects.filter(scene_id=scene_id, active=True)
    return sorted(
        record.group
        for record in rows.only("group", "view", "explored")
        if _shows(record.view, record.explored, shape)
    )


def group_shows(scene_id: int, group: str):
    """A test of whether `group`'s map of the scene shows some of a list of
    points: read once, asked of every drawing of a snapshot."""
    record = (
        SceneSight.objects.filter(scene_id=scene_id, group=group, active=True)
        .only("view", "explored")
        .first()
    )
    if record is None:
        return lambda points: False

    def shows(points) -> bool:
        shape = _points(points)
        return shape is not None and _shows(record.view, record.explored, shape)

    return shows


def _points(points):
    points = [(float(x), float(y)) for x, y in points]
    if not points:
        return None
    return shapely.Point(points[0]) if len(points) == 1 else shapely.MultiPoint(points)


def _shows(view: str, explored: str, shape) -> bool:
    # The explored area is parsed once per text (it changes rarely); the
    # view, as the view changes with every move, each time. `intersects`,
    # not `covers`: one point on the ground shown is enough.
    if explored and shapely.intersects(fog_paint.explored_shape(explored), shape):
        return True
    return bool(view) and shapely.intersects(sight.from_path(view), shape)


def sight_areas(scene_id: int) -> dict[str, list]:
    """Each active group's areas of the scene (explored, view) as shapes,
    for a caller that asks of many point lists in a row (a stroke's live
    previews keep them a moment)."""
    rows = SceneSight.objects.filter(scene_id=scene_id, active=True)
    areas = {}
    for record in rows.only("group", "view", "explored"):
        found = []
        if record.explored:
            found.append(fog_paint.explored_shape(record.explored))
        if record.view:
            found.append(sight.from_path(record.view))
        areas[record.group] = found
    return areas


def groups_showing(areas: dict[str, list], points) -> list[str]:
    """The groups of `areas` (sight_areas) whose map shows some of `points`."""
    shape = _points(points)
    if shape is None:
        return []
    return sorted(
        g for g, found in areas.items() if any(shapely.intersects(a, shape) for a in found)
    )
