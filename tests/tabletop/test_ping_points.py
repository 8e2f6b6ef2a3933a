"""Which sight groups see a point of a fog scene (vtt.fog.points), as a
ping is routed: the ground a group's map shows, in view or explored."""

import pytest

from tests import factories
from vtt.fog.points import groups_seeing
from vtt.tabletop.models import SceneSight

pytestmark = pytest.mark.django_db

SQUARE_0_4 = "M0 0L4 0L4 4L0 4Z"  # the four squares' corner, 0 to 4
SQUARE_4_8 = "M4 4L8 4L8 8L4 8Z"


@pytest.fixture
def scene():
    people = factories.people(prefix="points-")
    campaign = factories.campaign_at_table(people)
    return factories.scene(campaign, people["gm"], "Cellar", active=True, width=10, height=10)


def sight(scene, group, view="", explored="", active=True):
    SceneSight.objects.create(scene=scene, group=group, view=view, explored=explored, active=active)


def test_a_point_in_view_or_explored_is_seen_and_one_in_the_dark_is_not(scene):
    sight(scene, "party", view=SQUARE_0_4, explored=SQUARE_0_4)
    sight(scene, "u7", view="", explored=SQUARE_4_8)  # explored, out of view now
    sight(scene, "u8")  # nothing drawn yet
    assert groups_seeing(scene.pk, 1.5, 2.5) == ["party"]
    assert groups_seeing(scene.pk, 6, 6) == ["u7"]
    assert groups_seeing(scene.pk, 4, 4) == ["party", "u7"]  # the corner both share
    assert groups_seeing(scene.pk, 9.5, 0.5) == []


def test_what_a_token_sees_counts_even_where_the_gm_covered_the_ground(scene):
    # A cover takes the area out of the explored one; the view stays.
    sight(scene, "party", view=SQUARE_4_8, explored=SQUARE_0_4)
    assert groups_seeing(scene.pk, 5, 5) == ["party"]


def test_a_drawing_kept_while_fog_is_off_is_not_read(scene):
    sight(scene, "party", view=SQUARE_0_4, explored=SQUARE_0_4, active=False)
    assert groups_seeing(scene.pk, 1, 1) == []
