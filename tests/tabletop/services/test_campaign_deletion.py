"""Deleting a campaign takes every row of it, the log and all that points
at the log, and nothing of another campaign; a long-played room's log goes
in statements the database takes (PostgreSQL carries at most 65,535
parameters a statement with server-side binding)."""

import pytest
from django.db import IntegrityError, connection, transaction

from tests.backup.campaign import CHECK, rich_campaign
from tests.backup.test_round_trip import snapshot
from tests.combat.battle import make_battle
from tests.tabletop.helpers import strike
from vtt import dice
from vtt.combat.models import Attack, Undo
from vtt.records.backup.export import export_campaign
from vtt.records.backup.restore import import_campaign
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Roll, RoomEvent
from vtt.tabletop.services.chat import chat_say

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_a_campaign_goes_whole_and_another_stays_as_it_was():
    battle = rich_campaign()
    gm, original = battle.users["gm"], battle.campaign
    copy = import_campaign(export_campaign(original), owner=gm)
    kept = snapshot(copy)
    # The log and the rows that point at it, all there before.
    for model in (RoomEvent, Roll, Attack, Undo):
        assert model.objects.filter(campaign=original).exists(), model

    services.campaign_delete(campaign_id=original.pk, by=gm)

    # No constraint is left broken (they are checked at commit otherwise).
    connection.check_constraints()
    assert all(rows == [] for rows in snapshot(original).values())
    assert snapshot(copy) == kept


def test_a_long_played_room_is_deleted(postgres):
    battle = rich_campaign()
    gm, campaign = battle.users["gm"], battle.campaign
    lines = 70_000
    line = chat_say(campaign_id=campaign.pk, by=gm, text="and so on")
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {RoomEvent._meta.db_table}
                (campaign_id, seq, kind, data, visibility, actor_id, created_at)
            SELECT campaign_id, seq + n, kind, data, visibility, actor_id, created_at
            FROM {RoomEvent._meta.db_table}, generate_series(1, %s) AS n
            WHERE id = %s""",
            [lines, line.pk],
        )
    Campaign.objects.filter(pk=campaign.pk).update(event_seq=line.seq + lines)
    assert RoomEvent.objects.filter(campaign=campaign).count() > lines

    services.campaign_delete(campaign_id=campaign.pk, by=gm)

    connection.check_constraints()
    assert not RoomEvent.objects.exists()
    assert not Roll.objects.exists() and not Undo.objects.exists()


def test_an_entry_cannot_go_alone_while_a_row_points_at_it():
    battle = make_battle()
    roll = dice.roll_adjudicate(
        campaign_id=battle.campaign.pk, by=battle.users["player"], request=CHECK
    )
    # Behind the model's back (it refuses): the database's own keys must hold.
    strike(RoomEvent.objects.get(pk=roll.event_id))

    # In a savepoint: on PostgreSQL the refusal aborts what it runs in.
    with pytest.raises(IntegrityError), transaction.atomic():
        connection.check_constraints()
    # The test's own rows back in order, for its end to check them.
    Roll.objects.filter(pk=roll.pk).delete()
