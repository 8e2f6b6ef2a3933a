"""A room's log is appended to and never rewritten: the model refuses to
change or delete an entry, and only a campaign's deletion (or a user's, which
forgets who acted) touches stored entries."""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests import factories
from tests.tabletop.helpers import chat_data
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, LogIsAppendOnly, RoomEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry():
    gm = get_user_model().objects.create_user("log-gm")
    campaign = factories.campaign(gm, name="The Tomb", game="artifice")
    with transaction.atomic():
        return append_event(campaign=campaign, kind="chat", data=chat_data("hello"), actor=gm)


def stored(entry) -> tuple:
    return RoomEvent.objects.filter(pk=entry.pk).values_list("kind", "data", "seq").get()


def test_an_entry_is_appended(entry):
    assert stored(entry) == ("chat", chat_data("hello"), entry.seq)


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda e: RoomEvent.objects.filter(pk=e.pk).update(data={"text": "forged"}),
        lambda e: RoomEvent.objects.filter(campaign_id=e.campaign_id).update(seq=99),
        lambda e: RoomEvent.objects.bulk_update([e], ["data"]),
        lambda e: e.save(),
        lambda e: RoomEvent.objects.filter(pk=e.pk).delete(),
        lambda e: RoomEvent.objects.all().delete(),
        lambda e: e.delete(),
    ],
    ids=["update", "update-all", "bulk-update", "save", "delete", "delete-all", "delete-one"],
)
def test_no_entry_is_changed_or_deleted_on_its_own(entry, rewrite):
    before = stored(entry)
    entry.data = {"text": "forged"}
    with pytest.raises(LogIsAppendOnly):
        rewrite(entry)
    assert stored(entry) == before


def test_the_log_goes_with_its_campaign(entry):
    Campaign.objects.filter(pk=entry.campaign_id).delete()
    assert not RoomEvent.objects.filter(pk=entry.pk).exists()


def test_a_deleted_user_leaves_the_entries_without_an_actor(entry):
    get_user_model().objects.filter(pk=entry.actor_id).delete()
    assert RoomEvent.objects.values_list("actor_id", flat=True).get(pk=entry.pk) is None
    assert stored(entry) == ("chat", chat_data("hello"), entry.seq)
