"""Drawings over REST: the same services as the room's intents, so the same
refusals, field by field; 100,000 points are refused with a clear message
and nothing is stored."""

import json

import pytest
from django.test import Client

from vtt.drawings.models import Drawing
from vtt.tabletop.models import RoomEvent

from .table import make_table

pytestmark = pytest.mark.django_db

LINE = {"shape": "line", "color": "#ff0000", "width": 2, "points": [[1, 1], [2, 2]]}


@pytest.fixture
def t():
    return make_table()


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, scene, body):
    return client.post(
        f"/api/scenes/{scene.pk}/drawings/", json.dumps(body), content_type="application/json"
    )


def test_draw_list_move_and_erase(t):
    player = client_of(t.player)
    made = post(player, t.scene, LINE)
    assert made.status_code == 201
    drawing = made.json()
    assert drawing["by"] == {"id": t.player.pk, "name": "player"}
    assert drawing["points"] == [[1, 1], [2, 2]] and drawing["layer"] == "shared"
    listed = client_of(t.other).get(f"/api/scenes/{t.scene.pk}/drawings/").json()
    assert [d["id"] for d in listed] == [drawing["id"]]
    moved = player.patch(
        f"/api/drawings/{drawing['id']}/",
        json.dumps({"dx": 0.5, "dy": 1}),
        content_type="application/json",
    )
    assert moved.status_code == 200 and moved.json()["points"] == [[1.5, 2], [2.5, 3]]
    assert player.delete(f"/api/drawings/{drawing['id']}/").status_code == 204
    kinds = list(
        RoomEvent.objects.filter(kind__startswith="drawing.").values_list("kind", flat=True)
    )
    assert kinds == ["drawing.added", "drawing.moved", "drawing.removed"]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"points": [[1 + i % 10, 1 + i % 5] for i in range(100_000)], "shape": "pen"}, "points",
         "at most 2000 points"),
        ({"points": [[1, 1], [25, 1]]}, "points[1]", "off the map"),
        ({"color": "red"}, "color", "#rrggbb"),
        ({"width": 0}, "width", "between 1 and 8"),
        ({"shape": "star"}, "shape", "must be one of"),
        ({"points": [[1, 1], ["NaN", 1]]}, "points[1]", "two numbers"),
    ],
)  # fmt: skip
def test_bad_drawings_are_a_400_naming_the_field(t, change, field, words):
    before = RoomEvent.objects.count()
    refused = post(client_of(t.gm), t.scene, {**LINE, **change})
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["field"] == field and words in error["message"]
    assert not Drawing.objects.exists() and RoomEvent.objects.count() == before


def test_a_body_of_nan_is_refused(t):
    body = '{"shape": "line", "color": "#ff0000", "width": 2, "points": [[1, 1], [NaN, 1]]}'
    refused = client_of(t.gm).post(
        f"/api/scenes/{t.scene.pk}/drawings/", body, content_type="application/json"
    )
    assert refused.status_code == 400
    assert not Drawing.objects.exists()


def test_the_gm_layer_and_the_setting(t):
    refused = post(client_of(t.player), t.scene, {**LINE, "layer": "gm"})
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "layer"
    secret = post(client_of(t.gm), t.scene, {**LINE, "layer": "gm"}).json()
    assert client_of(t.player).get(f"/api/scenes/{t.scene.pk}/drawings/").json() == []
    assert client_of(t.player).delete(f"/api/drawings/{secret['id']}/").status_code == 404
    gm_list = client_of(t.gm).get(f"/api/scenes/{t.scene.pk}/drawings/").json()
    assert [d["id"] for d in gm_list] == [secret["id"]]
