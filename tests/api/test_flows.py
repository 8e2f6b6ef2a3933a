"""The API end to end: what each endpoint answers when things go right."""

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from vtt.dice import roll_adjudicate
from vtt.tabletop.models import RoomEvent


def test_a_script_signs_in_with_a_token(table):
    user = get_user_model().objects.get(pk=table.outsider.pk)
    user.set_password("correct horse battery staple")
    user.save()
    anonymous = APIClient()
    response = anonymous.post(
        "/api/auth/token/",
        {"username": "outsider", "password": "correct horse battery staple"},
        format="json",
    )
    assert response.status_code == 200
    key = response.json()["token"]
    again = anonymous.post(
        "/api/auth/token/",
        {"username": "outsider", "password": "correct horse battery staple"},
        format="json",
    )
    assert again.json()["token"] == key
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert script.get("/api/me/").json() == {
        "id": table.outsider.pk,
        "name": "outsider",
        "username": "outsider",
    }
    script.credentials(HTTP_AUTHORIZATION="Token nope")
    assert script.get("/api/me/").status_code == 401


def test_anonymous_is_told_how_to_authenticate():
    response = APIClient().get("/api/campaigns/")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "not_authenticated"


def test_create_a_campaign_and_invite_someone(client_for, table):
    gm = client_for("outsider")
    created = gm.post(
        "/api/campaigns/",
        {"name": "Night Run", "game": "rd6", "settings": {"complication": "narrate"}},
        format="json",
    )
    assert created.status_code == 201
    campaign = created.json()
    assert campaign["role"] == "gm" and campaign["settings"]["complication"] == "narrate"
    invite = gm.post(
        f"/api/campaigns/{campaign['id']}/invites/",
        {
            "role": "observer",
            "max_uses": 1,
            "expires_at": (timezone.now() + timezone.timedelta(days=1)).isoformat(),
        },
        format="json",
    ).json()
    assert invite["uses"] == 0 and invite["role"] == "observer"
    joined = client_for("player").post(
        "/api/invites/accept/", {"code": invite["code"]}, format="json"
    )
    assert joined.json() == {
        "user": {"id": table.player.pk, "name": "player"},
        "role": "observer",
        "campaign_id": campaign["id"],
    }
    listed = client_for("player").get("/api/campaigns/").json()
    assert {c["name"]: c["role"] for c in listed["results"]} == {
        "The Tomb": "player",
        "Night Run": "observer",
    }
    used_up = client_for("other").post(
        "/api/invites/accept/", {"code": invite["code"]}, format="json"
    )
    assert used_up.status_code == 400 and used_up.json()["error"]["code"] == "invite_used_up"
    assert (
        client_for("other")
        .post("/api/invites/accept/", {"code": "nope"}, format="json")
        .status_code
        == 404
    )


def test_characters_and_resources(client_for, table):
    player = client_for("player")
    created = player.post(
        f"/api/campaigns/{table.campaign.pk}/characters/",
        {"name": "Ilsa", "sheet": {"class": "Sorcerer", "abilities": {"Arcanum": {"dice": 3}}}},
        format="json",
    ).json()
    assert created["owner"] == {"id": table.player.pk, "name": "player"}
    assert created["sheet"]["abilities"]["Arcanum"] == {"dice": 3, "kind": "standard", "pips": 0}
    assert created["resources"] == {"experience": 0, "condition": "Healthy"}
    spent = player.post(
        f"/api/characters/{table.tenrec.pk}/spend/",
        {"resource": "experience", "amount": 2},
        format="json",
    ).json()
    assert spent["resources"]["experience"] == 3
    short = player.post(
        f"/api/characters/{table.tenrec.pk}/spend/",
        {"resource": "experience", "amount": 4},
        format="json",
    )
    assert short.status_code == 400
    assert short.json()["error"] == {
        "code": "insufficient_experience",
        "message": "Tenrec has 3 experience, not 4",
        "field": "amount",
    }


