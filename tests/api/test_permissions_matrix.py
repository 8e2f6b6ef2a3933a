"""Who may do what, endpoint by endpoint and verb by verb.

Every row is (who, method, url, expected status). Names in braces are the
table's objects (tests/api/conftest.py): the GM, two players (`player` owns
Tenrec, `other` owns Kobor), an observer, an outsider who is no member, and
no one signed in. A non-member gets 404 for a campaign's objects, never 403,
so they learn nothing; a hidden token, an NPC or an inactive scene is a 404
for everyone but the GM."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import get_resolver

from tests.tabletop.images import image_bytes
from tests.tabletop.uvtt_files import dungeon, encode

ROLES = ("anonymous", "outsider", "observer", "player", "other", "gm")

CHECK = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}

DRAWN = {"shape": "line", "color": "#ff0000", "width": 2, "points": [[1, 1], [2, 2]]}

# (method, url, body, statuses for anonymous, outsider, observer, player, other, gm)
ENDPOINTS = [
    # Wrong credentials are a 400 whoever asks; no session is needed here.
    (
        "post",
        "/api/auth/token/",
        {"username": "gm", "password": "wrong"},
        (400, 400, 400, 400, 400, 400),
    ),
    ("get", "/api/me/", None, (401, 200, 200, 200, 200, 200)),
    ("get", "/api/campaigns/", None, (401, 200, 200, 200, 200, 200)),
    ("post", "/api/campaigns/", {"name": "Mine", "game": "rd6"}, (401, 201, 201, 201, 201, 201)),
    ("get", "/api/campaigns/{campaign}/", None, (401, 404, 200, 200, 200, 200)),
    ("patch", "/api/campaigns/{campaign}/", {"name": "X"}, (401, 404, 403, 403, 403, 200)),
    (
        "patch",
        "/api/campaigns/{campaign}/",
        {"settings": {"diagonal": "alternating"}},
        (401, 404, 403, 403, 403, 200),
    ),
    ("delete", "/api/campaigns/{campaign}/", None, (401, 404, 403, 403, 403, 204)),
    ("get", "/api/campaigns/{campaign}/members/", None, (401, 404, 200, 200, 200, 200)),
    (
        "patch",
        "/api/campaigns/{campaign}/members/{observer}/",
        {"role": "player"},
        (401, 404, 403, 403, 403, 200),
    ),
    # A member may leave; only a GM removes someone else.
    (
        "delete",
        "/api/campaigns/{campaign}/members/{other}/",
        None,
        (401, 404, 403, 403, 204, 204),
    ),
    ("get", "/api/campaigns/{campaign}/invites/", None, (401, 404, 403, 403, 403, 200)),
    (
        "post",
        "/api/campaigns/{campaign}/invites/",
        {"role": "observer"},
        (401, 404, 403, 403, 403, 201),
    ),
    ("delete", "/api/invites/{invite}/", None, (401, 404, 403, 403, 403, 204)),
    # Anyone signed in may accept; members keep their role.
    ("post", "/api/invites/accept/", {"code": "{invite_code}"}, (401, 200, 200, 200, 200, 200)),
    ("get", "/api/campaigns/{campaign}/characters/", None, (401, 404, 200, 200, 200, 200)),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "Ilsa"},
        (401, 404, 403, 201, 201, 201),
    ),
    (
        "post",
        "/api/campaigns/{campaign}/characters/",
        {"name": "Ghoul", "kind": "npc"},
        (401, 404, 403, 403, 403, 201),
    ),
    ("get", "/api/characters/{tenrec}/", None, (401, 404, 200, 200, 200, 200)),
    ("get", "/api/characters/{zombie}/", None, (401, 404, 404, 404, 404, 200)),
    (
        "patch",
        "/api/characters/{tenrec}/",
        {"name": "Tenrec the Bold"},
        (401, 404, 403, 200, 403, 200),
    ),
    ("patch", "/api/characters/{tenrec}/", {"gm_notes": "x"}, (401, 404, 403, 403, 403, 200)),
    (
        "patch",
        "/api/characters/{tenrec}/",
        {"resources": {"experience": 9}},
        (401, 404, 403, 403, 403, 200),
    ),
    ("patch", "/api/characters/{zombie}/", {"name": "Z"}, (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/characters/{kobor}/", None, (401, 404, 403, 403, 204, 204)),
    ("delete", "/api/characters/{zombie}/", None, (401, 404, 404, 404, 404, 204)),
    (
        "post",
        "/api/characters/{tenrec}/spend/",
        {"resource": "experience", "amount": 1},
        (401, 404, 403, 200, 403, 200),
    ),
    (
        "post",
        "/api/characters/{tenrec}/award/",
        {"resource": "experience", "amount": 1},
        (401, 404, 403, 403, 403, 200),
    ),
    ("get", "/api/campaigns/{campaign}/scenes/", None, (401, 404, 200, 200, 200, 200)),
    (
        "post",
        "/api/campaigns/{campaign}/scenes/",
        {"name": "Crypt"},
        (401, 404, 403, 403, 403, 201),
    ),
    ("get", "/api/scenes/{scene}/", None, (401, 404, 200, 200, 200, 200)),
    ("get", "/api/scenes/{spare_scene}/", None, (401, 404, 404, 404, 404, 200)),
    ("patch", "/api/scenes/{scene}/", {"name": "Gate"}, (401, 404, 403, 403, 403, 200)),
    ("patch", "/api/scenes/{spare_scene}/", {"name": "Pit"}, (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/scenes/{scene}/", None, (401, 404, 403, 403, 403, 204)),
    ("delete", "/api/scenes/{spare_scene}/", None, (401, 404, 404, 404, 404, 204)),
    ("put", "/api/scenes/{scene}/background/", "IMAGE", (401, 404, 403, 403, 403, 200)),
    # A map file: a new scene, or a scene's map (counted only: the table's
    # scene has tokens beyond the test map).
    (
        "post",
        "/api/campaigns/{campaign}/scenes/import/",
        "MAP",
        (401, 404, 403, 403, 403, 201),
    ),
    ("post", "/api/scenes/{scene}/import/", "MAP_COUNTED", (401, 404, 403, 403, 403, 200)),
    ("post", "/api/scenes/{spare_scene}/import/", "MAP", (401, 404, 404, 404, 404, 200)),
    # A portrait: its owner or a GM; a token's art: a GM or its character's owner.
    ("put", "/api/characters/{tenrec}/portrait/", "IMAGE", (401, 404, 403, 200, 403, 200)),
    ("post", "/api/characters/{tenrec}/portrait/", "IMAGE", (401, 404, 403, 200, 403, 200)),
    ("put", "/api/characters/{zombie}/portrait/", "IMAGE", (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/characters/{tenrec}/portrait/", None, (401, 404, 403, 200, 403, 200)),
    ("put", "/api/tokens/{tenrec_token}/art/", "IMAGE", (401, 404, 403, 200, 403, 200)),
    ("put", "/api/tokens/{zombie_token}/art/", "IMAGE", (401, 404, 403, 403, 403, 200)),
    ("post", "/api/tokens/{lurker}/art/", "IMAGE", (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/tokens/{tenrec_token}/art/", None, (401, 404, 403, 200, 403, 200)),
    ("delete", "/api/tokens/{lurker}/art/", None, (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/scenes/{scene}/background/", None, (401, 404, 403, 403, 403, 200)),
    ("post", "/api/scenes/{scene}/activate/", None, (401, 404, 403, 403, 403, 200)),
    ("post", "/api/scenes/{spare_scene}/activate/", None, (401, 404, 404, 404, 404, 200)),
    # Fog of war: the table's scene has none (204), and its one wall is no door.
    ("get", "/api/scenes/{scene}/vision/", None, (401, 404, 204, 204, 204, 204)),
    ("post", "/api/scenes/{scene}/fog/", {"action": "reset"}, (401, 404, 403, 403, 403, 200)),
    (
        "patch",
        "/api/scenes/{scene}/doors/{wall}/",
        {"state": "open"},
        (401, 404, 403, 403, 403, 400),
    ),
    # Wall edits: the GM's alone (the table's one wall is [0, 5, 10, 5]).
    (
        "post",
        "/api/scenes/{scene}/walls/",
        {"wall": [1, 1, 2, 1]},
        (401, 404, 403, 403, 403, 201),
    ),
    (
        "patch",
        "/api/scenes/{scene}/walls/{wall}/",
        {"was": [0, 5, 10, 5], "wall": [0, 5, 9, 5]},
        (401, 404, 403, 403, 403, 200),
    ),
    (
        "delete",
        "/api/scenes/{scene}/walls/{wall}/",
        {"was": [0, 5, 10, 5]},
        (401, 404, 403, 403, 403, 200),
    ),
    # Lights: the GM's; a token's owner turns the light it carries on and off.
    (
        "post",
        "/api/scenes/{scene}/lights/",
        {"x": 2, "y": 2, "bright": 1, "dim": 3},
        (401, 404, 403, 403, 403, 201),
    ),
    (
        "post",
        "/api/scenes/{spare_scene}/lights/",
        {"x": 2, "y": 2, "dim": 3},
        (401, 404, 404, 404, 404, 201),
    ),
    ("patch", "/api/lights/{light}/", {"on": False}, (401, 404, 403, 403, 403, 200)),
    ("patch", "/api/lights/{tenrec_light}/", {"on": False}, (401, 404, 403, 200, 403, 200)),
    ("patch", "/api/lights/{tenrec_light}/", {"dim": 9}, (401, 404, 403, 403, 403, 200)),
    ("delete", "/api/lights/{light}/", None, (401, 404, 403, 403, 403, 204)),
    # Drawings: a member draws on the shared layer, moves and removes their
    # own; the GM layer is the GM's, unknown to the others.
    ("get", "/api/scenes/{scene}/drawings/", None, (401, 404, 200, 200, 200, 200)),
    ("get", "/api/scenes/{spare_scene}/drawings/", None, (401, 404, 404, 404, 404, 200)),
    ("post", "/api/scenes/{scene}/drawings/", DRAWN, (401, 404, 403, 201, 201, 201)),
    (
        "post",
        "/api/scenes/{scene}/drawings/",
        {**DRAWN, "layer": "gm"},
        (401, 404, 403, 403, 403, 201),
    ),
    ("patch", "/api/drawings/{drawing}/", {"dx": 1, "dy": 0}, (401, 404, 403, 200, 403, 200)),
    ("delete", "/api/drawings/{drawing}/", None, (401, 404, 403, 204, 403, 204)),
    ("delete", "/api/drawings/{gm_drawing}/", None, (401, 404, 404, 404, 404, 204)),
    ("get", "/api/scenes/{scene}/tokens/", None, (401, 404, 200, 200, 200, 200)),
    ("get", "/api/scenes/{spare_scene}/tokens/", None, (401, 404, 404, 404, 404, 200)),
    ("post", "/api/scenes/{scene}/tokens/", {"name": "Rat"}, (401, 404, 403, 403, 403, 201)),
    ("get", "/api/tokens/{tenrec_token}/", None, (401, 404, 200, 200, 200, 200)),
    ("get", "/api/tokens/{lurker}/", None, (401, 404, 404, 404, 404, 200)),
    ("patch", "/api/tokens/{tenrec_token}/", {"name": "T"}, (401, 404, 403, 403, 403, 200)),
    ("patch", "/api/tokens/{lurker}/", {"name": "L"}, (401, 404, 404, 404, 404, 200)),
    ("delete", "/api/tokens/{zombie_token}/", None, (401, 404, 403, 403, 403, 204)),
    ("delete", "/api/tokens/{lurker}/", None, (401, 404, 404, 404, 404, 204)),
    # Tenrec's token is controlled by `player`; nobody but the GM controls the zombie.
    (
        "post",
        "/api/tokens/{tenrec_token}/move/",
        {"x": 4, "y": 4},
        (401, 404, 403, 200, 403, 200),
    ),
    (
        "post",
        "/api/tokens/{zombie_token}/move/",
        {"x": 5, "y": 5},
        (401, 404, 403, 403, 403, 200),
    ),
    ("post", "/api/tokens/{lurker}/move/", {"x": 5, "y": 5}, (401, 404, 404, 404, 404, 200)),
    (
        "post",
        "/api/tokens/{tenrec_token}/hidden/",
        {"hidden": True},
        (401, 404, 403, 403, 403, 200),
    ),
    ("post", "/api/tokens/{lurker}/hidden/", {"hidden": False}, (401, 404, 404, 404, 404, 200)),
    ("get", "/api/campaigns/{campaign}/rolls/", None, (401, 404, 200, 200, 200, 200)),
    (
        "post",
        "/api/campaigns/{campaign}/rolls/",
        {"request": CHECK},
        (401, 404, 403, 201, 201, 201),
    ),
    (
        "post",
        "/api/campaigns/{campaign}/rolls/",
        {"request": CHECK, "character_id": "{tenrec}"},
        (401, 404, 403, 201, 403, 201),
    ),
    ("get", "/api/rolls/{public_roll}/", None, (401, 404, 200, 200, 200, 200)),
    # A GM-only roll is the GM's alone, even for the player who made it.
    ("get", "/api/rolls/{gm_roll}/", None, (401, 404, 404, 404, 404, 200)),
    # A blind roll's roller sees that it was made.
    ("get", "/api/rolls/{blind_roll}/", None, (401, 404, 404, 200, 404, 200)),
    # The table's first roll opened session 1; a GM starting another while it
    # is open is refused (400), anyone else may not (403).
    ("get", "/api/campaigns/{campaign}/sessions/", None, (401, 404, 200, 200, 200, 200)),
    ("post", "/api/campaigns/{campaign}/sessions/", None, (401, 404, 403, 403, 403, 400)),
    ("post", "/api/campaigns/{campaign}/sessions/end/", None, (401, 404, 403, 403, 403, 200)),
    ("get", "/api/campaigns/{campaign}/sessions/{session}/", None, (401, 404, 200, 200, 200, 200)),
    (
        "get",
        "/api/campaigns/{campaign}/sessions/{no_session}/",
        None,
        (401, 404, 404, 404, 404, 404),
    ),
    (
        "get",
        "/api/campaigns/{campaign}/sessions/{session}/replay/",
        None,
        (401, 404, 200, 200, 200, 200),
    ),
    # Another member's view of the replay is the GM's to ask for.
    (
        "get",
        "/api/campaigns/{campaign}/sessions/{session}/replay/?as={player}",
        None,
        (401, 404, 403, 200, 403, 200),
    ),
    (
        "get",
        "/api/campaigns/{campaign}/sessions/{session}/journal/",
        None,
        (401, 404, 200, 200, 200, 200),
    ),
    (
        "get",
        "/api/campaigns/{campaign}/sessions/{no_session}/journal/",
        None,
        (401, 404, 404, 404, 404, 404),
    ),
    ("get", "/api/campaigns/{campaign}/dice-stats/", None, (401, 404, 200, 200, 200, 200)),
    # Handouts: the GM makes and shares them; a member reads those shared with them.
    ("get", "/api/campaigns/{campaign}/handouts/", None, (401, 404, 200, 200, 200, 200)),
    ("post", "/api/campaigns/{campaign}/handouts/", "HANDOUT", (401, 404, 403, 403, 403, 201)),
    ("get", "/api/handouts/{letter}/", None, (401, 404, 404, 200, 404, 200)),
    ("get", "/api/handouts/{sealed}/", None, (401, 404, 404, 404, 404, 200)),
    (
        "post",
        "/api/handouts/{letter}/share/",
        {"everyone": True},
        (401, 404, 404, 403, 404, 200),
    ),
    # Status markers: a player marks a token they control with a condition;
    # free and secret markers are the GM's; a hidden token is bad input.
    ("get", "/api/campaigns/{campaign}/markers/", None, (401, 404, 200, 200, 200, 200)),
    (
        "post",
        "/api/campaigns/{campaign}/markers/",
        {"token": "{tenrec_token}", "condition_id": "prone"},
        (401, 404, 403, 201, 403, 201),
    ),
    (
        "post",
        "/api/campaigns/{campaign}/markers/",
        {"token": "{tenrec_token}", "icon": "star", "label": "Brave"},
        (401, 404, 403, 403, 403, 201),
    ),
    (
        "post",
        "/api/campaigns/{campaign}/markers/",
        {"token": "{lurker}", "condition_id": "prone"},
        (401, 404, 400, 400, 400, 201),
    ),
    ("delete", "/api/markers/{marker}/", None, (401, 404, 403, 204, 403, 204)),
    ("delete", "/api/markers/{secret_marker}/", None, (401, 404, 404, 404, 404, 204)),
    ("get", "/api/schema/", None, (200, 200, 200, 200, 200, 200)),
    ("get", "/api/docs/", None, (200, 200, 200, 200, 200, 200)),
]

CASES = [
    (role, method, url, body, statuses[i])
    for method, url, body, statuses in ENDPOINTS
    for i, role in enumerate(ROLES)
]


def lights(table) -> dict:
    """A light on the table's map and a torch Tenrec's token carries (made
    once per test)."""
    from vtt.tabletop.models import Light

    lamp, _ = Light.objects.get_or_create(
        scene=table.scene, token=None, defaults={"x": 1, "y": 1, "dim": 2}
    )
    torch, _ = Light.objects.get_or_create(
        scene=table.scene, token=table.tenrec_token, defaults={"x": 0, "y": 0, "dim": 4}
    )
    return {"light": lamp.pk, "tenrec_light": torch.pk}


def drawings(table) -> dict:
    """The player's pen stroke and a GM-layer note on the table's map."""
    from vtt.drawings.models import Drawing

    mine, _ = Drawing.objects.get_or_create(
        scene=table.scene,
        by=table.player,
        layer="shared",
        defaults={"shape": "pen", "color": "#00ff00", "width": 1, "points": [[1, 1], [2, 2]]},
    )
    secret, _ = Drawing.objects.get_or_create(
        scene=table.scene,
        by=table.gm,
        layer="gm",
        defaults={"shape": "rect", "color": "#0000ff", "width": 1, "points": [[3, 3], [4, 4]]},
    )
    return {"drawing": mine.pk, "gm_drawing": secret.pk}


def fill(template, table):
    names = {
        **lights(table),
        **drawings(table),
        "campaign": table.campaign.pk,
        "observer": table.observer.pk,
        "player": table.player.pk,
        "other": table.other.pk,
        "invite": table.invite.pk,
        "invite_code": table.invite.code,
        "tenrec": table.tenrec.pk,
        "kobor": table.kobor.pk,
        "zombie": table.zombie.pk,
        "scene": table.scene.pk,
        "wall": 0,
        "spare_scene": table.spare_scene.pk,
        "tenrec_token": table.tenrec_token.pk,
        "zombie_token": table.zombie_token.pk,
        "lurker": table.lurker.pk,
        "public_roll": table.public_roll.pk,
        "gm_roll": table.gm_roll.pk,
        "blind_roll": table.blind_roll.pk,
        "letter": table.letter.pk,
        "sealed": table.sealed.pk,
        "session": 1,
        "no_session": 9,
        "marker": table.marker.pk,
        "secret_marker": table.secret_marker.pk,
    }
    if isinstance(template, str):
        if template.startswith("{") and template.endswith("}") and template.count("{") == 1:
            value = names[template[1:-1]]
            return value if template[1:-1] != "invite_code" else str(value)
        return template.format(**names)
    if isinstance(template, dict):
        return {key: fill(value, table) for key, value in template.items()}
    return template


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.mark.parametrize(
    ("role", "method", "url", "body", "expected"),
    CASES,
    ids=[f"{role}-{method}-{url}-{i}" for i, (role, method, url, _, _) in enumerate(CASES)],
)
def test_permission(client_for, table, media, role, method, url, body, expected):
    client = client_for(role)
    url = fill(url, table)
    if body == "IMAGE":
        image = SimpleUploadedFile("map.png", image_bytes(), content_type="image/png")
        response = getattr(client, method)(url, {"image": image}, format="multipart")
    elif body == "HANDOUT":
        data = {"title": "A map of the mill", "text": "Here."}
        response = getattr(client, method)(url, data, format="multipart")
    elif body in ("MAP", "MAP_COUNTED"):
        data = {"file": SimpleUploadedFile("cellar.dd2vtt", encode(dungeon()))}
        if body == "MAP_COUNTED":
            data["dry_run"] = "true"
        response = getattr(client, method)(url, data, format="multipart")
    elif body is None:
        response = getattr(client, method)(url)
    else:
        response = getattr(client, method)(url, fill(body, table), format="json")
    assert response.status_code == expected, response.content[:300]
    if expected >= 400:
        assert response.json()["error"]["code"]


def test_every_route_is_in_the_matrix():
    """A new endpoint must join the matrix."""
    rules_only = {"api/adjudicate/", "api/odds/"}
    [api] = [p for p in get_resolver().url_patterns if str(p.pattern) == "api/"]
    routes = {
        "api/" + str(p.pattern).replace("<int:", "{").replace(">", "}") for p in api.url_patterns
    } - rules_only
    covered = {url.lstrip("/").split("?")[0] for _, url, _, _ in ENDPOINTS}

    def shape(route):
        return re.sub(r"\{[a-z_]+\}", "{}", route)

    assert {shape(r) for r in routes} == {shape(c) for c in covered}
