"""The GM's wall edits over REST: each answers with the scene; bad input is
a 400 naming its field, and nothing is stored."""

import pytest

from vtt.tabletop.models import Scene

pytestmark = pytest.mark.django_db


def walls(table) -> list:
    return Scene.objects.get(pk=table.scene.pk).walls


def test_the_gm_adds_moves_and_deletes_a_segment(client_for, table):
    gm = client_for("gm")
    base = f"/api/scenes/{table.scene.pk}/walls/"
    added = gm.post(base, {"wall": [4, 0, 4, 5, "door"]}, format="json")
    assert added.status_code == 201 and added.json()["walls"][1] == [4, 0, 4, 5, "door"]
    moved = gm.patch(f"{base}1/", {"was": [4, 0, 4, 5], "wall": [4, 1, 4, 5]}, format="json")
    assert moved.status_code == 200 and moved.json()["walls"][1] == [4, 1, 4, 5, "door"]
    gone = gm.delete(f"{base}0/", {"was": [0, 5, 10, 5]}, format="json")
    assert gone.status_code == 200 and gone.json()["walls"] == [[4, 1, 4, 5, "door"]]
    assert walls(table) == [[4, 1, 4, 5, "door"]]


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "", {"wall": [2, 2, 2, 2]}, "wall"),
        ("post", "", {"wall": [0, 0, 0, 40]}, "wall[3]"),
        ("post", "", {}, "wall"),
        ("patch", "3/", {"was": [0, 5, 10, 5], "wall": [1, 1, 2, 2]}, "wall"),
        ("patch", "0/", {"was": [0, 5, 10, 4], "wall": [1, 1, 2, 2]}, "was"),
        ("patch", "0/", {"was": [0, 5, 10, 5], "wall": [0, 5, 0, 5]}, "wall"),
        ("delete", "9/", {"was": [0, 5, 10, 5]}, "wall"),
        ("delete", "0/", {"was": "0 5 10 5"}, "was"),
    ],
)
def test_bad_edits_are_400s_naming_the_field(client_for, table, method, path, body, field):
    gm = client_for("gm")
    url = f"/api/scenes/{table.scene.pk}/walls/{path}"
    answer = getattr(gm, method)(url, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["field"] == field
    assert field in answer.json()["fields"]
    assert walls(table) == [[0, 5, 10, 5]]
