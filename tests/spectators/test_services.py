"""Spectator links' services and selectors: made and revoked by the GM
alone, bounded, kept as a hash; a token opens only an open link."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests import factories
from vtt.core.errors import NotAllowed, NotFound, ServiceError
from vtt.spectators.models import SpectatorLink
from vtt.spectators.selectors import link_for_token, link_state
from vtt.spectators.services import link_create, link_revoke
from vtt.spectators.signals import link_closed

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return factories.people()


@pytest.fixture
def campaign(people):
    return factories.campaign_at_table(people)


def test_a_gm_makes_a_link_that_its_token_opens(campaign, people):
    link, token = link_create(
        campaign_id=campaign.pk, by=people["gm"], label=" Stream ", delay_seconds=30
    )
    assert (link.label, link.delay_seconds, link.expires_at) == ("Stream", 30, None)
    assert token not in link.token_hash
    found = link_for_token(token)
    assert found["id"] == link.pk and found["campaign_id"] == campaign.pk
    assert found["delay_seconds"] == 30
    # Two links never share a token.
    assert link_create(campaign_id=campaign.pk, by=people["gm"])[1] != token


@pytest.mark.parametrize("who", ["player", "observer"])
def test_only_a_gm_makes_a_link(campaign, people, who):
    with pytest.raises(NotAllowed):
        link_create(campaign_id=campaign.pk, by=people[who])
    assert not SpectatorLink.objects.exists()


def test_a_stranger_learns_nothing(campaign, people):
    with pytest.raises(NotFound):
        link_create(campaign_id=campaign.pk, by=people["stranger"])
    link, _ = link_create(campaign_id=campaign.pk, by=people["gm"])
    with pytest.raises(NotFound):
        link_revoke(link_id=link.pk, by=people["stranger"])
    with pytest.raises(NotFound):
        link_revoke(link_id=link.pk + 1000, by=people["gm"])


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"delay_seconds": 601}, "delay_seconds"),
        ({"delay_seconds": -1}, "delay_seconds"),
        ({"delay_seconds": True}, "delay_seconds"),
        ({"expires_in_minutes": 0}, "expires_in_minutes"),
        ({"expires_in_minutes": 60 * 24 * 366}, "expires_in_minutes"),
        ({"label": "x" * 81}, "label"),
        ({"label": "a\x00b"}, "label"),
        ({"label": None}, "label"),
    ],
)
def test_bad_input_is_refused_by_field_and_nothing_stored(campaign, people, fields, field):
    with pytest.raises(ServiceError) as refused:
        link_create(campaign_id=campaign.pk, by=people["gm"], **fields)
    assert refused.value.field == field
    assert not SpectatorLink.objects.exists()


def test_revoked_and_expired_links_open_nothing(campaign, people):
    revoked, revoked_token = link_create(campaign_id=campaign.pk, by=people["gm"])
    expired, expired_token = link_create(
        campaign_id=campaign.pk, by=people["gm"], expires_in_minutes=5
    )
    told = []

    def heard(sender, campaign_id, link_id, **kwargs):
        told.append((campaign_id, link_id))

    link_closed.connect(heard, weak=False, dispatch_uid="t")
    try:
        with pytest.raises(NotAllowed):
            link_revoke(link_id=revoked.pk, by=people["player"])
        with django_capture_on_commit():
            link_revoke(link_id=revoked.pk, by=people["gm"])
    finally:
        link_closed.disconnect(dispatch_uid="t")
    assert told == [(campaign.pk, revoked.pk)]  # the rooms are told, after the commit
    SpectatorLink.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    expired.refresh_from_db()
    revoked.refresh_from_db()
    assert link_for_token(revoked_token) is None and link_state(revoked) == "revoked"
    assert link_for_token(expired_token) is None and link_state(expired) == "expired"
    for guess in ("", "x" * 65, None, 5, "nope"):
        assert link_for_token(guess) is None


def django_capture_on_commit():
    """Run the on-commit callbacks of the block (the test is in a transaction)."""
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=True)
