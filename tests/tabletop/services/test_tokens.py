import threading
import time

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role, Token, Visibility

from ..helpers import events_after, last_seq
from ..table import make_table

pytestmark = pytest.mark.django_db


def test_a_pc_token_is_controlled_by_its_owner(table):
    assert list(table.tenrec_token.controllers.all()) == [table.player]
    assert list(table.zombie_token.controllers.all()) == []


def test_move_bumps_the_version_and_tells_the_room(table):
    seq = last_seq(table.campaign)
    token = services.token_move(
        token_id=table.tenrec_token.pk, by=table.player, x=4, y=3, version=1
    )
    assert (token.x, token.y, token.version) == (4, 3, 2)
    [event] = events_after(table.campaign, seq)
    assert event.kind == "token.moved"
    assert event.data["from"] == [2, 2]
    # What the move changed: the rest of the token is as the room holds it.
    assert event.data["token"] == {
        "id": token.pk,
        "scene_id": table.scene.pk,
        "x": 4,
        "y": 3,
        "version": 2,
        "hidden": False,
    }
    assert event.actor == table.player


def test_a_stale_move_gets_the_current_token(table):
    services.token_move(token_id=table.tenrec_token.pk, by=table.player, x=4, y=3, version=1)
    seq = last_seq(table.campaign)
    with pytest.raises(services.StaleVersion) as caught:
        services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=9, y=9, version=1)
    assert caught.value.code == "stale_version"
    assert (caught.value.token.x, caught.value.token.y, caught.value.token.version) == (4, 3, 2)
    assert last_seq(table.campaign) == seq
    # Without a version the move simply wins.
    assert services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=9, y=9).version == 3


@pytest.mark.parametrize(
    ("x", "y", "field"),
    [(-1, 0, "x"), (20, 0, "x"), (0, 15, "y"), (0, -5, "y"), (19, 14, None)],
)
def test_the_footprint_stays_on_the_map(table, x, y, field):
    # The map is 20 x 15; a 1x1 token may stand on (19, 14), a 2x2 one may not.
    if field is None:
        services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=x, y=y)
        with pytest.raises(services.ServiceError) as caught:
            services.token_move(token_id=table.lurker.pk, by=table.gm, x=x, y=y)
        assert caught.value.code == "out_of_bounds"
        return
    with pytest.raises(services.ServiceError) as caught:
        services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=x, y=y)
    assert (caught.value.code, caught.value.field) == ("out_of_bounds", field)
    assert Token.objects.get(pk=table.tenrec_token.pk).version == 1


@pytest.mark.parametrize(
    ("x", "y", "version"),
    [("3", 3, None), (3.0, 3, None), (3, None, None), (3, 3, "1"), (True, 3, None)],
)
def test_wrong_types_are_invalid(table, x, y, version):
    with pytest.raises(services.ServiceError) as caught:
        services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=x, y=y, version=version)
    assert caught.value.code == "invalid"


def test_who_may_move(table):
    with pytest.raises(services.NotAllowed):
        services.token_move(token_id=table.tenrec_token.pk, by=table.other, x=5, y=5)
    with pytest.raises(services.NotAllowed):
        services.token_move(token_id=table.tenrec_token.pk, by=table.observer, x=5, y=5)
    with pytest.raises(services.NotFound):
        services.token_move(token_id=table.tenrec_token.pk, by=table.outsider, x=5, y=5)
    # A hidden token does not exist for a player, even one who controls it.
    services.token_update(token_id=table.lurker.pk, by=table.gm, controllers=[table.player.pk])
    with pytest.raises(services.NotFound):
        services.token_move(token_id=table.lurker.pk, by=table.player, x=0, y=0)
    services.token_move(token_id=table.zombie_token.pk, by=table.gm, x=0, y=0)


def test_a_move_to_where_it_stands_changes_nothing(table):
    seq = last_seq(table.campaign)
    token = services.token_move(token_id=table.tenrec_token.pk, by=table.player, x=2, y=2)
    assert token.version == 1 and last_seq(table.campaign) == seq


