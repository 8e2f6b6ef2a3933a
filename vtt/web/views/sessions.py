"""Play sessions in the browser (docs/dice.md): the list, with the GM's
start and end buttons, and one session's check page, where the viewer's
own browser recomputes every roll they saw from the revealed seed
(static/js/verify/). A campaign one is not a member of is a 404."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from vtt.tabletop import replay as replays
from vtt.tabletop import selectors, services, sessions
from vtt.tabletop.models import Role
from vtt.tabletop.services import ServiceError

from ..access import membership_or_404


@login_required
def index(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    listed = list(sessions.sessions_of(campaign_id).reverse())
    context = {
        "campaign": membership.campaign,
        "sessions": listed,
        "is_gm": membership.role == Role.GM,
        "open": next((s for s in listed if s.is_open), None),
    }
    return render(request, "web/sessions.html", context)


@login_required
def check(request, campaign_id: int, number: int):
    membership = membership_or_404(request.user, campaign_id)
    session = sessions.session_of(campaign_id, number)
    if session is None:
        raise Http404("no such session")
    checked = sessions.session_check(session, selectors.viewer_of(membership))
    context = {"campaign": membership.campaign, "check": checked}
    return render(request, "web/session_check.html", context)


@login_required
def replay(request, campaign_id: int, number: int):
    """The session on the map, as the viewer saw it; a GM picks whose view
    (`?as=`). The page's script reads the replay from the REST API, which
    renders every event through the visibility policy."""
    membership = membership_or_404(request.user, campaign_id)
    session = sessions.session_of(campaign_id, number)
    if session is None:
        raise Http404("no such session")
    viewer = selectors.viewer_of(membership)
    try:
        watched = replays.watcher(campaign_id, viewer, request.GET.get("as"))
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("web:session_replay", campaign_id=campaign_id, number=number)
    is_gm = membership.role == Role.GM
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
        request, campaign_id, services.session_start, "Session {number} started: its digest is out."
    )


@login_required
@require_POST
def end(request, campaign_id: int):
    return _gm_does(
        request, campaign_id, services.session_end, "Session {number} ended: its seed is out."
    )
