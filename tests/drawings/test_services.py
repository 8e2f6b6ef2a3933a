"""The drawing services: a drawing is stored with its one room event, moved,
removed (the undo of one's own stroke) and cleared, each as policy allows."""

import pytest

from tests import factories
from vtt.core.errors import NotAllowed, NotFound, ServiceError
from vtt.drawings import kinds
from vtt.drawings.models import Drawing
from vtt.drawings.services import drawing_add, drawing_clear, drawing_move, drawing_remove
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.services import campaign_update_settings

from .table import PEN, draw, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def t():
    return make_table()


def last_event(t):
    return RoomEvent.objects.filter(campaign=t.campaign).order_by("-seq").first()


def test_a_drawing_is_stored_with_its_event(t):
    drawing = draw(t.scene, t.player, stroke="s-1")
    stored = Drawing.objects.get(pk=drawing.pk)
    assert (stored.shape, stored.layer, stored.color, stored.width) == (
        "pen",
        "shared",
        "#ff0000",
        2,
    )
    assert stored.points == PEN and stored.by == t.player
    event = last_event(t)
    assert event.kind == kinds.ADDED and event.visibility == "public"
    assert event.data["stroke"] == "s-1"
    assert event.data["drawing"] == {
        "id": drawing.pk,
        "scene": t.scene.pk,
        "by": {"id": t.player.pk, "name": "player"},
        "shape": "pen",
        "layer": "shared",
        "color": "#ff0000",
        "width": 2,
        "points": PEN,
        "text": "",
    }


def test_every_shape_with_its_points(t):
    for shape in ("line", "arrow", "rect", "ellipse"):
        draw(t.scene, t.gm, [[0, 0], [20, 10]], shape=shape)
    words = draw(t.scene, t.gm, [[4, 4]], shape="text", text="  Here be dragons ")
    assert words.text == "Here be dragons"
    assert Drawing.objects.filter(scene=t.scene).count() == 5


def test_a_gm_layer_drawing_is_appended_for_the_gm(t):
    draw(t.scene, t.gm, layer="gm")
    assert last_event(t).visibility == "gm"


def test_a_drawing_on_another_scene_is_the_gms_event(t):
    draw(t.elsewhere, t.gm, [[1, 1], [2, 2]])
    assert last_event(t).visibility == "gm"


def test_a_scene_that_is_not_there_is_the_same_refusal_as_one_not_known_of(t):
    stroke = {"shape": "pen", "color": "#ff0000", "width": 2, "points": PEN}
    events = RoomEvent.objects.count()
    refusals = set()
    for scene_id, by in ((10**9, t.gm), ("crypt", t.gm), (2**70, t.gm), (t.scene.pk, t.outsider)):
        with pytest.raises(NotFound) as refused:
            drawing_add(scene_id=scene_id, by=by, **stroke)
        refusals.add((refused.value.message, refused.value.field))
    assert refusals == {("no such scene", "scene")}
    assert not Drawing.objects.exists() and RoomEvent.objects.count() == events


def test_asked_from_a_room_the_drawing_goes_on_its_scene_and_no_other_rooms(t):
    """The live room's add names its room: no scene named is the one the
    room is on; a scene of another room is unknown, even to its own GM; a
    room without a scene on the table says so."""
    stroke = {"shape": "pen", "color": "#ff0000", "width": 2, "points": PEN}
    drawing = drawing_add(scene_id=None, room=t.campaign.pk, by=t.player, **stroke)
    assert drawing.scene_id == t.scene.pk
    other = factories.campaign(t.gm, name="Another table")
    theirs = factories.scene(other, t.gm, "Cellar", active=True)
    events = RoomEvent.objects.count()
    with pytest.raises(NotFound) as refused:
        drawing_add(scene_id=theirs.pk, room=t.campaign.pk, by=t.gm, **stroke)
    assert (refused.value.message, refused.value.field) == ("no such scene", "scene")
    with pytest.raises(NotFound) as refused:
        drawing_add(scene_id=None, room=t.campaign.pk, by=t.outsider, **stroke)
    assert refused.value.message == "no such campaign"
    bare = factories.campaign(t.gm, name="A bare table")
    with pytest.raises(ServiceError) as refused:
        drawing_add(scene_id=None, room=bare.pk, by=t.gm, **stroke)
    assert (refused.value.code, refused.value.field) == ("invalid", "scene")
    assert Drawing.objects.count() == 1 and RoomEvent.objects.count() == events


def test_the_drawing_added_holds_its_scene_whole(t):
    """The add reads only what it decides on; what else its scene and
    campaign hold is still there when asked for."""
    drawing = draw(t.scene, t.player)
    assert (drawing.scene.name, drawing.scene.campaign.name) == ("Crypt", t.campaign.name)
    assert Drawing.objects.get(pk=drawing.pk).points == PEN


