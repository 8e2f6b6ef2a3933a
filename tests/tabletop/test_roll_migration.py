"""The migration that stores a roll once: each roll row is linked to its
"roll" log entry and its own copy dropped, without losing anything; a row
with no matching entry keeps its copy; going back puts the copies back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tabletop", "0009_undoable_index_by_room")]
AFTER = [("tabletop", "0010_roll_stored_once")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_rolls_are_linked_to_their_entries_and_nothing_is_lost():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("tabletop", "Campaign")
    Roll = apps.get_model("tabletop", "Roll")
    RoomEvent = apps.get_model("tabletop", "RoomEvent")
    campaign = Campaign.objects.create(name="Old table", game="artifice")
    request = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
    result = {"outcome": "success", "dice": [{"face": 5}, {"face": 2}]}
    draw = {"session": 1, "roll": 4, "nonce": "ab", "nonce_by": "roller"}
    logged = Roll.objects.create(campaign=campaign, request=request, result=result, draw=draw)
    RoomEvent.objects.create(
        campaign=campaign,
        seq=1,
        kind="roll",
        data={"roll_id": logged.pk, "request": request, "result": result, "draw": draw},
    )
    # No entry at all, and an entry that says something else: both keep theirs.
    alone = Roll.objects.create(campaign=campaign, request=request, result=result)
    odd = Roll.objects.create(campaign=campaign, request=request, result={"outcome": "x"})
    RoomEvent.objects.create(
        campaign=campaign,
        seq=2,
        kind="roll",
        data={"roll_id": odd.pk, "request": request, "result": result, "draw": None},
    )

    migrate(AFTER)
    from vtt.tabletop.models import Roll as Now

    linked = Now.objects.get(pk=logged.pk)
    assert linked.event is not None and linked.own_request is None and linked.own_result is None
    assert (linked.request, linked.result, linked.draw) == (request, result, draw)
    for kept, expected in ((alone, result), (odd, {"outcome": "x"})):
        row = Now.objects.get(pk=kept.pk)
        assert row.event is None and (row.request, row.result) == (request, expected)

    apps = migrate(BEFORE)
    back = apps.get_model("tabletop", "Roll").objects.get(pk=logged.pk)
    assert (back.request, back.result, back.draw) == (request, result, draw)
    migrate(executor_latest())


def executor_latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
