"""Reads of a campaign's play sessions: their list, and one session's throws
as one viewer saw them in the log, with what checking them needs
(docs/dice.md). What a viewer gets of each log entry is the policy's
(event_view), so a roll hidden from them gives them nothing here either,
before or after the seed is revealed."""

from vtt.core.errors import NotFound
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.models import PlaySession, RoomEvent
from vtt.tabletop.visibility import Viewer

from . import draws


def session_data(session: PlaySession) -> dict:
    """A session as anyone in its campaign may see it: the seed once it ended."""
    return {
        "session": session.number,
        "digest": session.digest,
        "seed": None if session.is_open else bytes(session.seed).hex(),
        "started_at": session.started_at.isoformat(),
        "ended_at": session.ended_at.isoformat() if session.ended_at else None,
    }


def sessions_of(campaign_id: int):
    return PlaySession.objects.filter(campaign_id=campaign_id).order_by("number")


def session_of(campaign_id: int, number) -> PlaySession | None:
    if type(number) is not int:
        return None
    return PlaySession.objects.filter(campaign_id=campaign_id, number=number).first()


def played_session(campaign_id: int, number) -> PlaySession:
    """The campaign's session with that number; NotFound when it has none."""
    session = session_of(campaign_id, number)
    if session is None:
        raise NotFound("no such session")
    return session


def _logged_seq(session: PlaySession, kind: str) -> int | None:
    """The seq of the session's start or end in the log (None: not there)."""
    return (
        RoomEvent.objects.filter(
            campaign_id=session.campaign_id, kind=kind, data__session=session.number
        )
        .values_list("seq", flat=True)
        .first()
    )


def started_seq(session: PlaySession) -> int | None:
    return _logged_seq(session, event_kinds.SESSION_STARTED)


def session_span(session: PlaySession) -> tuple[int, int | None] | None:
    """The log's sequence numbers from the session's start to its end (None:
    still open), or None when its start is not in the log."""
    started = started_seq(session)
    if started is None:
        return None
    return started, _logged_seq(session, event_kinds.SESSION_ENDED)


def logged_throws(session: PlaySession, viewer: Viewer | None = None):
    """Every showing of the session's throws in the log, in log order, each
    with its entry's `seq` and time (a throw shows again in its attack's
    damage and in a reveal). `viewer` None reads the log as stored."""
    started = started_seq(session)
    if started is None:
        return
    events = RoomEvent.objects.filter(
        campaign_id=session.campaign_id, seq__gte=started, kind__in=draws.THROWING
    ).order_by("seq")
    for event in events.iterator():
        if viewer is None:
            kind, data, at = event.kind, event.data, event.created_at.isoformat()
        else:
            view = policy.event_view(event, viewer)
            kind, data, at = view["type"], view.get("data"), view.get("at")
        for throw in draws.throws(kind, data):
            if throw["session"] == session.number:
                yield {**throw, "seq": event.seq, "at": at}


def session_throws(session: PlaySession, viewer: Viewer) -> list[dict]:
    """The session's throws the viewer saw, in roll order, each once (as
    the first entry that showed it to them)."""
    seen: dict[int, dict] = {}
    for throw in logged_throws(session, viewer):
        seen.setdefault(throw["roll"], throw)
    return [seen[roll] for roll in sorted(seen)]


def session_check(session: PlaySession, viewer: Viewer) -> dict:
    """What a viewer needs to check the session's rolls they saw."""
    return {
        "campaign_id": session.campaign_id,
        **session_data(session),
        "rolls": session_throws(session, viewer),
    }
