"""The PostgreSQL backend (vtt/postgresql) splits Django's bulk writes so
no statement carries more than the 65,535 parameters server-side binding
allows, and flushes by deleting rows rather than truncating tables."""

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Value

from tests.combat.battle import make_battle
from vtt.tabletop.models import Roll

pytestmark = pytest.mark.django_db


def test_a_bulk_insert_past_one_statements_parameters_is_split(postgres):
    assert connection.features.uses_server_side_binding
    campaign = make_battle().campaign
    # A value given as an expression cannot go in the arrays Django sends
    # most bulk inserts as, so each row is its own parameters: 72,000.
    rows = [Roll(campaign=campaign, visibility="gm", physical=Value(True)) for _ in range(8_000)]

    Roll.objects.bulk_create(rows)

    assert Roll.objects.filter(campaign=campaign, physical=True).count() == len(rows)


@pytest.mark.django_db(transaction=True)
def test_a_flush_deletes_every_row_whatever_refers_to_what(postgres):
    campaign = make_battle().campaign
    Roll.objects.create(campaign=campaign, visibility="gm")
    last_roll = Roll.objects.latest("pk").pk
    tables = connection.introspection.django_table_names(only_existing=True)
    assert all(
        sql.startswith("DELETE FROM") for sql in connection.ops.sql_flush(no_style(), tables)
    )

    # As the test database is emptied after each transactional test.
    call_command(
        "flush", interactive=False, verbosity=0, reset_sequences=False, inhibit_post_migrate=True
    )

    filled = [m.__name__ for m in apps.get_models() if m.objects.exists()]
    assert filled == []
    # The sequences go on, as after TRUNCATE without RESTART IDENTITY.
    campaign = make_battle().campaign
    assert Roll.objects.create(campaign=campaign, visibility="gm").pk > last_roll


def test_a_flush_that_restarts_sequences_or_cascades_still_truncates(postgres):
    for options in ({"reset_sequences": True}, {"allow_cascade": True}):
        [sql] = connection.ops.sql_flush(no_style(), ["vtt_table"], **options)
        assert sql.startswith("TRUNCATE"), options
