"""The GM's spectator links over REST: made (the one answer with the
token), listed without it, bad input refused field by field with nothing
stored, revoked. A link's token opens no REST door."""

import pytest

from vtt.spectators.models import SpectatorLink
from vtt.spectators.tokens import token_hash

pytestmark = pytest.mark.django_db

URL = "/api/campaigns/{}/spectator-links/"


def test_a_link_is_shown_once_and_kept_only_as_a_hash(client_for, table):
    gm = client_for("gm")
    made = gm.post(
        URL.format(table.campaign.pk),
        {"label": "Stream", "delay_seconds": 45, "expires_in_minutes": 90},
        format="json",
    )
    assert made.status_code == 201
    data = made.json()
    assert data["url"] == f"/watch/{data['token']}/"
    assert len(data["token"]) >= 43 and data["state"] == "open"
    assert (data["label"], data["delay_seconds"]) == ("Stream", 45)
    link = SpectatorLink.objects.get(pk=data["id"])
    assert link.token_hash == token_hash(data["token"]) != data["token"]
    listed = gm.get(URL.format(table.campaign.pk)).json()["results"]
    assert data["id"] in [row["id"] for row in listed]
    assert data["token"] not in str(listed) and "token" not in listed[0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"delay_seconds": 601}, "delay_seconds"),
        ({"delay_seconds": -1}, "delay_seconds"),
        ({"delay_seconds": "5"}, "delay_seconds"),
        ({"expires_in_minutes": 0}, "expires_in_minutes"),
        ({"label": "x" * 81}, "label"),
        ({"label": 5}, "label"),
        ({"token": "mine"}, "token"),
    ],
)
def test_bad_input_is_refused_by_field_and_nothing_stored(client_for, table, body, field):
    before = SpectatorLink.objects.count()
    answer = client_for("gm").post(URL.format(table.campaign.pk), body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["fields"]
    assert SpectatorLink.objects.count() == before


def test_revoking_keeps_the_link_listed_as_revoked(client_for, table):
    gm = client_for("gm")
    assert gm.delete(f"/api/spectator-links/{table.spectator_link.pk}/").status_code == 204
    listed = gm.get(URL.format(table.campaign.pk)).json()["results"]
    row = next(r for r in listed if r["id"] == table.spectator_link.pk)
    assert row["state"] == "revoked" and row["revoked_at"]
    # Again: nothing changes.
    assert gm.delete(f"/api/spectator-links/{table.spectator_link.pk}/").status_code == 204


def test_a_links_token_opens_no_rest_door(client_for, table):
    token = client_for("gm").post(URL.format(table.campaign.pk), {}, format="json").json()["token"]
    anonymous = client_for("anonymous")
    for header in (f"Token {token}", f"Bearer {token}"):
        answer = anonymous.get(f"/api/campaigns/{table.campaign.pk}/", HTTP_AUTHORIZATION=header)
        assert answer.status_code == 401
    answer = anonymous.get(f"/api/campaigns/{table.campaign.pk}/?token={token}")
    assert answer.status_code == 401
