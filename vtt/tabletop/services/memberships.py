"""Who belongs to a campaign and as what. A campaign always keeps at least
one GM: the last one can be neither demoted nor removed."""

from django.contrib.auth import get_user_model
from django.db import transaction

from vtt.core import shapes

from .. import event_kinds, policy
from ..events import append_event
from ..models import Campaign, Membership, Role, Token
from ..serialize import member_data, user_data
from .access import actor, require_gm, require_member
from .errors import NotAllowed, NotFound, ServiceError
from .tokens import token_changed


def _lock(campaign_id: int, user_id) -> tuple[Campaign, Membership]:
    """Lock the campaign row first: every change of roles in one campaign
    then runs one at a time, so the GM count cannot be raced below one."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    member = (
        Membership.objects.select_related("user")
        .filter(campaign_id=campaign_id, user_id=user_id)
        .first()
    )
    if member is None:
        raise NotFound("no such member", "user_id")
    return campaign, member


def _keep_a_gm(campaign_id: int, member: Membership):
    if policy.runs_table(member):
        others = Membership.objects.filter(policy.gms_q(), campaign_id=campaign_id).exclude(
            pk=member.pk
        )
        if not others.exists():
            raise ServiceError(
                "last_gm", "a campaign must keep at least one GM; make another GM first", "role"
            )


def membership_add(*, campaign_id: int, by, user_id: int, role: str = Role.PLAYER) -> Membership:
    """Add someone directly (a GM, or the server: the admin site, the demo)."""
    require_gm(campaign_id, by, doing="add members")
    role = shapes.choice(role, "role", Role.values)
    user = get_user_model().objects.filter(pk=user_id).first() if type(user_id) is int else None
    if user is None:
        raise shapes.invalid("user_id", "no such user")
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if Membership.objects.filter(campaign=campaign, user=user).exists():
            raise ServiceError("already_member", f"{user} is already a member", "user_id")
        member = Membership.objects.create(campaign=campaign, user=user, role=role)
        append_event(
            campaign=campaign,
            kind=event_kinds.MEMBER_JOINED,
            data={"user": user_data(user), "role": role},
            actor=actor(by),
        )
    return member


def membership_set_role(*, campaign_id: int, by, user_id: int, role: str) -> Membership:
    require_gm(campaign_id, by, doing="change roles")
    role = shapes.choice(role, "role", Role.values)
    with transaction.atomic():
        campaign, member = _lock(campaign_id, user_id)
        if member.role == role:
            return member
        if role != Role.GM:
            _keep_a_gm(campaign_id, member)
        member.role = role
        member.save(update_fields=["role"])
        append_event(
            campaign=campaign,
            kind=event_kinds.MEMBER_UPDATED,
            data=member_data(member),
            actor=actor(by),
        )
    return member


def membership_remove(*, campaign_id: int, by, user_id: int) -> None:
    """A GM removes anyone; any member may remove themselves (leave)."""
    me = require_member(campaign_id, by)
    if getattr(by, "pk", None) != user_id and not policy.runs_table(me):
        raise NotAllowed("only a GM may remove other members")
    with transaction.atomic():
        campaign, member = _lock(campaign_id, user_id)
        _keep_a_gm(campaign_id, member)
        tokens = list(
            Token.objects.select_for_update(of=("self",))
            .select_related("scene__campaign")
            .filter(scene__campaign_id=campaign_id, controllers=member.user)
            .order_by("pk")
        )
        member.delete()
        append_event(
            campaign=campaign,
            kind=event_kinds.MEMBER_REMOVED,
            data={"user": user_data(member.user)},
            actor=actor(by),
        )
        # Their tokens stay on the map, controlled by whoever else controls them.
        for token in tokens:
            token.controllers.remove(member.user)
            # A token on a map still being prepared is the GM's news alone.
            token_changed(token, by)
