"""The markers' REST door: add, list, remove, and the field errors of bad input."""

import pytest

from vtt.tabletop.models import Marker, RoomEvent
from vtt.tabletop.services import token_update

pytestmark = pytest.mark.django_db


def _url(table) -> str:
    return f"/api/campaigns/{table.campaign.pk}/markers/"


def test_the_gm_adds_lists_and_removes_a_marker(table, client_for):
    gm = client_for("gm")
    reply = gm.post(
        _url(table), {"token": table.zombie_token.pk, "condition_id": "stunned"}, format="json"
    )
    assert reply.status_code == 201, reply.json()
    added = reply.json()
    assert added == {
        "id": added["id"],
        "token_id": table.zombie_token.pk,
        "condition_id": "stunned",
        "icon": "bolt",
        "label": "Stunned",
        "gm_only": False,
    }
    assert added in gm.get(_url(table)).json()["results"]
    assert added in client_for("player").get(_url(table)).json()["results"]
    assert gm.delete(f"/api/markers/{added['id']}/").status_code == 204
    assert added not in gm.get(_url(table)).json()["results"]


def test_the_secret_marker_is_listed_for_the_gm_alone(table, client_for):
    def labels(who):
        return {m["label"] for m in client_for(who).get(_url(table)).json()["results"]}

    assert labels("gm") == {"Stunned", "Doomed"}
    for who in ("player", "other", "observer"):
        assert labels(who) == {"Stunned"}, who


def test_a_player_marks_their_own_token_with_a_condition_only(table, client_for):
    token_update(token_id=table.tenrec_token.pk, by=table.gm, controllers=[table.player.pk])
    player = client_for("player")
    ok = player.post(
        _url(table), {"token": table.tenrec_token.pk, "condition_id": "prone"}, format="json"
    )
    assert ok.status_code == 201
    free = player.post(
        _url(table), {"token": table.tenrec_token.pk, "icon": "star", "label": "Hi"}, format="json"
    )
    assert free.status_code == 403
    theirs = player.post(
        _url(table), {"token": table.zombie_token.pk, "condition_id": "prone"}, format="json"
    )
    assert theirs.status_code == 403


@pytest.mark.parametrize(
    "body, field",
    [
        ({"icon": "star", "label": "x" * 10_240}, "label"),
        ({"condition_id": "on_fire"}, "condition_id"),
        ({"icon": "rocket", "label": "Up"}, "icon"),
        ({"condition_id": 3}, "condition_id"),
        ({"condition_id": "prone", "gm_only": "yes"}, "gm_only"),
        ({"condition_id": "prone", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_its_field(table, client_for, body, field):
    before = RoomEvent.objects.count(), Marker.objects.count()
    reply = client_for("gm").post(
        _url(table), {"token": table.zombie_token.pk, **body}, format="json"
    )
    assert reply.status_code == 400, reply.json()
    assert field in reply.json()["fields"]
    assert (RoomEvent.objects.count(), Marker.objects.count()) == before


@pytest.mark.parametrize("token", [999_999, "7", None])
def test_a_marker_on_an_unknown_token_is_a_400(table, client_for, token):
    before = Marker.objects.count()
    reply = client_for("gm").post(
        _url(table), {"token": token, "condition_id": "prone"}, format="json"
    )
    assert reply.status_code == 400
    assert "token" in reply.json()["fields"]
    assert Marker.objects.count() == before


def test_a_stranger_and_an_unknown_marker_get_404(table, client_for):
    body = {"token": table.zombie_token.pk, "condition_id": "prone"}
    assert client_for("outsider").post(_url(table), body, format="json").status_code == 404
    assert client_for("outsider").get(_url(table)).status_code == 404
    assert client_for("gm").delete("/api/markers/999999/").status_code == 404
