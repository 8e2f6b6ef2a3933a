"""Fog drawn after the moves (vtt.fog.fog_drawing), as where live rooms
run: the move decides what each group sees at once, and the view and the
explored area follow, the explored area grown by every place an eye stood."""

import pytest
import shapely
from django.contrib.auth import get_user_model

from vtt.fog import fog_drawing
from vtt.fog.services import fog_edit
from vtt.rules import sight
from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role, SceneSight, SeenToken
from vtt.tabletop.services.scenes import scene_set_door

pytestmark = pytest.mark.django_db(transaction=True)

# A wall down x = 10 with a door in it from y = 8 to y = 10, open.
WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door", "open"], [10, 10, 10, 20]]
# Seen through the door only from (8, 1), and only from (8, 17).
FROM_NORTH, FROM_SOUTH = (11, 14), (11, 3.5)


@pytest.fixture
def deferred(monkeypatch):
    asked = []
    monkeypatch.setattr(fog_drawing, "_can_defer", lambda: True)
    monkeypatch.setattr(fog_drawing, "_schedule", lambda *key: asked.append(key))
    return asked


@pytest.fixture
def hall():
    User = get_user_model()
    gm, player = (User.objects.create_user(n) for n in ("gm", "player"))
    campaign = services.campaign_create(owner=gm, name="Hall", game="artifice")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Hall", width=20, height=20, walls=WALLS
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec = services.token_create(
        scene_id=scene.pk, by=gm, name="Tenrec", x=2, y=8, controllers=[player.pk]
    )
    goblin = services.token_create(scene_id=scene.pk, by=gm, name="Goblin", x=11, y=15)
    services.scene_update(scene_id=scene.pk, by=gm, fog=True)
    return gm, player, campaign, scene, tenrec, goblin


def party(scene):
    return SceneSight.objects.get(scene=scene, group="party")


def covers(path: str, point) -> bool:
    return sight.from_path(path).covers(shapely.Point(*point))


def test_a_moving_eye_decides_at_once_and_is_drawn_after_with_every_step(hall, deferred):
    gm, player, campaign, scene, tenrec, goblin = hall
    before = party(scene)
    seen = SeenToken.objects.filter(scene=scene, group="party", token=goblin)
    services.token_move(token_id=tenrec.pk, by=player, x=8, y=1)
    # What the party sees is decided with the move; the drawing waits.
    assert seen.exists()
    services.token_move(token_id=tenrec.pk, by=player, x=8, y=17)
    assert not seen.exists()
    assert deferred == [(campaign.pk, scene.pk)] * 2
    assert party(scene).view == before.view
    frames = fog_drawing.draw(campaign.pk, scene.pk)
    drawn = party(scene)
    assert covers(drawn.view, FROM_SOUTH) and not covers(drawn.view, FROM_NORTH)
    assert covers(drawn.explored, FROM_SOUTH) and covers(drawn.explored, FROM_NORTH)
    assert frames["party"]["view"] == drawn.view
    assert goblin.pk not in frames["party"]["tokens"]
    assert fog_drawing.draw(campaign.pk, scene.pk) is None  # nothing more owed


def test_the_gms_reset_wins_over_what_was_owed_before_it(hall, deferred):
    gm, player, campaign, scene, tenrec, goblin = hall
    services.token_move(token_id=tenrec.pk, by=player, x=8, y=1)
    fog_edit(scene_id=scene.pk, by=gm, action="reset")
    assert fog_drawing.draw(campaign.pk, scene.pk) is None
    assert not covers(party(scene).explored, FROM_SOUTH)


def test_a_change_drawn_in_its_transaction_is_not_undone_by_an_older_drawing(hall, deferred):
    gm, player, campaign, scene, tenrec, goblin = hall
    services.token_move(token_id=tenrec.pk, by=player, x=8, y=17)
    scene_set_door(scene_id=scene.pk, by=gm, wall=1, state="closed")
    assert fog_drawing.draw(campaign.pk, scene.pk) is None
    assert not covers(party(scene).view, FROM_SOUTH)
