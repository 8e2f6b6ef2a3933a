"""What is read of spectator links: the one a token opens, and a
campaign's list for its GM."""

from django.db.models import Q, QuerySet
from django.utils import timezone

from vtt.tabletop.models import Campaign

from .models import SpectatorLink
from .tokens import MAX_TOKEN_LENGTH, token_hash


def open_q(now=None) -> Q:
    """Links that admit spectators now: not revoked, not expired."""
    now = now or timezone.now()
    return Q(revoked_at__isnull=True) & (Q(expires_at__isnull=True) | Q(expires_at__gt=now))


def link_for_token(token) -> dict | None:
    """The open link `token` names, with its campaign, or None: an unknown,
    revoked or expired token are one answer, so a guess learns nothing."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    link = (
        SpectatorLink.objects.filter(open_q(), token_hash=token_hash(token))
        .select_related("campaign")
        .first()
    )
    if link is None:
        return None
    return {
        "id": link.pk,
        "campaign_id": link.campaign_id,
        "campaign": campaign_summary(link.campaign),
        "delay_seconds": link.delay_seconds,
        "expires_at": link.expires_at,
    }


def campaign_summary(campaign: Campaign) -> dict:
    return {"id": campaign.pk, "name": campaign.name, "game": campaign.game}


def link_is_open(link_id: int) -> bool:
    return SpectatorLink.objects.filter(open_q(), pk=link_id).exists()


def links_of(campaign_id: int) -> QuerySet:
    return SpectatorLink.objects.filter(campaign_id=campaign_id)


def link_state(link: SpectatorLink, now=None) -> str:
    now = now or timezone.now()
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at is not None and link.expires_at <= now:
        return "expired"
    return "open"


def link_data(link: SpectatorLink) -> dict:
    """A link as its GM reads it: never its token (which is not kept)."""
    return {
        "id": link.pk,
        "label": link.label,
        "delay_seconds": link.delay_seconds,
        "expires_at": link.expires_at.isoformat() if link.expires_at else None,
        "revoked_at": link.revoked_at.isoformat() if link.revoked_at else None,
        "created_at": link.created_at.isoformat(),
        "state": link_state(link),
    }
