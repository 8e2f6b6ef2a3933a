"""The PostgreSQL backend (vtt/postgresql) splits Django's bulk writes so
no statement carries more than the 65,535 parameters server-side binding
allows."""

import pytest
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