def test_who_may_draw(t):
    with pytest.raises(NotAllowed, match="observer"):
        draw(t.scene, t.observer)
    with pytest.raises(NotAllowed, match="GM layer"):
        draw(t.scene, t.player, layer="gm")
    with pytest.raises(NotFound):
        draw(t.scene, t.outsider)
    # A player does not know of a scene the room is not on.
    with pytest.raises(NotFound):
        draw(t.elsewhere, t.player, [[1, 1], [2, 2]])
    campaign_update_settings(campaign_id=t.campaign.pk, by=t.gm, settings={"drawing": "gm"})
    with pytest.raises(NotAllowed, match="only the GM draws"):
        draw(t.scene, t.player)
    draw(t.scene, t.gm)
    assert Drawing.objects.count() == 1


def test_the_setting_is_checked(t):
    with pytest.raises(ServiceError) as refused:
        campaign_update_settings(
            campaign_id=t.campaign.pk, by=t.gm, settings={"drawing": "players"}
        )
    assert refused.value.field == "settings.drawing"


def test_a_member_moves_their_own_and_the_gm_any(t):
    mine = draw(t.scene, t.player)
    moved = drawing_move(drawing_id=mine.pk, by=t.player, dx=1, dy=0.5)
    assert moved.points == [[2, 1.5], [3.5, 1.75], [4, 2.5]]
    event = last_event(t)
    assert event.kind == kinds.MOVED and event.data["drawing"]["points"] == moved.points
    with pytest.raises(NotAllowed, match="only your own"):
        drawing_move(drawing_id=mine.pk, by=t.other, dx=1, dy=1)
    with pytest.raises(NotAllowed):
        drawing_move(drawing_id=mine.pk, by=t.observer, dx=1, dy=1)
    drawing_move(drawing_id=mine.pk, by=t.gm, dx=-1, dy=-0.5)
    assert Drawing.objects.get(pk=mine.pk).points == PEN


def test_a_move_off_the_map_is_refused_and_nothing_changes(t):
    mine = draw(t.scene, t.player)
    before = last_event(t).seq
    with pytest.raises(ServiceError) as refused:
        drawing_move(drawing_id=mine.pk, by=t.player, dx=18, dy=0)
    assert refused.value.code == "out_of_bounds"
    with pytest.raises(ServiceError) as refused:
        drawing_move(drawing_id=mine.pk, by=t.player, dx="1", dy=0)
    assert refused.value.field == "dx"
    assert Drawing.objects.get(pk=mine.pk).points == PEN
    assert last_event(t).seq == before


def test_removing_is_the_undo_of_ones_own_stroke(t):
    mine = draw(t.scene, t.player)
    theirs = draw(t.scene, t.other)
    with pytest.raises(NotAllowed):
        drawing_remove(drawing_id=theirs.pk, by=t.player)
    drawing_remove(drawing_id=mine.pk, by=t.player)
    event = last_event(t)
    assert event.kind == kinds.REMOVED
    assert event.data == {"id": mine.pk, "scene": t.scene.pk, "points": PEN}
    assert not Drawing.objects.filter(pk=mine.pk).exists()
    with pytest.raises(NotFound):
        drawing_remove(drawing_id=mine.pk, by=t.player)
    drawing_remove(drawing_id=theirs.pk, by=t.gm)
    assert not Drawing.objects.exists()


def test_a_player_does_not_know_of_a_gm_drawing(t):
    secret = draw(t.scene, t.gm, layer="gm")
    with pytest.raises(NotFound) as refused:
        drawing_remove(drawing_id=secret.pk, by=t.player)
    assert refused.value.message == "no such drawing"


def test_the_gm_clears_a_layer_or_both(t):
    shared = [draw(t.scene, t.player).pk, draw(t.scene, t.gm).pk]
    secret = [draw(t.scene, t.gm, layer="gm").pk]
    elsewhere = draw(t.elsewhere, t.gm, [[1, 1], [2, 2]])
    with pytest.raises(NotAllowed):
        drawing_clear(scene_id=t.scene.pk, by=t.player)
    with pytest.raises(ServiceError) as refused:
        drawing_clear(scene_id=t.scene.pk, by=t.gm, layer="both")
    assert refused.value.field == "layer"
    assert drawing_clear(scene_id=t.scene.pk, by=t.gm, layer="gm") == secret
    assert drawing_clear(scene_id=t.scene.pk, by=t.gm, layer="gm") == []
    draw(t.scene, t.gm, layer="gm")
    cleared = drawing_clear(scene_id=t.scene.pk, by=t.gm)
    assert set(shared) < set(cleared) and len(cleared) == 3
    events = RoomEvent.objects.filter(kind=kinds.CLEARED).order_by("seq")
    # One event a layer: the GM layer's ids go to the GM alone.
    assert [(e.data["layer"], e.visibility) for e in events] == [
        ("gm", "gm"),
        ("shared", "public"),
        ("gm", "gm"),
    ]
    assert events[1].data["ids"] == shared
    assert list(Drawing.objects.all()) == [elsewhere]
