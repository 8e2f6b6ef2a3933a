"""The drawings a member sees (policy.sees_drawing): the GM every one; the
others the shared layer of the scene the room is on, and on a fog scene
only those of which their group's map shows some point (vtt.fog.points),
as the live events decided when each was drawn."""

from functools import cache

from vtt.fog.points import group_shows
from vtt.tabletop import policy
from vtt.tabletop.visibility import Viewer

from .models import Drawing


def _shows(viewer: Viewer, scene):
    """The viewer's group's test of points, its fog read only if asked."""

    @cache
    def test():
        return group_shows(scene.pk, viewer.group)

    return lambda points: test()(points)


def sees_drawing(viewer: Viewer, drawing) -> bool:
    """`drawing` with scene__campaign."""
    scene = drawing.scene
    return policy.sees_drawing(viewer, drawing, scene, _shows(viewer, scene))


def drawings_seen(viewer: Viewer, scene) -> list[Drawing]:
    """The scene's drawings `viewer` sees, oldest first (`scene` with its
    campaign)."""
    found = Drawing.objects.filter(scene=scene).select_related("by").order_by("id")
    shows = _shows(viewer, scene)
    return [d for d in found if policy.sees_drawing(viewer, d, scene, shows)]
