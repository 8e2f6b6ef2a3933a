"""The room event log: every change to a campaign's room is one numbered row,
appended inside the change's transaction and announced only after commit.

The live rooms listen to `event_committed` to broadcast; a client that missed
something reads the log from its last sequence number (events_since)."""

from django.db import transaction
from django.db.models import F
from django.dispatch import Signal

from .models import Campaign, RoomEvent, Visibility

# Sent after the transaction that appended `event` has committed.
event_committed = Signal()


def append_event(
    *, campaign: Campaign, kind: str, data: dict, actor=None, visibility: str = Visibility.PUBLIC
) -> RoomEvent:
    """Append one event with the campaign's next sequence number.

    Must run inside transaction.atomic(): the counter update locks the
    campaign row (PostgreSQL) or the database (SQLite) until commit, so
    concurrent changes get distinct, gap-free, increasing numbers."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("append_event must run inside transaction.atomic()")
    Campaign.objects.filter(pk=campaign.pk).update(event_seq=F("event_seq") + 1)
    seq = Campaign.objects.filter(pk=campaign.pk).values_list("event_seq", flat=True).get()
    campaign.event_seq = seq
    event = RoomEvent.objects.create(
        campaign=campaign, seq=seq, kind=kind, data=data, actor=actor, visibility=visibility
    )
    transaction.on_commit(lambda: event_committed.send(sender=RoomEvent, event=event))
    return event


def events_since(campaign_id: int, after_seq: int, limit: int = 200):
    """Up to `limit` events after `after_seq`, oldest first (one page of a resync)."""
    return list(
        RoomEvent.objects.filter(campaign_id=campaign_id, seq__gt=after_seq)
        .select_related("actor")
        .order_by("seq")[:limit]
    )
