"""Drawings in the session's journal: a line each, as the reader saw them
(the GM layer's in the GM's journal alone)."""

import pytest

from vtt.drawings.services import drawing_clear, drawing_move, drawing_remove
from vtt.records import journal
from vtt.tabletop import policy
from vtt.tabletop.models import PlaySession

from .table import draw, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def t():
    return make_table()


def words(t, user) -> list[str]:
    from vtt.dice.sessions import session_start

    if not PlaySession.objects.filter(campaign=t.campaign).exists():
        session_start(campaign_id=t.campaign.pk, by=t.gm)
    member = t.campaign.memberships.get(user=user)
    viewer = policy.member_viewer(member, t.campaign.settings)
    session = PlaySession.objects.get(campaign=t.campaign)
    return [e.markdown() for e in journal.journal(session, viewer).entries if e.kind == "note"]


def test_a_line_for_each_drawing_as_its_reader_saw_it(t):
    words(t, t.gm)  # the session starts
    pen = draw(t.scene, t.player)
    draw(t.scene, t.gm, [[4, 4]], shape="text", text="Beware", layer="gm")
    drawing_move(drawing_id=pen.pk, by=t.player, dx=1, dy=0)
    drawing_remove(drawing_id=pen.pk, by=t.player)
    drawing_clear(scene_id=t.scene.pk, by=t.gm)
    gm = words(t, t.gm)
    assert gm == [
        "player drew a freehand line on the map.",
        "gm wrote on the map: Beware",
        "A drawing (a freehand line) was moved.",
        "A drawing was erased.",
        "The map's drawings were cleared (1).",
    ]
    assert words(t, t.player) == [gm[0], gm[2], gm[3]]
