"""Hostile and careless input: every bad request is a 400 that names the
field, never a 500, and leaves the database exactly as it was."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tabletop.images import image_bytes, png_header_claiming
from vtt.tabletop.models import (
    Campaign,
    Character,
    Invite,
    Membership,
    Roll,
    RoomEvent,
    Scene,
    Token,
)

MODELS = (Campaign, Membership, Invite, Character, Scene, Token, Roll, RoomEvent)


def database_state():
    state = {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}
    state["controllers"] = list(
        Token.controllers.through.objects.order_by("pk").values_list("token_id", "user_id")
    )
    return state


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


CHECK = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
DEEP = "[" * 100_000 + "]" * 100_000

# (method, url, body, the field the 400 must name, or None for a body-level error)
CASES = [
    ("post", "/api/campaigns/", {"name": "X", "game": "rd6", "colour": 1}, "colour"),
    ("post", "/api/campaigns/", {"name": 5, "game": "rd6"}, "name"),
    ("post", "/api/campaigns/", {"name": "X" * 121, "game": "rd6"}, "name"),
    ("post", "/api/campaigns/", {"name": "X\u0000", "game": "rd6"}, "name"),
    ("post", "/api/campaigns/", {"name": "X", "game": "d20"}, "game"),
    ("post", "/api/campaigns/", {"game": "rd6"}, "name"),
    (
        "post",
        "/api/campaigns/",
        {"name": "X", "game": "rd6", "settings": {"complication": "boom"}},
        "settings.complication",
    ),
    ("post", "/api/campaigns/", {"name": "X", "game": "rd6", "settings": []}, "settings"),
    ("post", "/api/campaigns/", [1, 2], None),
    ("post", "/api/campaigns/", "RAW:{not json", None),
    ("post", "/api/campaigns/", "RAW:" + DEEP, None),
    ("post", "/api/campaigns/", "RAW:" + '{"name": "' + "x" * (1024 * 1024) + '"}', None),
    ("post", "/api/campaigns/", "RAW:NaN", None),
    # A valid name with bad settings changes neither.
    (
        "patch",
        "/api/campaigns/{campaign}/",
        {"name": "New", "settings": {"diagonal": "hex"}},
        "settings.diagonal",
    ),
    (
        "patch",
        "/api/campaigns/{campaign}/",
        {"settings": {"condition_track": ["Only"]}},
        "settings.condition_track",
    ),
    ("patch", "/api/campaigns/{campaign}/members/{observer}/", {"role": "king"}, "role"),
    ("patch", "/api/campaigns/{campaign}/members/{gm}/", {"role": "player"}, "role"),
    ("post", "/api/campaigns/{campaign}/invites/", {"role": "gm"}, "role"),
    ("post", "/api/campaigns/{campaign}/invites/", {"max_uses": 0}, "max_uses"),
    ("post", "/api/campaigns/{campaign}/invites/", {"expires_at": "yesterday"}, "expires_at"),
    (
        "post",
        "/api/campaigns/{campaign}/invites/",
        {"expires_at": "2001-01-01T00:00:00Z"},
        "expires_at",
    ),
    ("post", "/api/invites/accept/", {"code": ""}, "code"),
    ("post", "/api/invites/accept/", {"code": ["x"]}, "code"),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "sheet": {"abilities": {"Might": {"dice": 4}}}},
        "sheet.abilities.Might.dice",
    ),
    ("post", "/api/campaigns/{campaign}/characters/", {"name": "X", "sheet": "strong"}, "sheet"),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "sheet": {"skills": {"a": 1}}},
        "sheet.skills",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "sheet": {"race": "Elf\u0000"}},
        "sheet.race",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "weapons": [{"name": "Bow", "range_ft": -5}]},
        "weapons[0].range_ft",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "kind": "monster"},
        "kind",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "X", "owner_id": "player"},
        "owner_id",
    ),
    (
        "patch",
        "/api/characters/{tenrec}/",
        {"name": "Tenrec II", "sheet": {"level": 0}},
        "sheet.level",
    ),
    ("patch", "/api/characters/{tenrec}/", {"resources": {"condition": "Bored"}}, None),
    ("patch", "/api/characters/{tenrec}/", {"gm_notes": "a\u0000b"}, "gm_notes"),
    ("patch", "/api/characters/{tenrec}/", {"level": 3}, "level"),
    (
        "post",
        "/api/characters/{tenrec}/spend/",
        {"resource": "experience", "amount": 999},
        "amount",
    ),
    ("post", "/api/characters/{tenrec}/spend/", {"resource": "gold", "amount": 1}, "resource"),
    ("post", "/api/characters/{tenrec}/spend/", {"resource": "experience", "amount": -1}, "amount"),
    ("post", "/api/campaigns/{campaign}/scenes/", {"name": "S", "width": 100_000}, "width"),
    ("post", "/api/campaigns/{campaign}/scenes/", {"name": "S", "width": "20"}, "width"),
    (
        "post",
        "/api/campaigns/{campaign}/scenes/",
        {"name": "S", "walls": [[0, 0, "a", 1]]},
        "walls[0][2]",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/scenes/",
        {"name": "S", "walls": [[0, 0, 99, 0]]},
        "walls[0][2]",
    ),
    ("patch", "/api/scenes/{scene}/", {"width": 1}, "width"),
    ("patch", "/api/scenes/{scene}/", {"name": "Gate", "walls": {"a": 1}}, "walls"),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat", "x": 500}, "x"),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat", "x": "1"}, "x"),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat", "size": 11}, "size"),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat", "color": "red"}, "color"),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat", "hidden": "yes"}, "hidden"),
    (
        "post",
        "/api/scenes/{scene}/tokens/",
        {"name": "Rat", "controllers": [987654]},
        "controllers",
    ),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 20, "y": 1}, "x"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 1, "y": -1}, "y"),
    ("post", "/api/tokens/{lurker}/move/", {"x": 19, "y": 0}, "x"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 1.5, "y": 1}, "x"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": True, "y": 1}, "x"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 2**70, "y": 1}, "x"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 1}, "y"),
    ("post", "/api/tokens/{tenrec_token}/move/", {"x": 1, "y": 1, "speed": 3}, "speed"),
    ("patch", "/api/tokens/{tenrec_token}/", {"size": 0}, "size"),
    ("patch", "/api/tokens/{tenrec_token}/", {"hidden": True}, "hidden"),
    ("post", "/api/tokens/{tenrec_token}/hidden/", {"hidden": None}, "hidden"),
    (
        "post",
        "/api/campaigns/{campaign}/rolls/",
        {"request": {**CHECK, "pool": 999}},
        "request.pool",
    ),
    ("post", "/api/campaigns/{campaign}/rolls/", {"request": {**CHECK, "x": 1}}, "request.x"),
    ("post", "/api/campaigns/{campaign}/rolls/", {"request": "roll"}, "request"),
    (
        "post",
        "/api/campaigns/{campaign}/rolls/",
        {"request": CHECK, "visibility": "everyone"},
        "visibility",
    ),
    (
        "post",
        "/api/campaigns/{campaign}/rolls/",
        {"request": {**CHECK, "faces": [1, 2, 3, 4]}},
        "request.faces",
    ),
    ("post", "/api/campaigns/{campaign}/rolls/", {"request": {**CHECK, "system": "rd6"}}, None),
]


def fill(url, table):
    return url.format(
        campaign=table.campaign.pk,
        observer=table.observer.pk,
        gm=table.gm.pk,
        tenrec=table.tenrec.pk,
        scene=table.scene.pk,
        tenrec_token=table.tenrec_token.pk,
        lurker=table.lurker.pk,
    )


@pytest.mark.parametrize(("method", "url", "body", "field"), CASES)
def test_a_bad_request_is_a_named_400_and_writes_nothing(
    client_for, table, method, url, body, field
):
    client = client_for("gm")
    before = database_state()
    url = fill(url, table)
    if isinstance(body, str) and body.startswith("RAW:"):
        response = getattr(client, method)(url, body[4:], content_type="application/json")
    else:
        response = getattr(client, method)(url, body, format="json")
    assert response.status_code == 400, response.content[:300]
    error = response.json()
    assert error["error"]["code"] and error["error"]["message"]
    assert error["fields"]
    if field is not None:
        assert error["error"]["field"] == field
        assert field in error["fields"]
    assert database_state() == before


def upload(client, url, data, name="map.png"):
    return client.put(url, {"image": SimpleUploadedFile(name, data)}, format="multipart")


@pytest.mark.parametrize(
    "data",
    [
        b"plain text, not a picture",
        b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
        image_bytes(kind="BMP"),
        image_bytes()[:30],
        png_header_claiming(9000, 9000),
        png_header_claiming(100_000, 100_000),
    ],
    ids=["text", "svg", "bmp", "truncated", "too-wide", "bomb"],
)
def test_bad_backgrounds(client_for, table, media, data):
    before = database_state()
    response = upload(client_for("gm"), f"/api/scenes/{table.scene.pk}/background/", data)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "image"
    assert database_state() == before
    assert list(media.rglob("*.*")) == []


def test_oversized_background(client_for, table, media):
    data = image_bytes() + b"\0" * (11 * 1024 * 1024)
    before = database_state()
    response = upload(client_for("gm"), f"/api/scenes/{table.scene.pk}/background/", data)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "image_too_large"
    assert database_state() == before
    assert list(media.rglob("*.*")) == []


@pytest.mark.parametrize(
    "body",
    [{}, {"image": "not a file"}, {"image": "x", "other": "y"}],
    ids=["none", "text", "extra"],
)
def test_background_without_a_file(client_for, table, body):
    before = database_state()
    response = client_for("gm").put(
        f"/api/scenes/{table.scene.pk}/background/", body, format="multipart"
    )
    assert response.status_code == 400
    assert database_state() == before


def test_json_to_the_upload_and_a_form_to_json_are_refused(client_for, table):
    client = client_for("gm")
    response = client.put(f"/api/scenes/{table.scene.pk}/background/", {"image": 1}, format="json")
    assert response.status_code == 415
    response = client.post(f"/api/campaigns/{table.campaign.pk}/scenes/", {"name": "S"})
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


def test_a_good_background_is_served_back(client_for, table, media):
    response = upload(client_for("gm"), f"/api/scenes/{table.scene.pk}/background/", image_bytes())
    assert response.status_code == 200
    url = response.json()["background"]
    assert url.startswith("/media/scenes/") and (media / url.removeprefix("/media/")).exists()
