"""Lights over REST: POST /api/scenes/<id>/lights/, PATCH and DELETE
/api/lights/<id>/. Bad input is a 400 naming its field; nothing is stored."""

import pytest

from vtt.tabletop.models import Light

pytestmark = pytest.mark.django_db


def test_the_gm_places_moves_and_removes_a_light(client_for, table):
    gm = client_for("gm")
    url = f"/api/scenes/{table.scene.pk}/lights/"
    made = gm.post(
        url, {"x": 2.5, "y": 3.5, "bright": 2, "dim": 5, "color": "#FFAA00"}, format="json"
    )
    assert made.status_code == 201, made.content
    light = made.json()
    assert (light["x"], light["y"], light["color"], light["shadows"]) == (2.5, 3.5, "#ffaa00", True)
    moved = gm.patch(f"/api/lights/{light['id']}/", {"x": 4, "on": False}, format="json")
    assert moved.status_code == 200 and (moved.json()["x"], moved.json()["on"]) == (4, False)
    assert gm.delete(f"/api/lights/{light['id']}/").status_code == 204
    assert not Light.objects.exists()


def test_a_token_is_given_a_light_to_carry(client_for, table):
    gm = client_for("gm")
    url = f"/api/scenes/{table.scene.pk}/lights/"
    made = gm.post(url, {"token_id": table.tenrec_token.pk, "bright": 4, "dim": 8}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["token_id"] == table.tenrec_token.pk


@pytest.mark.parametrize(
    "body, field",
    [
        ({"x": 1, "y": 1, "bright": 3, "dim": 1}, "dim"),
        ({"x": "1", "y": 1}, "x"),
        ({"x": 1, "y": 1, "on": "yes"}, "on"),
        ({"x": 1, "y": 1, "colour": "#ffffff"}, "colour"),
        ({"x": 1, "y": 1, "color": "#fff"}, "color"),
        ({"x": 1000, "y": 1}, "x"),
        ({"y": 1}, "x"),
    ],
)
def test_bad_lights_are_a_400_naming_their_field(client_for, table, body, field):
    gm = client_for("gm")
    response = gm.post(f"/api/scenes/{table.scene.pk}/lights/", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert field in str(error), error
    assert not Light.objects.exists()