def test_scenes_and_tokens(client_for, table):
    gm = client_for("gm")
    scene = gm.post(
        f"/api/campaigns/{table.campaign.pk}/scenes/",
        {"name": "Crypt", "width": 12, "height": 8, "walls": [[0, 4, 6, 4]]},
        format="json",
    ).json()
    assert scene["active"] is False and scene["walls"] == [[0, 4, 6, 4]]
    assert gm.post(f"/api/scenes/{scene['id']}/activate/").json()["active"] is True
    token = gm.post(
        f"/api/scenes/{scene['id']}/tokens/",
        {"name": "Tenrec", "x": 1, "y": 1, "character_id": table.tenrec.pk},
        format="json",
    ).json()
    assert token["controllers"] == [table.player.pk]
    player = client_for("player")
    moved = player.post(
        f"/api/tokens/{token['id']}/move/", {"x": 2, "y": 1, "version": 1}, format="json"
    )
    assert moved.json()["version"] == 2
    stale = player.post(
        f"/api/tokens/{token['id']}/move/", {"x": 3, "y": 1, "version": 1}, format="json"
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_version"
    assert stale.json()["token"]["x"] == 2 and stale.json()["token"]["version"] == 2
    hidden = gm.post(f"/api/tokens/{token['id']}/hidden/", {"hidden": True}, format="json").json()
    assert hidden["hidden"] is True and hidden["version"] == 3
    assert player.get(f"/api/tokens/{token['id']}/").status_code == 404
    kinds = list(
        RoomEvent.objects.filter(campaign=table.campaign)
        .order_by("-seq")
        .values_list("kind", flat=True)[:5]
    )
    assert kinds == [
        "token.hidden",
        "token.moved",
        "token.created",
        "scene.activated",
        "scene.created",
    ]


def test_rolls_are_adjudicated_and_paged(client_for, table):
    player = client_for("player")
    rolled = player.post(
        f"/api/campaigns/{table.campaign.pk}/rolls/",
        {
            "request": {
                "system": "artifice",
                "action": "check",
                "pool": 3,
                "modifier": 1,
                "difficulty": 2,
                "faces": [2, 2, 3],
            },
            "character_id": table.tenrec.pk,
        },
        format="json",
    )
    assert rolled.status_code == 201
    roll = rolled.json()
    assert roll["physical"] is True and roll["character"] == {
        "id": table.tenrec.pk,
        "name": "Tenrec",
    }
    assert roll["result"]["outcome"] == "failure"
    assert player.get(f"/api/rolls/{roll['id']}/").json() == roll
    check = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
    for _ in range(60):
        roll_adjudicate(campaign_id=table.campaign.pk, by=table.gm, request=check)
    gm = client_for("gm")
    url = f"/api/campaigns/{table.campaign.pk}/rolls/"
    first = gm.get(url).json()
    assert len(first["results"]) == 50 and first["next"].endswith(
        f"?before={first['results'][-1]['id']}"
    )
    # A roll made meanwhile does not shift the pages already begun.
    roll_adjudicate(campaign_id=table.campaign.pk, by=table.gm, request=check)
    second = gm.get(first["next"]).json()
    assert len(second["results"]) == 14 and second["next"] is None
    ids = [r["id"] for r in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 64
    assert gm.get(url).json()["results"][0]["id"] > ids[0]
    for bad in ("x", "0", "-3", str(2**63)):
        refused = gm.get(f"{url}?before={bad}")
        assert refused.status_code == 400 and "before" in refused.json()["fields"]


def test_members_roles_and_leaving(client_for, table):
    gm = client_for("gm")
    url = f"/api/campaigns/{table.campaign.pk}/members/"
    promoted = gm.patch(f"{url}{table.other.pk}/", {"role": "gm"}, format="json").json()
    assert promoted == {"user": {"id": table.other.pk, "name": "other"}, "role": "gm"}
    last = client_for("observer").delete(f"{url}{table.observer.pk}/")
    assert last.status_code == 204
    names = [m["user"]["name"] for m in gm.get(url).json()["results"]]
    assert names == ["gm", "player", "other"]


def test_rolling_for_a_character_spends_what_the_roll_takes(client_for, table):
    owner = client_for("outsider")
    campaign = owner.post(
        "/api/campaigns/", {"name": "Ground", "game": "fgr"}, format="json"
    ).json()
    hero = owner.post(
        f"/api/campaigns/{campaign['id']}/characters/",
        {"name": "Hero", "sheet": {"skills": {"Athletics": 4}}},
        format="json",
    ).json()
    url = f"/api/campaigns/{campaign['id']}/rolls/"
    body = {
        "request": {"system": "fgr", "action": "roll", "difficulty": 2, "action_points": 2},
        "character_id": hero["id"],
        "fill": {"skill": "Athletics"},
    }
    rolled = owner.post(url, body, format="json")
    assert rolled.status_code == 201, rolled.content
    assert rolled.json()["request"]["skill"] == 4
    assert len(rolled.json()["result"]["dice"]) == 4
    assert owner.get(f"/api/characters/{hero['id']}/").json()["resources"]["action_points"] == 3
    body["request"]["action_points"] = 4
    refused = owner.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "insufficient_action_points"
    assert owner.get(f"/api/characters/{hero['id']}/").json()["resources"]["action_points"] == 3
    assert len(owner.get(url).json()["results"]) == 1
