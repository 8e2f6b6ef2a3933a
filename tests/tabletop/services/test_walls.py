"""The GM's wall edits one segment at a time (vtt/maps/wall_edits.py):
add, move, change and delete, each a scene.updated; refusals store nothing."""

import pytest

from vtt.maps import wall_edits as walls
from vtt.tabletop import services
from vtt.tabletop.models import Scene

from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


def walls_of(table) -> list:
    return Scene.objects.get(pk=table.scene.pk).walls


def test_the_gm_adds_moves_changes_and_deletes_a_segment(table):
    seq = last_seq(table.campaign)
    scene = walls.wall_add(scene_id=table.scene.pk, by=table.gm, wall=[10, 5, 10, 9, "door"])
    assert scene.walls == [[0, 5, 10, 5], [10, 5, 10, 9, "door"]]
    # Moved by its ends: a door stays a door.
    walls.wall_change(
        scene_id=table.scene.pk, by=table.gm, index=1, was=[10, 5, 10, 9], wall=[10, 5, 10, 7]
    )
    assert walls_of(table)[1] == [10, 5, 10, 7, "door"]
    # A longer list says the kind too.
    walls.wall_change(
        scene_id=table.scene.pk,
        by=table.gm,
        index=1,
        was=[10, 5, 10, 7],
        wall=[10, 5, 10, 7, "window"],
    )
    assert walls_of(table)[1] == [10, 5, 10, 7, "window"]
    walls.wall_delete(scene_id=table.scene.pk, by=table.gm, index=0, was=[0, 5, 10, 5])
    assert walls_of(table) == [[10, 5, 10, 7, "window"]]
    events = events_after(table.campaign, seq)
    assert [e.kind for e in events] == ["scene.updated"] * 4
    assert events[-1].data["scene"]["walls"] == [[10, 5, 10, 7, "window"]]
    assert events[-1].actor_id == table.gm.pk


def test_a_move_keeps_a_door_open_that_a_player_opened_meanwhile(table):
    """The move names the ends, not the state: the door a player opened after
    the GM last looked stays open."""
    walls.wall_add(scene_id=table.scene.pk, by=table.gm, wall=[4, 5, 5, 5, "door"])
    services.campaign_update_settings(
        campaign_id=table.campaign.pk, by=table.gm, settings={"players_open_doors": True}
    )
    services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=4, y=4)
    from vtt.tabletop.services.scenes import scene_set_door

    scene_set_door(scene_id=table.scene.pk, by=table.player, wall=1, state="open")
    walls.wall_change(
        scene_id=table.scene.pk, by=table.gm, index=1, was=[4, 5, 5, 5], wall=[4, 5, 6, 5]
    )
    assert walls_of(table)[1] == [4, 5, 6, 5, "door", "open"]


def test_an_unchanged_segment_appends_nothing(table):
    seq = last_seq(table.campaign)
    walls.wall_change(
        scene_id=table.scene.pk, by=table.gm, index=0, was=[0, 5, 10, 5], wall=[0, 5, 10, 5]
    )
    assert events_after(table.campaign, seq) == []


BAD_ADDS = [
    ([3, 3, 3, 3], "wall"),  # zero length
    ([0, 0, 21, 0], "wall[2]"),  # outside the 20 x 15 map
    ([0, 0, 0, 16], "wall[3]"),
    ([-1, 0, 2, 0], "wall[0]"),
    ([0, 0, float("nan"), 0], "wall[2]"),
    ([0, 0, 2, 0, "portcullis"], "wall[4]"),
    ([0, 0, 2, 0, "wall", "open"], "wall[5]"),
    ([0, 0, 2], "wall"),
    ("0 0 2 0", "wall"),
]


@pytest.mark.parametrize(("wall", "field"), BAD_ADDS)
def test_bad_segments_are_refused_by_field_and_nothing_is_stored(table, wall, field):
    seq = last_seq(table.campaign)
    with pytest.raises(services.ServiceError) as error:
        walls.wall_add(scene_id=table.scene.pk, by=table.gm, wall=wall)
    assert (error.value.code, error.value.field) == ("invalid", field)
    with pytest.raises(services.ServiceError) as error:
        walls.wall_change(
            scene_id=table.scene.pk, by=table.gm, index=0, was=[0, 5, 10, 5], wall=wall
        )
    assert (error.value.code, error.value.field) == ("invalid", field)
    assert walls_of(table) == [[0, 5, 10, 5]]
    assert events_after(table.campaign, seq) == []


@pytest.mark.parametrize(
    ("index", "was", "field"),
    [
        (1, [0, 5, 10, 5], "wall"),  # no such segment
        (-1, [0, 5, 10, 5], "wall"),
        ("0", [0, 5, 10, 5], "wall"),
        (0, [0, 5, 10, 6], "was"),  # it changed since the GM saw it
        (0, None, "was"),
        (0, [0, 5, 10], "was"),
    ],
)
def test_an_unknown_or_changed_segment_is_refused(table, index, was, field):
    seq = last_seq(table.campaign)
    for edit in (
        lambda: walls.wall_delete(scene_id=table.scene.pk, by=table.gm, index=index, was=was),
        lambda: walls.wall_change(
            scene_id=table.scene.pk, by=table.gm, index=index, was=was, wall=[1, 1, 2, 2]
        ),
    ):
        with pytest.raises(services.ServiceError) as error:
            edit()
        assert (error.value.code, error.value.field) == ("invalid", field)
    assert walls_of(table) == [[0, 5, 10, 5]]
    assert events_after(table.campaign, seq) == []


@pytest.mark.parametrize("who", ["player", "observer"])
def test_only_the_gm_edits_walls(table, who):
    user = getattr(table, who)
    seq = last_seq(table.campaign)
    edits = [
        lambda: walls.wall_add(scene_id=table.scene.pk, by=user, wall=[1, 1, 2, 2]),
        lambda: walls.wall_change(
            scene_id=table.scene.pk, by=user, index=0, was=[0, 5, 10, 5], wall=[0, 5, 9, 5]
        ),
        lambda: walls.wall_delete(scene_id=table.scene.pk, by=user, index=0, was=[0, 5, 10, 5]),
    ]
    for edit in edits:
        with pytest.raises(services.NotAllowed):
            edit()
    assert walls_of(table) == [[0, 5, 10, 5]]
    assert events_after(table.campaign, seq) == []


def test_a_stranger_does_not_learn_the_scene_exists(table):
    with pytest.raises(services.NotFound):
        walls.wall_add(scene_id=table.scene.pk, by=table.outsider, wall=[1, 1, 2, 2])


def test_a_full_scene_takes_no_more_walls(table, settings):
    full = [[0, 0, 1, 0]] * walls.MAX_WALLS
    services.scene_update(scene_id=table.scene.pk, by=table.gm, walls=full)
    with pytest.raises(services.ServiceError) as error:
        walls.wall_add(scene_id=table.scene.pk, by=table.gm, wall=[1, 1, 2, 2])
    assert error.value.field == "wall"
