"""The log's kinds for area templates, declared at start (AreasConfig.ready):
a template placed, a template removed. Each is about the template's scene:
seen by everyone while the room is on it, and by the GM alone when the
template is GM-only (its service appends it with the GM's visibility) or
on another scene (append_event decides)."""

from vtt.rules.schema import Bool, Choice, Int, Obj
from vtt.tabletop.event_kinds import ID, PUBLIC_OR_GM, USER, Kind, Nullable, Sight, Text

from .geometry import SHAPES

TEMPLATE_PLACED = "template.placed"
TEMPLATE_REMOVED = "template.removed"

# A template as events, snapshots and the REST API carry it (services.template_data).
TEMPLATE = Obj(
    {
        "id": ID,
        "scene_id": ID,
        "shape": Choice(*SHAPES),
        "x": Int(lo=0),
        "y": Int(lo=0),
        "size": Int(lo=1),
        "angle": Int(lo=0, hi=359),
        "label": Text(),
        "gm_only": Bool(),
        "by": Nullable(USER),
    }
)

WHO = "everyone on its scene; a GM-only template, or one on a scene the room is not on: the GM only"

KINDS = tuple(
    Kind(name, {"template": TEMPLATE}, Sight.VISIBILITY, PUBLIC_OR_GM, WHO)
    for name in (TEMPLATE_PLACED, TEMPLATE_REMOVED)
)
