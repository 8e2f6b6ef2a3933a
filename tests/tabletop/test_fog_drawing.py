"""Fog drawn after the moves (vtt.fog.fog_drawing), as where live rooms
run: the move decides what each group sees at once, and the view and the
explored area follow, the explored area grown by every place an eye stood."""

import pytest
import shapely

from tests import factories
from vtt.fog import fog_drawing
from vtt.fog.services import fog_edit
from vtt.rules import sight
from vtt.tabletop import services
from vtt.tabletop.models import SceneSight, SeenToken
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
    people = factories.people(("gm", "player"))
    gm, player = people.values()
    campaign = factories.campaign_at_table(people, name="Hall")
    scene = factories.scene(campaign, gm, "Hall", active=True, width=20, height=20, walls=WALLS)
    tenrec = factories.token(scene, gm, "Tenrec", 2, 8, controllers=[player.pk])
    goblin = factories.token(scene, gm, "Goblin", 11, 15)
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
