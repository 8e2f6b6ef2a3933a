"""Combat over REST: the same services behind thin views, the API's one
error shape, and who may do what."""

import pytest
from rest_framework.test import APIClient

from vtt.tabletop.models import Character

from .battle import ZOMBIE_FIGHT


@pytest.fixture
def client_for(battle):
    def make(name):
        client = APIClient()
        client.force_authenticate(battle.users[name])
        return client

    return make


def attack_body(battle, **extra):
    return {
        "attacker_token": battle.tokens["tenrec"].pk,
        "target_token": battle.tokens["zombie"].pk,
        "weapon": "Long sword",
        **extra,
    }


def test_the_zombie_fight_over_rest_then_undone(battle, client_for):
    player, gm = client_for("player"), client_for("gm")
    made = player.post(
        "/api/combat/attacks/", attack_body(battle, faces=ZOMBIE_FIGHT), format="json"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["outcome"] == "hit" and body["changes"][0]["after"] == "Wounded"
    assert body["seq"] is not None
    listed = client_for("other").get(f"/api/combat/attacks/?campaign={battle.campaign.pk}")
    assert [a["id"] for a in listed.json()] == [body["id"]]
    undo_url = f"/api/combat/campaigns/{battle.campaign.pk}/undo/"
    assert player.post(undo_url, {}, format="json").status_code == 403
    undone = gm.post(
        f"/api/combat/campaigns/{battle.campaign.pk}/undo/", {"seq": body["seq"]}, format="json"
    )
    assert undone.status_code == 200, undone.content
    assert undone.json()["type"] == "undo"
    zombie = Character.objects.get(pk=battle.characters["zombie"].pk)
    assert zombie.resources["condition"] == "Healthy"


def test_refusals_use_the_api_error_shape(battle, client_for):
    player = client_for("player")
    far = player.post(
        "/api/combat/attacks/",
        attack_body(battle, target_token=battle.tokens["kobor"].pk),
        format="json",
    )
    assert far.status_code == 400
    assert far.json()["error"]["code"] == "out_of_range"
    unknown = player.post("/api/combat/attacks/", attack_body(battle, dice=3), format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_field"
    typed = player.post(
        "/api/combat/attacks/", attack_body(battle, attacker_token="x"), format="json"
    )
    assert typed.status_code == 400 and typed.json()["error"]["field"] == "attacker_token"
    hidden = player.post(
        "/api/combat/attacks/", attack_body(battle, visibility="gm"), format="json"
    )
    assert hidden.status_code == 403
    stranger = client_for("stranger").post(
        "/api/combat/attacks/", attack_body(battle), format="json"
    )
    assert stranger.status_code == 404
    assert (
        APIClient().post("/api/combat/attacks/", attack_body(battle), format="json").status_code
        == 401
    )


def test_preview_gives_the_request_and_its_odds(battle, client_for):
    preview = client_for("player").post(
        "/api/combat/attacks/preview/", attack_body(battle), format="json"
    )
    assert preview.status_code == 200
    body = preview.json()
    assert body["request"]["attacker"]["finesse"] == 4
    assert set(body["odds"]["outcomes"]) == {"miss", "hit", "incapacitated", "dead"}


def test_range_bands_read(battle, client_for):
    url = f"/api/combat/tokens/{battle.tokens['tenrec'].pk}/range-bands/?weapon=Long%20bow"
    bands = client_for("observer").get(url)
    assert bands.status_code == 200
    assert bands.json()["bands"][4][16] == "n"
    assert client_for("stranger").get(url).status_code == 404
    bad = client_for("player").get(
        f"/api/combat/tokens/{battle.tokens['tenrec'].pk}/range-bands/?kind=cannon"
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "kind"


def test_an_encounter_over_rest(battle, client_for):
    gm, player = client_for("gm"), client_for("player")
    url = f"/api/combat/scenes/{battle.scene.pk}/encounter/"
    assert player.get(url).status_code == 204  # none running: no error to log
    assert player.post(url, {}, format="json").status_code == 403
    started = gm.post(url, {}, format="json")
    assert started.status_code == 201
    encounter = started.json()["id"]
    rolled = gm.post(
        f"/api/combat/encounters/{encounter}/initiative/",
        {"faces": [4, 2, 1, 2, 5, 5]},
        format="json",
    )
    assert [c["name"] for c in rolled.json()["order"]] == ["Kobor", "Tenrec", "Zombie"]
    turn = gm.post(f"/api/combat/encounters/{encounter}/next/")
    assert turn.json()["order"][turn.json()["turn"]]["name"] == "Kobor"
    assert player.get(url).json()["current"] == turn.json()["current"]
    assert player.post(f"/api/combat/encounters/{encounter}/next/").status_code == 403
    ended = gm.post(f"/api/combat/encounters/{encounter}/end/")
    assert ended.json()["ended"] is True


def test_trails_and_reset_over_rest(battle, client_for):
    player = client_for("player")
    token = battle.tokens["tenrec"].pk
    moved = player.post(f"/api/tokens/{token}/move/", {"x": 6, "y": 6}, format="json")
    assert moved.status_code == 200, moved.content
    trails = player.get(f"/api/combat/scenes/{battle.scene.pk}/trails/").json()["trails"]
    assert trails == [{"token_id": token, "start": [4, 4], "path": [[6, 6]]}]
    reset = player.post(f"/api/combat/tokens/{token}/reset/")
    assert (reset.json()["x"], reset.json()["y"]) == (4, 4)
    assert client_for("other").post(f"/api/combat/tokens/{token}/reset/").status_code == 403


def test_the_gm_asks_what_undo_would_put_back_before_asking_for_it(battle, client_for):
    gm, player = client_for("gm"), client_for("player")
    url = f"/api/combat/campaigns/{battle.campaign.pk}/undo/"
    assert gm.get(url).json() == {"seq": None, "kind": None, "summary": None}
    tenrec = battle.tokens["tenrec"]
    moved = player.post(f"/api/tokens/{tenrec.pk}/move/", {"x": 6, "y": 4}, format="json")
    assert moved.status_code == 200, moved.content
    answer = gm.get(url).json()
    assert answer["kind"] == "token.moved"
    assert answer["summary"] == "Tenrec's move (back to column 5, row 5)"
    # A player is not told what the room's last result is: it may be a hidden one.
    assert player.get(url).status_code == 403
    assert gm.post(url, {"seq": answer["seq"]}, format="json").status_code == 200
    assert gm.get(url).json()["seq"] is None
