"""The written-out reads and writes give and store what the ORM would."""

import datetime

import pytest
from django.db import connection, transaction

from tests import factories
from vtt.db import rows
from vtt.tabletop.models import Campaign, Membership, Roll
from vtt.tabletop.services.access import membership


def test_membership_with_its_campaign_reads_as_the_orm_reads_it(table):
    table.campaign.settings = {"diagonal": "alternate", "nested": {"a": [1, 2]}}
    table.campaign.save()
    found = membership(table.campaign.pk, table.player, with_campaign=True)
    stored = Membership.objects.select_related("campaign").get(
        campaign=table.campaign, user=table.player
    )
    assert found.pk == stored.pk and found.role == "player"
    assert found.user_id == table.player.pk
    # A date is a date (SQLite gives text), aware as the ORM's.
    assert isinstance(found.joined_at, datetime.datetime)
    assert found.joined_at == stored.joined_at and found.joined_at.tzinfo is not None
    # JSON is decoded; the instance is a stored one.
    assert found.campaign.settings == {"diagonal": "alternate", "nested": {"a": [1, 2]}}
    assert found.campaign.event_seq == stored.campaign.event_seq
    assert found.campaign.created_at == stored.campaign.created_at
    assert not found._state.adding and not found.campaign._state.adding


def test_membership_without_the_campaign_and_for_a_stranger(table):
    found = membership(table.campaign.pk, table.gm)
    assert found.role == "gm" and "campaign" not in found._state.fields_cache
    assert membership(table.campaign.pk, table.outsider) is None
    other = factories.campaign(table.outsider, name="Elsewhere", game="artifice")
    assert membership(other.pk, table.player) is None


@pytest.mark.parametrize("campaign_id", [2**63, -(2**63) - 1, 10**30, "not a number", None])
def test_no_membership_for_an_id_no_row_can_have(table, campaign_id):
    assert membership(campaign_id, table.gm) is None
    assert membership(campaign_id, table.gm, with_campaign=True) is None


def test_an_id_given_as_text_is_read_as_the_orm_reads_it(table):
    assert membership(str(table.campaign.pk), table.gm).role == "gm"


def test_an_insert_fills_auto_dates_and_takes_the_new_id(table):
    roll = Roll(campaign=table.campaign, roller=table.gm, visibility="gm", physical=True)
    with transaction.atomic():
        rows.insert(connection, roll)
    assert roll.pk is not None and not roll._state.adding
    stored = Roll.objects.get(pk=roll.pk)
    assert stored.created_at == roll.created_at is not None
    assert (stored.roller_id, stored.visibility, stored.physical) == (table.gm.pk, "gm", True)
    assert stored.own_request is None


def test_an_insert_keeps_an_id_it_is_given(table):
    given = (Campaign.objects.order_by("-pk").values_list("pk", flat=True).first()) + 100
    campaign = Campaign(pk=given, name="Given", game="fgr", settings={"x": [1]})
    with transaction.atomic():
        rows.insert(connection, campaign)
    assert campaign.pk == given
    assert Campaign.objects.get(pk=given).settings == {"x": [1]}
