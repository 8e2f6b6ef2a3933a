"""A table to draw on: a GM, two players, an observer and an outsider, an
active 20 x 10 scene and another one the room is not on."""

from types import SimpleNamespace

from tests import factories
from vtt.drawings.services import drawing_add

PEN = [[1, 1], [2.5, 1.25], [3, 2]]


def make_table() -> SimpleNamespace:
    people = factories.people(("gm", "player", "other", "observer", "outsider"))
    campaign = factories.campaign_at_table(people)
    scene = factories.scene(campaign, people["gm"], "Crypt", active=True, width=20, height=10)
    elsewhere = factories.scene(campaign, people["gm"], "Tower", width=8, height=8)
    return SimpleNamespace(campaign=campaign, scene=scene, elsewhere=elsewhere, **people)


def draw(scene, by, points=PEN, **fields):
    """A red pen stroke (or what `fields` say) on `scene`, drawn by `by`."""
    asked = {"shape": "pen", "color": "#ff0000", "width": 2, **fields}
    return drawing_add(scene_id=scene.pk, by=by, points=points, **asked)
