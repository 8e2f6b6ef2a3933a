"""The room event log: every change to a campaign's room is one numbered row,
appended inside the change's transaction and announced only after commit.

The live rooms listen to `event_committed` to broadcast; a client that missed
something reads the log from its last sequence number (events_since).
Records kept beside the log (trails, resource history) are written by
projectors registered here for an event kind, in the appending transaction:
called by append_event itself, never by a model signal."""

from collections.abc import Callable

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from vtt.db import rows

from . import event_kinds
from .models import Campaign, RoomEvent, Scene, SceneSight, Visibility

# Sent after the transaction that appended `event` has committed.
event_committed = Signal()

Projector = Callable[[RoomEvent], None]
_projectors: dict[str, list[Projector]] = {}

# What fog of war makes of an event on the fog scene the room is on, as it
# is appended (campaign, scene id, kind, payload, seq -> the `sight`
# annotation or None): vtt.fog registers it at start, so the log names no
# package above it.
Annotator = Callable[[Campaign, int, str, dict, int], dict | None]
_annotators: list[Annotator] = []


def register_annotator(annotator: Annotator) -> None:
    """Have `annotator` annotate every event appended on a fog scene the
    room is on (one, registered once at app start)."""
    if _annotators and _annotators[0] is not annotator:
        raise RuntimeError("an event annotator is registered already")
    _annotators[:] = [annotator]


def register_projector(kinds: tuple[str, ...], projector: Projector) -> None:
    """Have `projector(event)` run for every appended event of these kinds,
    in the appending transaction (registered once, at app start)."""
    for kind in kinds:
        projectors = _projectors.setdefault(kind, [])
        if projector not in projectors:
            projectors.append(projector)


def append_event(
    *,
    campaign: Campaign,
    kind: str,
    data: dict | Callable[[int], dict],
    actor=None,
    visibility: str = Visibility.PUBLIC,
    scene_id: int | None = None,
    along: tuple[str, list] | None = None,
) -> RoomEvent:
    """Append one event with the campaign's next sequence number.

    Must run inside transaction.atomic(): the counter update locks the
    campaign row (PostgreSQL) or the database (SQLite) until commit, so
    concurrent changes get distinct, gap-free, increasing numbers.

    An event about something on a scene names it (`scene_id`): unless that
    scene is the one the room is on as the event is numbered, the event is
    the GM's alone. The room's scene is read in the same statement as the
    number, so a scene change committed just before cannot slip between.

    `data` may be a function of the event's sequence number, for an event
    that names itself: a row is never changed after it is appended.

    `along`, a statement and its parameters: a write of the change itself
    sent in the same round trip as the number (on PostgreSQL, as a
    data-modifying WITH), for the room's busiest writes.

    The kind must be declared in vtt.tabletop.event_kinds and the payload
    and visibility must match its declaration: anything else raises
    (UndeclaredEvent, InvalidEvent) and the transaction rolls back."""
    if kind not in event_kinds.KINDS:
        # Refused before the counter moves: a programming error.
        raise event_kinds.UndeclaredEvent(f"{kind!r} is not a declared room event kind")
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("append_event must run inside transaction.atomic()")
    seq, room_scene_id, room_fog = _next_seq(connection, campaign.pk, along)
    campaign.event_seq = seq
    if callable(data):
        data = data(seq)
    if scene_id is not None and scene_id != room_scene_id:
        visibility = Visibility.GM
    event_kinds.check(kind, data, visibility)
    sight_scene = scene_id if scene_id is not None else _sight_scene(kind, data, room_scene_id)
    if room_fog and sight_scene is not None and sight_scene == room_scene_id:
        if not _annotators:
            # Never a fog room's event unannotated: its players' renders need it.
            raise RuntimeError("no event annotator: vtt.fog is not an installed app")
        annotation = _annotators[0](campaign, sight_scene, kind, data, seq)
        if annotation is not None:
            data = {**data, event_kinds.SIGHT: annotation}
    event = RoomEvent(
        campaign=campaign,
        seq=seq,
        kind=kind,
        data=data,
        actor=actor,
        visibility=visibility,
        created_at=timezone.now(),
    )
    # Written out: every change appends one, and save() costs more than the insert.
    rows.insert(connection, event)
    for project in _projectors.get(kind, ()):
        project(event)
    transaction.on_commit(lambda: event_committed.send(sender=RoomEvent, event=event))
    return event


def _next_seq(connection, campaign_id: int, along=None) -> tuple[int, int | None, bool]:
    """Bump and read the counter, the room's scene and whether that scene
    has fog (or had it: its stored views are still active) in one statement:
    the campaign row stays locked until commit, so every round trip saved
    here is saved for every writer queued behind it. A room without fog
    reads nothing more for vision. PostgreSQL and SQLite (3.35+) both
    RETURN, with a subquery; `along` (append_event) joins it as a WITH on
    PostgreSQL, and goes just before it elsewhere."""
    quote = connection.ops.quote_name
    table, scene, sight = (quote(model._meta.db_table) for model in (Campaign, Scene, SceneSight))
    prefix, params = "", []
    with connection.cursor() as cursor:
        if along is not None and connection.vendor == "postgresql":
            prefix, params = f"WITH along AS ({along[0]}) ", list(along[1])
        elif along is not None:
            cursor.execute(*along)
        cursor.execute(
            f"{prefix}UPDATE {table} SET event_seq = event_seq + 1 WHERE id = %s"
            " RETURNING event_seq, active_scene_id,"
            f" (SELECT s.fog OR EXISTS (SELECT 1 FROM {sight} v"
            f"   WHERE v.scene_id = s.id AND v.active)"
            f"  FROM {scene} s WHERE s.id = {table}.active_scene_id)",
            [*params, campaign_id],
        )
        seq, room_scene_id, room_fog = cursor.fetchone()
        return seq, room_scene_id, bool(room_fog)


def events_since(campaign_id: int, after_seq: int, limit: int = 200):
    """Up to `limit` events after `after_seq`, oldest first (one page of a resync)."""
    return list(
        RoomEvent.objects.filter(campaign_id=campaign_id, seq__gt=after_seq)
        .select_related("actor")
        .order_by("seq")[:limit]
    )


def _sight_scene(kind: str, data: dict, room_scene_id: int | None) -> int | None:
    """The scene an event without one is seen on: a scene change is about
    the scene it goes to, a roll for a character about the room's scene."""
    if kind == event_kinds.SCENE_ACTIVATED:
        return data["scene"]["id"]
    if kind == event_kinds.ROLL and data.get("character"):
        return room_scene_id
    if kind in _ABOUT_TWO_TOKENS:
        # An attack and its damage are about their attacker and target: a
        # group that sees either not (with own vision, one player's tokens
        # may not see what the party does) does not see them.
        return room_scene_id
    if kind in _CHANGES_WHO_SEES:
        return room_scene_id
    return None


_ABOUT_TWO_TOKENS = frozenset(
    {event_kinds.COMBAT_ATTACK, event_kinds.COMBAT_DAMAGE, event_kinds.COMBAT_DECLINED}
)

# Events that change who looks through which tokens: the table's settings
# (own vision) and the members.
_CHANGES_WHO_SEES = frozenset(
    {
        event_kinds.CAMPAIGN_UPDATED,
        event_kinds.MEMBER_JOINED,
        event_kinds.MEMBER_UPDATED,
        event_kinds.MEMBER_REMOVED,
    }
)
