"""The drawings' room events, declared at start (apps.py) like the log's
own: each is seen by the drawing's layer (the GM's: the GM only; another
scene than the room's: the GM only, at append) and, on a fog scene, by the
sight groups whose map shows some of its points (`where`: vtt.fog.vision
marks the others `unseen` as the event is appended)."""

from vtt.rules.schema import Choice, Int, List, Obj
from vtt.tabletop.event_kinds import (
    ID,
    PUBLIC_OR_GM,
    USER,
    Json,
    Kind,
    Nullable,
    Sight,
    Text,
)

from .bounds import LAYERS, MAX_POINTS, SHAPES

ADDED = "drawing.added"
MOVED = "drawing.moved"
REMOVED = "drawing.removed"
CLEARED = "drawing.cleared"

POINTS = List(List(Json(), min_len=2, max_len=2), min_len=1, max_len=MAX_POINTS)
# A drawing as events, snapshots and the REST API carry it (serialize.drawing_data).
DRAWING = Obj(
    {
        "id": ID,
        "scene": ID,
        "by": Nullable(USER),
        "shape": Choice(*SHAPES),
        "layer": Choice(*LAYERS),
        "color": Text(),
        "width": Int(lo=1, hi=8),
        "points": POINTS,
        "text": Text(),
    }
)
MAX_CLEARED = 100_000  # every drawing of a scene's layer


def _its_points(data) -> list:
    return data["drawing"]["points"]


def _removed_points(data) -> list:
    return data["points"]


WHO = (
    "everyone on the room's scene (the GM layer, another scene: the GM only);"
    " on a fog scene only the groups whose map shows some of its points"
)

DECLARED = (
    Kind(
        ADDED,
        # `stroke`: the key of the preview it finishes ("" from REST).
        {"drawing": DRAWING, "stroke": Text()},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        WHO,
        where=_its_points,
    ),
    Kind(
        MOVED,
        {"drawing": DRAWING},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        WHO + " where it now lies",
        where=_its_points,
    ),
    Kind(
        REMOVED,
        # `points`: where it lay, for fog to decide who saw it go.
        {"id": ID, "scene": ID, "points": POINTS},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        WHO,
        where=_removed_points,
    ),
    Kind(
        CLEARED,
        {"scene": ID, "layer": Choice(*LAYERS), "ids": List(ID, max_len=MAX_CLEARED)},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "everyone on the room's scene, the ids of the shared drawings cleared"
        " (the GM layer's, another scene's: the GM only)",
    ),
)
