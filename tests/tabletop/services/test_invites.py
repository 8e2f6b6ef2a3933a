from datetime import timedelta

import pytest
from django.utils import timezone

from vtt.tabletop import services
from vtt.tabletop.models import Invite, Membership

from ..helpers import events_after, last_seq
from ..table import make_user

pytestmark = pytest.mark.django_db


def test_join_with_an_invite(table):
    invite = services.invite_create(campaign=table.campaign, by=table.gm, role="observer")
    assert len(invite.code) >= 16
    seq = last_seq(table.campaign)
    member = services.invite_accept(code=invite.code, user=table.outsider)
    assert member.role == "observer"
    invite.refresh_from_db()
    assert invite.uses == 1
    [event] = events_after(table.campaign, seq)
    assert event.kind == "member.joined"
    assert event.data == {"user": {"id": table.outsider.pk, "name": "outsider"}, "role": "observer"}


def test_a_member_keeps_their_role_and_uses_nothing(table):
    invite = services.invite_create(
        campaign=table.campaign, by=table.gm, role="observer", max_uses=1
    )
    member = services.invite_accept(code=invite.code, user=table.player)
    assert member.role == "player"
    invite.refresh_from_db()
    assert invite.uses == 0


def test_used_up_and_expired_invites(table):
    invite = services.invite_create(campaign=table.campaign, by=table.gm, max_uses=1)
    services.invite_accept(code=invite.code, user=table.outsider)
    late = make_user("late")
    with pytest.raises(services.ServiceError) as caught:
        services.invite_accept(code=invite.code, user=late)
    assert caught.value.code == "invite_used_up"
    soon = services.invite_create(
        campaign=table.campaign, by=table.gm, expires_at=timezone.now() + timedelta(seconds=60)
    )
    Invite.objects.filter(pk=soon.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.ServiceError) as caught:
        services.invite_accept(code=soon.code, user=late)
    assert caught.value.code == "invite_expired"
    assert not Membership.objects.filter(user=late).exists()


@pytest.mark.parametrize("code", ["nope", "", None, 12, "x" * 65])
def test_unknown_codes(table, code):
    with pytest.raises(services.NotFound):
        services.invite_accept(code=code, user=table.outsider)


def test_only_gms_invite_with_sane_terms(table):
    with pytest.raises(services.NotAllowed):
        services.invite_create(campaign=table.campaign, by=table.player)
    with pytest.raises(services.NotFound):
        services.invite_create(campaign=table.campaign, by=table.outsider)
    for kwargs, field in (
        ({"role": "gm"}, "role"),
        ({"max_uses": 0}, "max_uses"),
        ({"expires_at": timezone.now() - timedelta(days=1)}, "expires_at"),
        ({"expires_at": "tomorrow"}, "expires_at"),
    ):
        with pytest.raises(services.ServiceError) as caught:
            services.invite_create(campaign=table.campaign, by=table.gm, **kwargs)
        assert caught.value.field == field
    assert not Invite.objects.exists()


def test_revoke(table):
    invite = services.invite_create(campaign=table.campaign, by=table.gm)
    with pytest.raises(services.NotAllowed):
        services.invite_revoke(invite_id=invite.pk, by=table.player)
    services.invite_revoke(invite_id=invite.pk, by=table.gm)
    with pytest.raises(services.NotFound):
        services.invite_accept(code=invite.code, user=table.outsider)