def test_create_update_hide_reveal_delete(table):
    seq = last_seq(table.campaign)
    token = services.token_create(
        scene_id=table.scene.pk, by=table.gm, name="Rat", x=1, y=1, color="#AABBCC", hidden=True
    )
    assert token.color == "#aabbcc"
    token = services.token_update(token_id=token.pk, by=table.gm, name="Giant rat", size=2)
    assert (token.name, token.size, token.version) == ("Giant rat", 2, 2)
    token = services.token_set_hidden(token_id=token.pk, by=table.gm, hidden=False)
    assert token.version == 3
    assert services.token_set_hidden(token_id=token.pk, by=table.gm, hidden=False).version == 3
    services.token_set_hidden(token_id=token.pk, by=table.gm, hidden=True)
    services.token_delete(token_id=token.pk, by=table.gm)
    assert not Token.objects.filter(pk=token.pk).exists()
    events = events_after(table.campaign, seq)
    assert [e.kind for e in events] == [
        "token.created",
        "token.updated",
        "token.revealed",
        "token.hidden",
        "token.deleted",
    ]
    assert events[-1].data["token"]["name"] == "Giant rat"


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"size": 0}, "invalid", "size"),
        ({"size": 11}, "invalid", "size"),
        ({"size": 20}, "invalid", "size"),
        ({"color": "red"}, "invalid", "color"),
        ({"name": ""}, "invalid", "name"),
        ({"controllers": [999999]}, "invalid", "controllers"),
        ({"controllers": "me"}, "invalid", "controllers"),
        ({"character_id": 999999}, "invalid", "character_id"),
        ({"hidden": "yes"}, "unknown_field", "hidden"),
        ({"x": 3}, "unknown_field", "x"),
    ],
)
def test_bad_updates_write_nothing(table, kwargs, code, field):
    seq = last_seq(table.campaign)
    with pytest.raises(services.ServiceError) as caught:
        services.token_update(token_id=table.zombie_token.pk, by=table.gm, **kwargs)
    assert (caught.value.code, caught.value.field) == (code, field)
    token = Token.objects.get(pk=table.zombie_token.pk)
    assert (token.version, token.name, token.size) == (1, "Zombie", 1)
    assert last_seq(table.campaign) == seq


def test_a_token_grown_past_the_edge_is_refused(table):
    services.token_move(token_id=table.zombie_token.pk, by=table.gm, x=19, y=0)
    with pytest.raises(services.ServiceError) as caught:
        services.token_update(token_id=table.zombie_token.pk, by=table.gm, size=2)
    assert caught.value.code == "out_of_bounds"


def test_players_and_observers_do_not_manage_tokens(table):
    for user in (table.player, table.observer):
        with pytest.raises(services.NotAllowed):
            services.token_create(scene_id=table.scene.pk, by=user, name="Mine")
        with pytest.raises(services.NotAllowed):
            services.token_update(token_id=table.tenrec_token.pk, by=user, name="Mine")
        with pytest.raises(services.NotAllowed):
            services.token_set_hidden(token_id=table.tenrec_token.pk, by=user, hidden=True)
        with pytest.raises(services.NotAllowed):
            services.token_delete(token_id=table.tenrec_token.pk, by=user)


def test_observer_controllers_are_refused(table):
    with pytest.raises(services.ServiceError) as caught:
        services.token_update(
            token_id=table.zombie_token.pk, by=table.gm, controllers=[table.observer.pk]
        )
    assert caught.value.field == "controllers"
    Membership.objects.filter(user=table.observer).update(role=Role.PLAYER)
    token = services.token_update(
        token_id=table.zombie_token.pk, by=table.gm, controllers=[table.observer.pk]
    )
    assert [u.pk for u in token.controllers.all()] == [table.observer.pk]


@pytest.mark.django_db(transaction=True)
def test_concurrent_moves_of_one_token_are_serialised(postgres):
    """Ten moves naming the same version at once: one wins, nine are stale,
    and the stored token equals what the last event says."""
    table = make_table()
    token_id, outcomes, barrier = table.tenrec_token.pk, [], threading.Barrier(10)

    def move(x):
        barrier.wait()
        try:
            services.token_move(token_id=token_id, by=table.gm, x=x, y=7, version=1)
            outcomes.append("moved")
        except services.StaleVersion as stale:
            outcomes.append(stale.token.version)
        finally:
            connection.close()

    threads = [threading.Thread(target=move, args=(x,)) for x in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes, key=str) == [2] * 9 + ["moved"]
    token = Token.objects.get(pk=token_id)
    last = events_after(table.campaign, 0)[-1]
    assert last.kind == "token.moved" and last.data["token"]["x"] == token.x
    assert token.version == 2


