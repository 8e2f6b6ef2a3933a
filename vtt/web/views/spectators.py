"""Spectators: the page a link opens (the room watched read-only, by
anyone holding it, with no account), and the GM console's making and
revoking of links."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from vtt.spectators.selectors import link_for_token, links_of
from vtt.spectators.services import link_create, link_revoke
from vtt.tabletop.services import ServiceError

from ..access import gm_membership_or_404
from ..gm_forms import SpectatorLinkForm
from ..service_errors import add_service_error
from .gm import _console


def watch(request, token: str):
    """The room as its party sees it, read-only: a map, the log and who is
    there, filled by the link's socket (static/js/watch/page.js). An
    unknown, revoked or expired link is one page, with 404."""
    link = link_for_token(token)
    if link is None:
        return render(request, "web/watch_closed.html", status=404)
    delay = link["delay_seconds"]
    config = {
        "campaign": link["campaign"],
        "socket": reverse("web:watch", args=[token]).replace("/watch/", "/ws/watch/", 1),
        "delay_seconds": delay,
        "me": {"id": 0, "name": "Spectator", "role": "observer"},
    }
    context = {"campaign": link["campaign"], "delay": delay, "config": config}
    response = render(request, "web/watch.html", context)
    # The address is the key: kept by no cache (the site's Referrer-Policy,
    # same-origin, already sends it to no other site).
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def link_new(request, campaign_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    form = SpectatorLinkForm(request.POST)
    if form.is_valid():
        try:
            _, token = link_create(
                campaign_id=campaign_id,
                by=request.user,
                label=form.cleaned_data["label"],
                delay_seconds=form.cleaned_data["delay_seconds"],
                expires_in_minutes=form.cleaned_data["expires_minutes"],
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            # Shown on this answer only: the token is kept nowhere.
            url = request.build_absolute_uri(reverse("web:watch", args=[token]))
            return _console(request, membership, new_spectator_url=url)
    return _console(request, membership, spectator_form=form, status=400)


@login_required
@require_POST
def link_revoked(request, campaign_id: int, link_id: int):
    gm_membership_or_404(request.user, campaign_id)
    if not links_of(campaign_id).filter(pk=link_id).exists():
        raise Http404("no such link")  # another campaign's, or none: one answer
    link_revoke(link_id=link_id, by=request.user)
    messages.success(request, "Spectator link revoked: whoever watched through it was let go.")
    return redirect("web:gm", campaign_id=campaign_id)
