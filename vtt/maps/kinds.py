"""The log's kind for the map's lights, declared at start (MapsConfig.ready):
a light placed, changed or removed (vtt.maps.light_edits). Its name is the
log's (vtt.tabletop.event_kinds)."""

from vtt.rules.schema import Bool, Choice, Obj
from vtt.tabletop.event_kinds import (
    ID,
    LIGHT_CHANGED,
    ON_A_SCENE,
    PUBLIC_OR_GM,
    Json,
    Kind,
    Nullable,
    Sight,
    Text,
)

# A light on a scene (vtt.tabletop.serialize.light_data): squares, #rrggbb.
LIGHT = Obj(
    {
        "id": ID,
        "token_id": Nullable(ID),
        "x": Json(),
        "y": Json(),
        "bright": Json(),
        "dim": Json(),
        "color": Text(),
        "intensity": Json(),
        "shadows": Bool(),
        "on": Bool(),
    }
)

KINDS = (
    Kind(
        LIGHT_CHANGED,
        {"light": LIGHT, "action": Choice("placed", "changed", "removed")},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; on a fog scene the GM only (players get the change of their view)",
    ),
)