@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_on_the_gms_hide_finds_nothing(postgres):
    """The GM's hide holds the token's row, the player's move waits for it,
    and once the hide commits the move finds no token: it reads the token,
    its scene and the room under the lock, never before it."""
    table = make_table()
    token_id, hiding, outcome = table.tenrec_token.pk, threading.Event(), []

    def player_moves():
        hiding.wait()
        try:
            services.token_move(token_id=token_id, by=table.player, x=4, y=4, version=1)
            outcome.append("moved")
        except services.NotFound as refused:
            outcome.append(refused.code)
        finally:
            connection.close()

    mover = threading.Thread(target=player_moves)
    mover.start()
    with transaction.atomic():
        services.token_set_hidden(token_id=token_id, by=table.gm, hidden=True)
        hiding.set()
        waited = wait_for_a_lock_wait()
    mover.join(10)
    assert waited, "the move never waited for the token's row"
    assert outcome == ["not_found"]
    token = Token.objects.get(pk=token_id)
    assert (token.x, token.y, token.version, token.hidden) == (
        table.tenrec_token.x,
        table.tenrec_token.y,
        2,
        True,
    )


@pytest.mark.django_db(transaction=True)
def test_a_move_numbered_after_a_scene_change_is_the_gms_alone(postgres):
    """The player's move reads the room's scene before the GM's scene change
    commits, and is numbered after it: the event about a token of a scene
    the room has left goes to the GM only."""
    table = make_table()
    token_id, changing, moved = table.tenrec_token.pk, threading.Event(), []

    def player_moves():
        changing.wait()
        try:
            moved.append(services.token_move(token_id=token_id, by=table.player, x=4, y=4))
        finally:
            connection.close()

    mover = threading.Thread(target=player_moves)
    mover.start()
    with transaction.atomic():
        services.scene_activate(scene_id=table.spare_scene.pk, by=table.gm)
        changing.set()
        waited = wait_for_a_lock_wait()
    mover.join(10)
    assert waited, "the move never waited for the room's sequence number"
    assert len(moved) == 1
    change, move = events_after(table.campaign, 0)[-2:]
    assert (change.kind, move.kind) == ("scene.activated", "token.moved")
    assert move.seq == change.seq + 1
    assert move.visibility == Visibility.GM


def test_events_about_a_scene_the_room_is_not_on_are_the_gms(table):
    services.scene_activate(scene_id=table.spare_scene.pk, by=table.gm)
    services.token_move(token_id=table.zombie_token.pk, by=table.gm, x=9, y=9)
    services.scene_activate(scene_id=table.scene.pk, by=table.gm)
    services.token_move(token_id=table.zombie_token.pk, by=table.gm, x=10, y=9)
    moves = [e for e in events_after(table.campaign, 0) if e.kind == "token.moved"]
    assert [(e.data["token"]["x"], e.visibility) for e in moves[-2:]] == [
        (9, Visibility.GM),
        (10, Visibility.PUBLIC),
    ]


