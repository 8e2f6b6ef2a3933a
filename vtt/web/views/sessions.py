"""Play sessions in the browser (docs/dice.md): the list, with the GM's
start and end buttons, and one session's check page, where the viewer's
own browser recomputes every roll they saw from the revealed seed
(static/js/verify/). A campaign one is not a member of is a 404."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from vtt.dice import session_end, session_start
from vtt.records import dice_stats, journal, sessions
from vtt.records import replay as replays
from vtt.tabletop import policy, selectors
from vtt.tabletop.services import ServiceError

from ..access import membership_or_404


@login_required
def index(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    listed = list(sessions.sessions_of(campaign_id).reverse())
    context = {
        "campaign": membership.campaign,
        "sessions": listed,
        "is_gm": policy.runs_table(membership),
        "open": next((s for s in listed if s.is_open), None),
    }
    return render(request, "web/sessions.html", context)


def _member_and_session(request, campaign_id: int, number: int):
    """The asker's membership and the campaign's session `number`, or 404."""
    membership = membership_or_404(request.user, campaign_id)
    session = sessions.session_of(campaign_id, number)
    if session is None:
        raise Http404("no such session")
    return membership, session


@login_required
def check(request, campaign_id: int, number: int):
    membership, session = _member_and_session(request, campaign_id, number)
    checked = sessions.session_check(session, selectors.viewer_of(membership))
    context = {"campaign": membership.campaign, "check": checked}
    return render(request, "web/session_check.html", context)


@login_required
def replay(request, campaign_id: int, number: int):
    """The session on the map, as the viewer saw it; a GM picks whose view
    (`?as=`). The page's script reads the replay from the REST API, which
    renders every event through the visibility policy."""
    membership, session = _member_and_session(request, campaign_id, number)
    viewer = selectors.viewer_of(membership)
    try:
        watched = replays.watcher(campaign_id, viewer, request.GET.get("as"))
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("web:session_replay", campaign_id=campaign_id, number=number)
    is_gm = policy.runs_table(membership)
    members = list(selectors.members_of(campaign_id).order_by("user__username")) if is_gm else []
    api = f"/api/campaigns/{campaign_id}/sessions/{number}/replay/"
    config = {
        "api": api if watched.user_id == request.user.pk else f"{api}?as={watched.user_id}",
        "watched": {"id": watched.user_id, "role": watched.role},
    }
    context = {
        "campaign": membership.campaign,
        "session": session,
        "is_gm": is_gm,
        "members": members,
        "watched": watched,
        "config": config,
    }
    return render(request, "web/session_replay.html", context)


@login_required
def session_journal(request, campaign_id: int, number: int):
    """The session's journal as the viewer saw it, a page to read or print
    (docs/journal.md); its Markdown is a link away."""
    membership, session = _member_and_session(request, campaign_id, number)
    written = journal.journal(session, selectors.viewer_of(membership))
    context = {"campaign": membership.campaign, "journal": written}
    return render(request, "web/journal.html", context)


@login_required
def dice(request, campaign_id: int):
    """How the dice the viewer saw came up (docs/dice.md, "Dice statistics"):
    every session's, or one's with ?session=<number>."""
    membership = membership_or_404(request.user, campaign_id)
    number = request.GET.get("session") or None
    if number is not None:
        if not (number.isdigit() and len(number) < 10) or not sessions.session_of(
            campaign_id, int(number)
        ):
            raise Http404("no such session")
        number = int(number)
    stats = dice_stats.dice_stats(campaign_id, selectors.viewer_of(membership), number)
    for group in (stats["everyone"], *stats["players"], *stats["characters"]):
        _chart(group["dice"])
        _chart(group["physical"])
    context = {
        "campaign": membership.campaign,
        "sections": [
            ("Everyone's dice", [stats["everyone"]], "everyone"),
            ("Per player", stats["players"], "players"),
            ("Per character", stats["characters"], "characters"),
        ],
        "sessions": sessions.sessions_of(campaign_id),
        "session": number,
    }
    return render(request, "web/dice_stats.html", context)


_VERDICT_CLASS = {
    dice_stats.TOO_FEW: "few",
    dice_stats.LOOK_FAIR: "fair",
    dice_stats.A_LITTLE_UNEVEN: "chance",
    dice_stats.UNEVEN: "uneven",
}


def _chart(fit: dict) -> None:
    """Each face's bar as a share of the widest (a count or the expected
    line, with some room), and where the expected line falls."""
    widest = max(*fit["counts"].values(), fit["expected"]) * 1.15 or 1
    fit["bars"] = [
        {
            "face": face,
            "count": count,
            "width": round(100 * count / widest, 1),
            "expected_at": round(100 * fit["expected"] / widest, 1),
        }
        for face, count in fit["counts"].items()
    ]
    fit["verdict_class"] = _VERDICT_CLASS[fit["verdict"]]


def _gm_does(request, campaign_id: int, act, done: str):
    membership_or_404(request.user, campaign_id)
    try:
        session = act(campaign_id=campaign_id, by=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done.format(number=session.number))
    return redirect("web:sessions", campaign_id=campaign_id)


@login_required
@require_POST
def start(request, campaign_id: int):
    return _gm_does(
        request, campaign_id, session_start, "Session {number} started: its digest is out."
    )


@login_required
@require_POST
def end(request, campaign_id: int):
    return _gm_does(request, campaign_id, session_end, "Session {number} ended: its seed is out.")
