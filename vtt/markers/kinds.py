"""The log's kinds for status markers, declared at start (MarkersConfig.ready):
a marker added, a marker removed (the GM's undo of an add among them). A
marker is seen by whoever sees its token (its hidden token's, its scene's,
its fog's: as a token event), and a GM-only one by the GM: its service
appends it with the GM's visibility."""

from vtt.rules.schema import Bool, Obj
from vtt.tabletop.event_kinds import (
    ID,
    MARKER,
    MARKER_ADDED,
    MARKER_REMOVED,
    PUBLIC_OR_GM,
    Kind,
    Sight,
    Text,
    optional,
)

# The token a marker event is about: enough to place the badge and decide
# its audience (Sight.TOKEN reads `hidden`; the fog, `id`).
MARKED_TOKEN = Obj({"id": ID, "scene_id": ID, "name": Text(), "hidden": Bool()})

KINDS = tuple(
    Kind(
        name,
        {"token": MARKED_TOKEN, "marker": MARKER, **extra},
        Sight.TOKEN,
        PUBLIC_OR_GM,
        "as the other token events; a GM-only marker: the GM only",
    )
    for name, extra in (
        (MARKER_ADDED, {}),
        # The GM's undo of its marker.added takes it off again.
        (MARKER_REMOVED, {"undo_of": optional(ID)}),
    )
)