def wait_for_a_lock_wait(seconds: float = 5.0) -> bool:
    """Whether another session of this database comes to wait for a lock."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Activity is read once per transaction unless the snapshot is dropped.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.01)
    return False


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(x=st.integers(-3, 22), y=st.integers(-3, 17), size=st.integers(1, 3))
def test_any_move_lands_on_the_map_or_changes_nothing(table, x, y, size):
    """The 20 x 15 map: a move either puts the whole footprint on it and
    bumps the version by one (or is where the token stands), or is refused
    as out_of_bounds with the token untouched."""
    token = services.token_update(token_id=table.zombie_token.pk, by=table.gm, size=1)
    services.token_move(token_id=token.pk, by=table.gm, x=0, y=0)
    token = services.token_update(token_id=token.pk, by=table.gm, size=size)
    seq = last_seq(table.campaign)
    try:
        moved = services.token_move(token_id=token.pk, by=table.gm, x=x, y=y, version=token.version)
    except services.ServiceError as error:
        assert error.code == "out_of_bounds"
        assert not (0 <= x <= 20 - size and 0 <= y <= 15 - size)
        assert Token.objects.get(pk=token.pk).version == token.version
        assert last_seq(table.campaign) == seq
    else:
        assert 0 <= moved.x <= 20 - size and 0 <= moved.y <= 15 - size
        assert moved.version == token.version + ((x, y) != (0, 0))


# ---------- the GM's edit of several fields at once (token_edit)


def player_view(table, event):
    from vtt.tabletop.policy import event_view
    from vtt.tabletop.visibility import Viewer

    return event_view(event, Viewer(table.player.pk, Role.PLAYER))


def test_an_edit_changes_only_what_differs_each_by_its_own_event(table):
    token = table.zombie_token
    seq = last_seq(table.campaign)
    same = services.token_edit(
        token_id=token.pk,
        by=table.gm,
        name="Zombie",
        color="#888888",
        size=1,
        x=8,
        y=8,
        character_id=table.zombie.pk,
        hidden=False,
    )
    assert same.version == 1 and last_seq(table.campaign) == seq
    edited = services.token_edit(
        token_id=token.pk, by=table.gm, version=1, name="Ghoul", color="#AA0000", x=5, y=6
    )
    assert (edited.name, edited.color, edited.x, edited.y) == ("Ghoul", "#aa0000", 5, 6)
    updated, moved = events_after(table.campaign, seq)
    assert updated.kind == "token.updated" and updated.data["token"]["name"] == "Ghoul"
    # The move is the room's own move event: where from, where to.
    assert moved.kind == "token.moved" and moved.data["from"] == [8, 8]
    assert (moved.data["token"]["x"], moved.data["token"]["y"]) == (5, 6)
    assert moved.actor == table.gm


@pytest.mark.parametrize(
    ("start", "size", "end"),
    [
        ((19, 14), 3, (10, 10)),  # grown where it stands it would overhang: moves first
        ((10, 10), 1, (19, 14)),  # moved at its old size it would overhang: shrinks first
    ],
)
def test_a_resize_and_a_move_together_stay_on_the_map(table, start, size, end):
    token = services.token_create(
        scene_id=table.scene.pk,
        by=table.gm,
        name="Ogre",
        x=start[0],
        y=start[1],
        size=4 - size,
    )
    edited = services.token_edit(token_id=token.pk, by=table.gm, size=size, x=end[0], y=end[1])
    assert (edited.size, edited.x, edited.y) == (size, *end)


def test_hidden_as_it_moves_players_never_see_the_way(table):
    seq = last_seq(table.campaign)
    services.token_edit(token_id=table.zombie_token.pk, by=table.gm, hidden=True, x=1, y=1)
    hidden, moved = events_after(table.campaign, seq)
    assert (hidden.kind, moved.kind) == ("token.hidden", "token.moved")
    assert player_view(table, moved)["type"] == "redacted"

    seq = last_seq(table.campaign)
    services.token_edit(token_id=table.lurker.pk, by=table.gm, hidden=False, x=4, y=4)
    moved, revealed = events_after(table.campaign, seq)
    assert (moved.kind, revealed.kind) == ("token.moved", "token.revealed")
    assert player_view(table, moved)["type"] == "redacted"
    assert player_view(table, revealed)["data"]["token"]["x"] == 4


def test_a_new_character_brings_its_owner_as_controller(table):
    token = services.token_edit(
        token_id=table.zombie_token.pk, by=table.gm, character_id=table.tenrec.pk
    )
    assert token.controller_ids == [table.player.pk]
    token = services.token_edit(token_id=token.pk, by=table.gm, character_id=None)
    assert token.character_id is None and token.controller_ids == []


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"size": 0}, "size"),
        ({"x": 20}, "x"),
        ({"y": -1}, "y"),
        ({"x": 18, "size": 3}, "x"),
        ({"size": 13}, "size"),
        ({"color": "red"}, "color"),
        ({"hidden": "yes"}, "hidden"),
        ({"character_id": 999999}, "character_id"),
        ({"controllers": []}, "controllers"),
    ],
)
def test_a_bad_edit_writes_nothing(table, changes, field):
    seq = last_seq(table.campaign)
    with pytest.raises(services.ServiceError) as caught:
        fields = {"name": "Ghoul", "hidden": True, **changes}
        services.token_edit(token_id=table.zombie_token.pk, by=table.gm, **fields)
    assert caught.value.field == field
    token = Token.objects.get(pk=table.zombie_token.pk)
    unchanged = ("Zombie", False, 8, 1, 1)
    assert (token.name, token.hidden, token.x, token.size, token.version) == unchanged
    assert last_seq(table.campaign) == seq


def test_an_edit_of_a_token_moved_since_is_refused(table):
    services.token_move(token_id=table.tenrec_token.pk, by=table.player, x=4, y=3)
    seq = last_seq(table.campaign)
    with pytest.raises(services.StaleVersion) as caught:
        services.token_edit(token_id=table.tenrec_token.pk, by=table.gm, version=1, x=2, y=2)
    assert (caught.value.token.x, caught.value.token.y) == (4, 3)
    assert last_seq(table.campaign) == seq


def test_only_a_gm_edits(table):
    with pytest.raises(services.NotAllowed):
        services.token_edit(token_id=table.tenrec_token.pk, by=table.player, name="Mine")
    with pytest.raises(services.NotFound):
        services.token_edit(token_id=table.lurker.pk, by=table.player, name="Mine")
