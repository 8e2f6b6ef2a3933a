"""One drawing of a fog scene: each group's view and explored area as the
map draws them, from the scene's walls, its lighting, the group's eyes and
the places its eyes stood since the last drawing.

Pure geometry, no Django and no shared state but caches, so the live rooms
can run it in a process of their own (vtt.live.painter) and keep their
interpreter for the moves and the fan-out. What a group sees is decided
elsewhere (vision.annotate, Sight.sees): this only draws."""

from dataclasses import dataclass

import shapely

from . import sight

DRAWN = 0.02  # squares: how far a drawn view may stray from the exact one


@dataclass(frozen=True)
class Walls:
    """A scene's sight-blocking segments and its size: what its Sight is made of."""

    segments: tuple
    width: float
    height: float


@dataclass(frozen=True)
class Group:
    """One group's part of a drawing: its eyes now, the places its eyes stood
    since the last drawing, and its view and explored area as stored."""

    eyes: tuple
    places: tuple
    view: str
    explored: str


# Kept in the process that draws: a scene's Sight (which remembers every
# eye's polygon) and each explored area read back from its path.
_SIGHTS = sight.Kept(16)
_EXPLORED = sight.Kept(64)


def drawn(area):
    """An area as drawn: a fiftieth of a square is finer than a screen
    shows, and halves the work of what follows."""
    return shapely.simplify(area, DRAWN)


def explored_shape(path: str):
    """A stored explored area as a shape, parsed once per text."""
    return _EXPLORED.get_or(path, lambda: sight.from_path(path))


def remember(path: str, shape) -> None:
    """An explored area just drawn, so its next drawing need not parse it."""
    _EXPLORED.put(path, shape)


def paint(
    walls: Walls, lit: bool, lights: tuple, groups: dict, ambient: float = 0
) -> dict[str, tuple[str, str]]:
    """Each group's new (view, explored) paths; a group whose view is as
    stored and whose eyes stood nowhere new is left out. The explored area
    grows by the view and by the area of every place. `ambient`: how far
    every eye sees without light in a dim scene (Sight)."""
    scene = _SIGHTS.get_or(
        walls, lambda: sight.Sight(list(walls.segments), walls.width, walls.height, True)
    ).relit(lit, lights, ambient)
    out = {}
    for name, group in groups.items():
        view = drawn(scene.view(group.eyes)) if group.eyes else sight.EMPTY
        steps = [drawn(scene.area(place)) for place in dict.fromkeys(group.places)]
        path = sight.to_path(view)
        if path == group.view and not steps:
            continue
        explored = sight.union_all([explored_shape(group.explored), view, *steps])
        text = sight.to_path(explored)
        remember(text, explored)
        out[name] = (path, text)
    return out
