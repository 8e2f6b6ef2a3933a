"""The log's kind for handouts, declared at start (HandoutsConfig.ready): one
per member a handout is handed to, addressed as a whisper is, so it reaches
the GM who handed it and that member, nobody else."""

from vtt.rules.schema import Bool, Obj
from vtt.tabletop.event_kinds import HANDOUT_SHARED, ID, USER, Kind, Nullable, Sight, Text
from vtt.tabletop.models import Visibility

# A handout as its reader gets it (services.handout_data).
HANDOUT = Obj(
    {"id": ID, "title": Text(), "html": Text(), "image": Nullable(Text()), "everyone": Bool()}
)

KINDS = (
    Kind(
        HANDOUT_SHARED,
        {"from": USER, "to": USER, "handout": HANDOUT},
        Sight.ADDRESSED,
        (Visibility.SELF,),
        "the GM who handed it and the member it was handed to only",
    ),
)
