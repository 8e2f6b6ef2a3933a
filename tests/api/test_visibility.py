"""What the GM hides stays hidden in every answer of the API: hidden tokens,
NPCs, GM notes, inactive scenes and the rolls a member may not see."""

import json

import pytest

from tests.api_paths import campaign_paths, scene_paths, token_paths

# The zombie's token is in plain sight; its character sheet (kind "npc") is not.
SECRETS = ("Lurker", "gm_notes", "Rises again", "Burial chamber", '"npc"')


def reads(table):
    return [
        "/api/campaigns/",
        *campaign_paths(table.campaign.pk),
        f"/api/characters/{table.tenrec.pk}/",
        *scene_paths(table.scene.pk),
        *token_paths(table.tenrec_token.pk),
        f"/api/rolls/{table.public_roll.pk}/",
    ]


@pytest.mark.parametrize("role", ["observer", "player", "other"])
def test_members_read_nothing_the_gm_hides(client_for, table, role):
    client = client_for(role)
    for url in reads(table):
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        for secret in SECRETS:
            assert secret not in text, (url, secret)
    rolls = client.get(f"/api/campaigns/{table.campaign.pk}/rolls/").json()["results"]
    assert table.gm_roll.pk not in {r["id"] for r in rolls}


def test_the_gm_reads_it_all(client_for, table):
    client = client_for("gm")
    text = "".join(client.get(url).content.decode() for url in reads(table))
    for secret in ("Lurker", "gm_notes", "Rises again", "Burial chamber"):
        assert secret in text
    rolls = client.get(f"/api/campaigns/{table.campaign.pk}/rolls/").json()
    assert len(rolls["results"]) == 3
    assert all(r["blind"] is False and r["result"] for r in rolls["results"])


def test_a_blind_roll_tells_its_roller_only_that_it_was_made(client_for, table):
    rolls = client_for("player").get(f"/api/campaigns/{table.campaign.pk}/rolls/").json()
    by_id = {r["id"]: r for r in rolls["results"]}
    blind = by_id[table.blind_roll.pk]
    assert blind["blind"] is True
    assert blind["result"] is None and blind["request"] is None
    assert (blind["system"], blind["action"]) == ("artifice", "check")
    assert "dice" not in json.dumps(blind)
    assert by_id[table.public_roll.pk]["result"]["dice"]
    others = client_for("other").get(f"/api/campaigns/{table.campaign.pk}/rolls/").json()
    assert {r["id"] for r in others["results"]} == {table.public_roll.pk}


def test_a_player_making_a_gm_roll_gets_only_the_announcement(client_for, table):
    response = client_for("player").post(
        f"/api/campaigns/{table.campaign.pk}/rolls/",
        {
            "request": {"system": "artifice", "action": "check", "pool": 1, "difficulty": 1},
            "visibility": "gm",
        },
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["blind"] is True and response.json()["result"] is None


def test_gm_notes_only_for_gms(client_for, table):
    url = f"/api/characters/{table.zombie.pk}/"
    assert client_for("gm").get(url).json()["gm_notes"] == "Rises again at midnight."
    tenrec = client_for("player").get(f"/api/characters/{table.tenrec.pk}/").json()
    assert "gm_notes" not in tenrec
    patched = client_for("player").patch(
        f"/api/characters/{table.tenrec.pk}/", {"name": "T"}, format="json"
    )
    assert "gm_notes" not in patched.json()
