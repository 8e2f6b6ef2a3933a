"""Which sight groups can see a point of a fog scene: those whose map shows
the ground there, in their view now or in what they explored. A ping (the
live rooms' `map.ping`) reaches a player only when their group is one of
them, so a point under unexplored fog tells nobody where the GM looks."""

import shapely

from vtt.rules import fog_paint, sight
from vtt.tabletop.models import SceneSight


def groups_seeing(scene_id: int, x: float, y: float) -> list[str]:
    """The groups of the scene whose drawn view or explored area covers
    (x, y), in squares; a group with no drawing yet sees nothing."""
    point = shapely.Point(x, y)
    groups = []
    rows = SceneSight.objects.filter(scene_id=scene_id, active=True)
    for record in rows.only("group", "view", "explored"):
        # The explored area is parsed once per text (it changes rarely);
        # the view, as the view changes with every move, each time.
        if shapely.covers(fog_paint.explored_shape(record.explored), point) or (
            record.view and shapely.covers(sight.from_path(record.view), point)
        ):
            groups.append(record.group)
    return sorted(groups)
