"""The log's kind for the GM's fog edits, declared at start (FogConfig.ready):
fog reset, revealed or covered on a scene (vtt.fog.services). Its name is
the log's (vtt.tabletop.event_kinds)."""

from vtt.rules.schema import Choice
from vtt.tabletop.event_kinds import (
    FOG_CHANGED,
    ID,
    ON_A_SCENE,
    PUBLIC_OR_GM,
    Fog,
    Kind,
    Nullable,
    Sight,
    Text,
)

KINDS = (
    Kind(
        FOG_CHANGED,
        {
            "scene_id": ID,
            "action": Choice("reset", "reveal", "cover"),
            "group": Nullable(Text()),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; each group's new explored area comes in its own vision frame",
        fog=Fog.REFRESH,
    ),
)
