"""Hidden Checks and Tests: what a GM rolled or attacked in secret stays
with the GM until they reveal it. A reveal is a new public event,
"reveal" {"of_seq", "type", "data"}, carrying the hidden entry as it was;
it changes nothing on the table (whatever the entry applied was applied
when it happened)."""

from django.db import transaction

from vtt.core import shapes
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Roll, RoomEvent, Visibility
from vtt.tabletop.services.access import actor, require_gm
from vtt.tabletop.services.errors import NotFound, ServiceError

from ..models import Attack

# Character sheets and hidden tokens have their own ways of being shown.
REVEALABLE = (kinds.ROLL, kinds.COMBAT_ATTACK, kinds.COMBAT_DAMAGE, kinds.ENCOUNTER_INITIATIVE)


def event_reveal(*, campaign_id: int, by, seq: int) -> RoomEvent:
    require_gm(campaign_id, by, doing="reveal hidden results")
    seq = shapes.whole(seq, "seq", 1, 2**63 - 1)
    event = RoomEvent.objects.filter(campaign_id=campaign_id, seq=seq).first()
    if event is None:
        raise NotFound("no such entry in this room's log", "seq")
    if event.kind not in REVEALABLE:
        raise ServiceError("cannot_reveal", f"a {event.kind} entry is not revealed this way", "seq")
    if event.visibility == Visibility.PUBLIC:
        raise ServiceError("already_public", "everyone has seen this already", "seq")
    with transaction.atomic():
        already = RoomEvent.objects.filter(
            campaign_id=campaign_id, kind=kinds.REVEAL, data__of_seq=seq
        ).exists()
        if already:
            raise ServiceError("already_public", "this has been revealed already", "seq")
        # The shape its kind declares; its fog annotation is nobody's to read
        # (each group's view then), and a reveal is everyone's.
        data = {k: v for k, v in event.data.items() if k != kinds.SIGHT}
        if event.kind == kinds.ROLL:
            Roll.objects.filter(pk=data["roll_id"]).update(visibility=Visibility.PUBLIC)
        elif event.kind in (kinds.COMBAT_ATTACK, kinds.COMBAT_DAMAGE):
            Attack.objects.filter(pk=data["attack"]["id"]).update(visibility=Visibility.PUBLIC)
        return append_event(
            campaign=event.campaign,
            kind=kinds.REVEAL,
            data={"of_seq": seq, "type": event.kind, "data": data},
            actor=actor(by),
        )
