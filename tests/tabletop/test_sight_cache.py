"""A fog scene's sight kept between events (vtt.fog.sight_cache): every
move after the kept state gives the same views as working them out anew,
whatever happened between (a door, a wall, a write this process did not
see, a change rolled back)."""

import pytest
from django.db import transaction

from vtt.fog import sight_cache, vision
from vtt.tabletop import services
from vtt.tabletop.event_kinds import SIGHT
from vtt.tabletop.models import Campaign, RoomEvent, Scene, SeenToken
from vtt.tabletop.services.scenes import scene_set_door

from .crypt import DOOR, WALLS, make_crypt

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    h = make_crypt("Hall")
    services.scene_update(scene_id=h.scene.pk, by=h.gm, fog=True)
    return h


def stored_views(h) -> dict[str, set[int]]:
    rows = SeenToken.objects.filter(scene=h.scene).values_list("group", "token_id")
    seen: dict[str, set[int]] = {}
    for group, token_id in rows:
        seen.setdefault(group, set()).add(token_id)
    return seen


def worked_out_anew(h) -> dict[str, set[int]]:
    campaign = Campaign.objects.get(pk=h.campaign.pk)
    scene = Scene.objects.get(pk=h.scene.pk)
    now = vision.SceneView(scene, vision.players_of(campaign.pk), campaign.settings)
    return {g: s for g, s in now.state(campaign.pk, 0, {}).seen.items() if s}


def kept_now(h):
    seq = Campaign.objects.get(pk=h.campaign.pk).event_seq
    return sight_cache.kept(h.campaign.pk, h.scene.pk, seq + 1)


def move(h, token, x, y, by=None):
    services.token_move(token_id=token.pk, by=by or h.gm, x=x, y=y)
    return RoomEvent.objects.order_by("-id").first().data[SIGHT]


def test_moves_after_the_kept_state_use_it_and_see_what_a_fresh_reckoning_sees(hall):
    assert kept_now(hall) is not None
    # Nobody's eye: only whether the eyes see its new place.
    annotation = move(hall, hall.goblin, 8, 8)
    party = annotation["groups"]["party"]
    assert (party["was"], party["sees"]) == ([], [hall.goblin.pk])
    assert kept_now(hall) is not None
    assert stored_views(hall) == worked_out_anew(hall)
    move(hall, hall.goblin, 15, 2)
    assert hall.goblin.pk not in stored_views(hall)["party"]
    # An eye: what it sees again.
    move(hall, hall.tenrec, 9, 8, by=hall.player)
    assert stored_views(hall) == worked_out_anew(hall)
    assert kept_now(hall) is not None


def test_a_door_opened_between_moves_gives_the_right_view(hall):
    move(hall, hall.tenrec, 8, 8, by=hall.player)
    scene_set_door(scene_id=hall.scene.pk, by=hall.gm, wall=DOOR, state="open")
    move(hall, hall.tenrec, 9, 8, by=hall.player)
    assert hall.goblin.pk in stored_views(hall)["party"]
    assert stored_views(hall) == worked_out_anew(hall)
    scene_set_door(scene_id=hall.scene.pk, by=hall.gm, wall=DOOR, state="closed")
    move(hall, hall.goblin, 16, 9)
    assert hall.goblin.pk not in stored_views(hall)["party"]
    assert stored_views(hall) == worked_out_anew(hall)


def test_a_wall_drawn_between_moves_gives_the_right_view(hall):
    move(hall, hall.orc, 5, 14)
    assert hall.orc.pk in stored_views(hall)["party"]
    walls = [*WALLS, [0, 12, 10, 12]]
    services.scene_update(scene_id=hall.scene.pk, by=hall.gm, walls=walls)
    move(hall, hall.orc, 5, 15)
    assert hall.orc.pk not in stored_views(hall)["party"]
    assert stored_views(hall) == worked_out_anew(hall)


def test_a_write_this_process_did_not_see_is_not_covered_by_its_kept_state(hall):
    stale = kept_now(hall)
    move(hall, hall.goblin, 8, 8)  # as if another process wrote it
    sight_cache.keep(stale)  # this process still holds the older state
    assert kept_now(hall) is None
    annotation = move(hall, hall.goblin, 8, 9)
    assert annotation["groups"]["party"]["was"] == [hall.goblin.pk]
    assert stored_views(hall) == worked_out_anew(hall)


def test_a_move_rolled_back_leaves_no_kept_state_behind(hall):
    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        move(hall, hall.goblin, 8, 8)
        assert kept_now(hall) is not None
        raise Undone
    assert kept_now(hall) is None
    move(hall, hall.orc, 5, 14)
    assert hall.goblin.pk not in stored_views(hall)["party"]
    assert stored_views(hall) == worked_out_anew(hall)


def test_a_token_given_to_a_player_makes_a_new_eye(hall):
    services.token_update(token_id=hall.goblin.pk, by=hall.gm, controllers=[hall.player.pk])
    move(hall, hall.goblin, 16, 8)
    assert stored_views(hall) == worked_out_anew(hall)
    assert kept_now(hall).eyes[hall.goblin.pk] == ["party"]


def test_own_vision_keeps_each_players_view_apart(hall):
    services.campaign_update(
        campaign_id=hall.campaign.pk, by=hall.gm, settings={"own_vision": True}
    )
    scene_set_door(scene_id=hall.scene.pk, by=hall.gm, wall=DOOR, state="open")
    move(hall, hall.mara, 11, 8)
    move(hall, hall.tenrec, 2, 12, by=hall.player)
    views = stored_views(hall)
    assert views == worked_out_anew(hall)
    assert hall.goblin.pk in views[f"u{hall.other.pk}"]
    assert hall.goblin.pk not in views[f"u{hall.player.pk}"]
