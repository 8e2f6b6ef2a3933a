"""Invites: a code that lets someone join a campaign as a player or an
observer, until it expires or is used up."""

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from vtt.core import shapes

from .. import event_kinds
from ..events import append_event
from ..models import Campaign, Invite, Membership, Role
from ..serialize import user_data
from .access import actor, as_gm, find, require_gm
from .errors import NotFound, ServiceError

MAX_USES = 1000


def invite_create(
    *,
    campaign: Campaign,
    by,
    role: str = Role.PLAYER,
    expires_at: datetime | None = None,
    max_uses: int | None = None,
) -> Invite:
    require_gm(campaign.pk, by, doing="invite people")
    role = shapes.choice(role, "role", (Role.PLAYER, Role.OBSERVER))
    if expires_at is not None:
        if not isinstance(expires_at, datetime) or timezone.is_naive(expires_at):
            raise shapes.invalid("expires_at", "must be a date and time with a time zone")
        if expires_at <= timezone.now():
            raise shapes.invalid("expires_at", "must be in the future")
    if max_uses is not None:
        max_uses = shapes.whole(max_uses, "max_uses", 1, MAX_USES)
    return Invite.objects.create(
        campaign=campaign,
        code=secrets.token_urlsafe(12),
        role=role,
        expires_at=expires_at,
        max_uses=max_uses,
        created_by=actor(by),
    )


def invite_revoke(*, invite_id: int, by) -> None:
    invite, member = find(Invite.objects, invite_id, by, "invite")
    as_gm(member, "revoke invites")
    invite.delete()


def invite_accept(*, code: str, user) -> Membership:
    """Join with `code`. Someone already in the campaign keeps their role and
    uses nothing up."""
    if not isinstance(code, str) or not code or len(code) > 64:
        raise NotFound("no such invite", "code")
    with transaction.atomic():
        campaign_id = Invite.objects.filter(code=code).values_list("campaign_id", flat=True).first()
        if campaign_id is None:
            raise NotFound("no such invite", "code")
        # Campaign first, then the invite: the order every role change locks in.
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        invite = Invite.objects.select_for_update().get(code=code)
        existing = Membership.objects.filter(campaign=campaign, user=user).first()
        if existing is not None:
            return existing
        if invite.expires_at is not None and invite.expires_at <= timezone.now():
            raise ServiceError("invite_expired", "this invite has expired", "code")
        if invite.max_uses is not None and invite.uses >= invite.max_uses:
            raise ServiceError("invite_used_up", "this invite has been used up", "code")
        invite.uses += 1
        invite.save(update_fields=["uses"])
        member = Membership.objects.create(campaign=campaign, user=user, role=invite.role)
        append_event(
            campaign=campaign,
            kind=event_kinds.MEMBER_JOINED,
            data={"user": user_data(user), "role": member.role},
            actor=user,
        )
    return member
