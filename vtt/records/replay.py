"""A play session replayed on the map, as one viewer received it
(docs/replay.md).

The browser builds the map a viewer had when the session started the way a
live client does: from a scene change, whose event carries the map and its
tokens, and every event after it (tests/live/test_verify_events.py checks
that such a fold equals a snapshot). So the replay is the room's log from
the last `scene.activated` at or before the session's `session.started`
(or from that event itself, when the room had no map yet) up to its
`session.ended` (or the log's end while it is open), each event rendered
for the viewer by the policy (event_view), as the live room renders it. The
browser folds what precedes `start` silently and plays the rest.

On a fog scene a player's render depends on their sight group, which
follows the table's `own_vision` setting: each event is rendered for the
group the settings logged at that point gave them. The answer says which
settings its first event was rendered under (`settings`: the table's
settings, which every member's room page holds anyway), so the browser
knows whose eyes to draw the fog from (static/js/replay/fog.js)."""

from vtt.core.errors import NotAllowed, ServiceError
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.models import Campaign, Membership, PlaySession, RoomEvent
from vtt.tabletop.serialize import user_data
from vtt.tabletop.visibility import Viewer

from . import draws, sessions

PAGE = 500  # events per answer; `next` says where the following page starts


def watcher(campaign_id: int, viewer: Viewer, as_user: str | None) -> Membership:
    """Whose view a member replays: their own, or for a GM any member's
    (`as_user`: a member's user id as text, from the query string). A
    player may name only themselves."""
    if as_user is None or as_user == "":
        user_id = viewer.user_id
    elif not as_user.isdigit() or not 1 <= int(as_user) <= 2**63 - 1:
        raise ServiceError("invalid", "as: must be a member's user id", "as")
    else:
        user_id = int(as_user)
    if user_id != viewer.user_id and not policy.runs_table(viewer):
        raise NotAllowed("as: only a GM may replay a session as someone else", "as")
    member = (
        Membership.objects.filter(campaign_id=campaign_id, user_id=user_id)
        .select_related("user")
        .first()
    )
    if member is None:
        raise ServiceError("not_member", "as: no member of this campaign has that id", "as")
    return member


def window(session: PlaySession) -> dict | None:
    """The seqs that bound a session's replay: `first` (the events to fold
    before play), `start` (its session.started) and `end` (its session.ended,
    or the log's last event while it is open). None for a session whose
    start is not in the log."""
    span = sessions.session_span(session)
    if span is None:
        return None
    started, ended = span
    if ended is None:
        ended = Campaign.objects.values_list("event_seq", flat=True).get(pk=session.campaign_id)
    base = (
        RoomEvent.objects.filter(
            campaign_id=session.campaign_id,
            kind=event_kinds.SCENE_ACTIVATED,
            seq__lte=started,
        )
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return {"first": started if base is None else base, "start": started, "end": ended}


def _settings_at(campaign: Campaign, seq: int) -> dict:
    """The table's settings as the log last gave them before `seq`; the
    settings now when no change was logged before it."""
    data = (
        RoomEvent.objects.filter(
            campaign_id=campaign.pk, kind=event_kinds.CAMPAIGN_UPDATED, seq__lt=seq
        )
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    return data["campaign"]["settings"] if data else campaign.settings


def replay_page(session: PlaySession, member: Membership, after: int | None = None) -> dict:
    """One page of a session's replay for a member: the bounds, their view
    of each event (event_view, as the live room renders it for them), the
    throws of the session those views show (to jump to), and the seq the
    next page follows (`next`, None on the last page); `settings`, the
    table's settings its first event was rendered under."""
    bounds = window(session)
    if bounds is None:
        return {
            "first": None,
            "start": None,
            "end": None,
            "settings": None,
            "events": [],
            "rolls": [],
            "next": None,
        }
    first = bounds["first"] if after is None else max(after + 1, bounds["first"])
    campaign = Campaign.objects.get(pk=session.campaign_id)
    settings = starting = _settings_at(campaign, first)
    rows = list(
        RoomEvent.objects.filter(
            campaign_id=campaign.pk, seq__gte=first, seq__lte=bounds["end"]
        ).order_by("seq")[: PAGE + 1]
    )
    events, rolls = [], []
    for event in rows[:PAGE]:
        viewer = policy.member_viewer(member, settings)
        view = policy.event_view(event, viewer)
        events.append(view)
        if event.kind == event_kinds.CAMPAIGN_UPDATED:
            # The live room renders this event for the group it had and
            # switches group after it: so does the replay.
            settings = event.payload.campaign["settings"]
        if event.seq >= bounds["start"] and event.kind in draws.THROWING:
            rolls.extend(
                {"roll": t["roll"], "seq": event.seq, "words": t["words"]}
                for t in draws.throws(view["type"], view.get("data"))
                if t["session"] == session.number
            )
    more = len(rows) > PAGE
    return {
        **bounds,
        "settings": starting,
        "events": events,
        "rolls": rolls,
        "next": rows[PAGE - 1].seq if more else None,
    }


def replay_data(session: PlaySession, member: Membership, after: int | None = None) -> dict:
    """What the replay's page and its REST answer carry: the campaign, the
    session, whose view it is and one page of the replay."""
    campaign = session.campaign
    return {
        "campaign": {"id": campaign.pk, "name": campaign.name, "game": campaign.game},
        "session": sessions.session_data(session),
        "viewer": {**user_data(member.user), "role": member.role},
        # The sight groups the viewer's fog is drawn for (the page picks by
        # the settings as the replay plays them); null: a GM, no fog.
        "sight": policy.sight_groups(member),
        **replay_page(session, member, after),
    }
