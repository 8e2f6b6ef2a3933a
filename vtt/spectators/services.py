"""The GM's spectator links: made and revoked here, by whatever door
(REST, the GM console). Each checks the asker is a GM of the campaign."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from vtt.core import shapes
from vtt.tabletop.services.access import actor, as_gm, find, require_gm

from .models import MAX_DELAY, SpectatorLink
from .signals import link_closed
from .tokens import new_token, token_hash

MAX_LABEL = 80
MAX_MINUTES = 60 * 24 * 365  # a link lasts a year at most, when it expires at all


def link_create(
    *,
    campaign_id: int,
    by,
    label: str = "",
    delay_seconds: int = 0,
    expires_in_minutes: int | None = None,
) -> tuple[SpectatorLink, str]:
    """A new link and its token: the only time the token is known. Watching
    through it starts delay_seconds behind the table (0 to 600) and ends
    after `expires_in_minutes`, or when revoked (None: only then)."""
    require_gm(campaign_id, by, doing="make spectator links")
    if not isinstance(label, str):
        raise shapes.invalid("label", "must be text")
    label = label.strip()
    if len(label) > MAX_LABEL:
        raise shapes.invalid("label", f"must be at most {MAX_LABEL} characters")
    shapes.storable(label, "label")
    delay_seconds = shapes.whole(delay_seconds, "delay_seconds", 0, MAX_DELAY)
    expires_at = None
    if expires_in_minutes is not None:
        minutes = shapes.whole(expires_in_minutes, "expires_in_minutes", 1, MAX_MINUTES)
        expires_at = timezone.now() + timedelta(minutes=minutes)
    token = new_token()
    link = SpectatorLink.objects.create(
        campaign_id=campaign_id,
        label=label,
        token_hash=token_hash(token),
        delay_seconds=delay_seconds,
        expires_at=expires_at,
        created_by=actor(by),
    )
    return link, token


def link_revoke(*, link_id: int, by) -> SpectatorLink:
    """The link admits nobody from now on, and the sockets watching through
    it are closed. Revoking a revoked link changes nothing."""
    with transaction.atomic():
        link, member = find(SpectatorLink.objects.select_for_update(), link_id, by, "link")
        as_gm(member, "revoke spectator links")
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
        campaign_id, closed = link.campaign_id, link.pk
        transaction.on_commit(
            lambda: link_closed.send(SpectatorLink, campaign_id=campaign_id, link_id=closed)
        )
    return link
