import threading

import pytest
from django.db import connection

from tests import factories
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Character, Membership, Role

from ..helpers import events_after, last_seq
from ..table import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def fgr():
    gm, player = make_user("fgm"), make_user("fplayer")
    campaign = factories.campaign(gm, name="Ground", game="fgr", seats={player: Role.PLAYER})
    hero = factories.character(campaign, player, "Hero")
    return campaign, gm, player, hero


def test_spend_what_you_have(fgr):
    campaign, gm, player, hero = fgr
    assert hero.resources["action_points"] == 5
    seq = last_seq(campaign)
    hero = services.resource_spend(
        character_id=hero.pk, by=player, resource="action_points", amount=2
    )
    assert hero.resources["action_points"] == 3
    [event] = events_after(campaign, seq)
    assert event.kind == "character.updated"
    assert event.data["character"]["resources"]["action_points"] == 3


def test_refuse_what_you_lack(fgr):
    campaign, gm, player, hero = fgr
    with pytest.raises(services.ServiceError) as caught:
        services.resource_spend(character_id=hero.pk, by=player, resource="action_points", amount=6)
    assert caught.value.code == "insufficient_action_points"
    assert caught.value.field == "amount"
    hero.refresh_from_db()
    assert hero.resources["action_points"] == 5


@pytest.mark.parametrize(
    ("resource", "amount", "field"),
    [
        ("insight_dice", 1, "resource"),
        ("condition", 1, "resource"),
        ("action_points", 0, "amount"),
        ("action_points", -1, "amount"),
        ("action_points", True, "amount"),
        ("action_points", "1", "amount"),
    ],
)
def test_bad_spends(fgr, resource, amount, field):
    campaign, gm, player, hero = fgr
    with pytest.raises(services.ServiceError) as caught:
        services.resource_spend(character_id=hero.pk, by=player, resource=resource, amount=amount)
    assert (caught.value.code, caught.value.field) == ("invalid", field)


def test_only_owner_or_gm_spend_and_only_gm_awards(fgr):
    campaign, gm, player, hero = fgr
    stranger = make_user("stranger")
    Membership.objects.create(campaign=campaign, user=stranger, role=Role.PLAYER)
    with pytest.raises(services.NotAllowed):
        services.resource_spend(
            character_id=hero.pk, by=stranger, resource="action_points", amount=1
        )
    with pytest.raises(services.NotAllowed):
        services.resource_gain(character_id=hero.pk, by=player, resource="experience", amount=5)
    services.resource_spend(character_id=hero.pk, by=gm, resource="action_points", amount=1)
    hero = services.resource_gain(character_id=hero.pk, by=gm, resource="experience", amount=5)
    assert hero.resources["experience"] == 5 and hero.resources["action_points"] == 4
    hero = services.resource_gain(
        character_id=hero.pk, by=services.SYSTEM, resource="action_points", amount=1
    )
    assert hero.resources["action_points"] == 5
    with pytest.raises(services.ServiceError):
        services.resource_gain(character_id=hero.pk, by=gm, resource="experience", amount=9999)


@pytest.mark.django_db(transaction=True)
def test_concurrent_spends_never_overdraw(postgres):
    """Eight threads each spend 1 of 5 points at once: exactly five succeed."""
    gm, player = make_user("cgm"), make_user("cplayer")
    campaign = factories.campaign(gm, name="Race", game="fgr", seats={player: Role.PLAYER})
    hero = factories.character(campaign, player, "Hero")
    outcomes, barrier = [], threading.Barrier(8)

    def spend():
        barrier.wait()
        try:
            services.resource_spend(
                character_id=hero.pk, by=player, resource="action_points", amount=1
            )
            outcomes.append("ok")
        except services.ServiceError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=spend) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["insufficient_action_points"] * 3 + ["ok"] * 5
    assert Character.objects.get(pk=hero.pk).resources["action_points"] == 0
    assert Campaign.objects.get(pk=campaign.pk).event_seq == last_seq(campaign)
