import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role, Token

from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


def role_of(table, user):
    return Membership.objects.get(campaign=table.campaign, user=user).role


def test_gm_changes_roles_and_the_room_hears_of_it(table):
    seq = last_seq(table.campaign)
    services.membership_set_role(
        campaign_id=table.campaign.pk, by=table.gm, user_id=table.observer.pk, role="player"
    )
    assert role_of(table, table.observer) == Role.PLAYER
    [event] = events_after(table.campaign, seq)
    assert event.kind == "member.updated"
    assert event.data == {"user": {"id": table.observer.pk, "name": "observer"}, "role": "player"}


def test_players_do_not_change_roles(table):
    with pytest.raises(services.NotAllowed):
        services.membership_set_role(
            campaign_id=table.campaign.pk, by=table.player, user_id=table.player.pk, role="gm"
        )
    assert role_of(table, table.player) == Role.PLAYER


def test_the_last_gm_stays(table):
    for call in (
        lambda: services.membership_set_role(
            campaign_id=table.campaign.pk, by=table.gm, user_id=table.gm.pk, role="player"
        ),
        lambda: services.membership_remove(
            campaign_id=table.campaign.pk, by=table.gm, user_id=table.gm.pk
        ),
    ):
        with pytest.raises(services.ServiceError) as caught:
            call()
        assert caught.value.code == "last_gm"
    assert role_of(table, table.gm) == Role.GM
    # With a second GM the first may step down.
    services.membership_set_role(
        campaign_id=table.campaign.pk, by=table.gm, user_id=table.other.pk, role="gm"
    )
    services.membership_set_role(
        campaign_id=table.campaign.pk, by=table.gm, user_id=table.gm.pk, role="player"
    )
    assert Membership.objects.filter(campaign=table.campaign, role=Role.GM).count() == 1


def test_members_leave_and_gms_remove(table):
    with pytest.raises(services.NotAllowed):
        services.membership_remove(
            campaign_id=table.campaign.pk, by=table.player, user_id=table.other.pk
        )
    seq = last_seq(table.campaign)
    services.membership_remove(
        campaign_id=table.campaign.pk, by=table.player, user_id=table.player.pk
    )
    assert not Membership.objects.filter(campaign=table.campaign, user=table.player).exists()
    events = events_after(table.campaign, seq)
    assert [e.kind for e in events] == ["member.removed", "token.updated"]
    token = Token.objects.get(pk=table.tenrec_token.pk)
    assert list(token.controllers.all()) == []
    assert token.version == table.tenrec_token.version + 1
    services.membership_remove(campaign_id=table.campaign.pk, by=table.gm, user_id=table.other.pk)
    with pytest.raises(services.NotFound):
        services.membership_remove(
            campaign_id=table.campaign.pk, by=table.gm, user_id=table.outsider.pk
        )


def test_leaving_tells_players_nothing_of_a_token_on_a_map_in_preparation(table):
    """The token.updated for a leaver's token on a scene the room is not on
    is the GM's alone, like every other event of that scene."""
    prepared = services.token_create(
        scene_id=table.spare_scene.pk,
        by=table.gm,
        name="Tenrec in the burial chamber",
        controllers=[table.player.pk],
    )
    seq = last_seq(table.campaign)
    services.membership_remove(
        campaign_id=table.campaign.pk, by=table.player, user_id=table.player.pk
    )
    updates = {e.data["token"]["id"]: e for e in events_after(table.campaign, seq)[1:]}
    assert updates[prepared.pk].visibility == "gm"
    assert updates[table.tenrec_token.pk].visibility == "public"
