"""Universal VTT import over REST: POST a map file (multipart field
`file`) to /api/campaigns/<id>/scenes/import/ for a new scene, or to
/api/scenes/<id>/import/ for a scene's map; `dry_run` counts, `replace`
confirms. Bad files are a 400 on `file` that stores nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tabletop.uvtt_files import changed, dungeon, encode
from vtt.tabletop import services
from vtt.tabletop.models import Light, Scene

from .test_hostile_input import database_state


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def send(client, url, data: bytes, **fields):
    body = {"file": SimpleUploadedFile("cellar.dd2vtt", data), **fields}
    return client.post(url, body, format="multipart")


def files(media):
    return sorted(p for p in media.rglob("*") if p.is_file())


def test_a_map_file_becomes_a_scene_with_its_lights(client_for, table, media):
    gm = client_for("gm")
    url = f"/api/campaigns/{table.campaign.pk}/scenes/import/"
    response = send(gm, url, encode(dungeon()), name="Cellar", simplify="0")
    assert response.status_code == 201, response.content
    body = response.json()
    scene = body["scene"]
    assert (scene["name"], scene["width"], scene["height"]) == ("Cellar", 12, 10)
    assert (scene["lighting"], scene["lit"], scene["baked_lighting"]) == ("dim", False, True)
    assert scene["background"].startswith("/media/scenes/")
    assert len(scene["walls"]) == 14
    assert [(a["x"], a["y"], a["bright"], a["dim"], a["color"]) for a in scene["lights"]] == [
        (2, 2, 2, 4, "#ffaa55"),
        (9, 7, 3, 6, "#3366ff"),
        (11, 1, 1, 2, "#ff0000"),
    ]
    assert body["plan"]["segments"] == 183 and body["plan"]["simplify"] == 0
    # The scene's own read lists its lights to the GM.
    read = gm.get(f"/api/scenes/{scene['id']}/").json()
    assert [a["id"] for a in read["lights"]] == [a["id"] for a in scene["lights"]]


def test_a_dry_run_counts_and_stores_nothing(client_for, table, media):
    before = database_state()
    url = f"/api/campaigns/{table.campaign.pk}/scenes/import/"
    response = send(client_for("gm"), url, encode(dungeon()), dry_run="true")
    assert response.status_code == 200, response.content
    assert response.json()["scene"] is None
    plan = response.json()["plan"]
    assert (plan["walls"], plan["doors"], plan["lights"], plan["replaces"]) == (12, 2, 3, None)
    assert (database_state(), files(media)) == (before, [])


def test_a_reimport_asks_for_replace_and_keeps_the_tokens(client_for, table, media):
    gm = client_for("gm")
    services.scene_update(scene_id=table.spare_scene.pk, by=table.gm, walls=[[0, 0, 1, 0]])
    services.token_create(scene_id=table.spare_scene.pk, by=table.gm, name="Rat", x=3, y=3)
    url = f"/api/scenes/{table.spare_scene.pk}/import/"
    counted = send(gm, url, encode(dungeon()), dry_run="true").json()["plan"]
    assert counted["replaces"] == {"walls": 1, "doors": 0, "lights": 0}
    refused = send(gm, url, encode(dungeon()))
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "confirm"
    assert list(refused.json()["fields"]) == ["replace"]
    assert Scene.objects.get(pk=table.spare_scene.pk).walls == [[0, 0, 1, 0]]
    done = send(gm, url, encode(dungeon()), replace="true")
    assert done.status_code == 200, done.content
    assert len(done.json()["scene"]["walls"]) == 14
    assert [t.name for t in Scene.objects.get(pk=table.spare_scene.pk).tokens.all()] == ["Rat"]


@pytest.mark.parametrize(
    "data, said",
    [
        (b"not json at all", "not JSON"),
        (encode(changed(["image"], None)), "carries no image"),
        (encode(changed(["image"], "aGVsbG8=")), "image: the file is not an image"),
        (encode(changed(["line_of_sight", 0], [{"x": 1, "y": 1}])), "a wall needs at least two"),
        (encode(dungeon()).replace(b'"range": 4', b'"range": NaN'), "NaN, which is not a number"),
        (encode(changed(["lights", 0, "position", "y"], 1e9)), "is outside the map"),
    ],
)
def test_a_bad_file_is_a_400_on_file_that_stores_nothing(client_for, table, media, data, said):
    before = database_state()
    url = f"/api/campaigns/{table.campaign.pk}/scenes/import/"
    response = send(client_for("gm"), url, data)
    assert response.status_code == 400, response.content
    assert list(response.json()["fields"]) == ["file"]
    assert said in response.json()["fields"]["file"][0]
    assert (database_state(), files(media)) == (before, [])


def test_a_body_past_the_file_limit_is_refused_unread(client_for, table, settings):
    settings.MAP_IMPORT_MAX_BYTES = 1024
    url = f"/api/campaigns/{table.campaign.pk}/scenes/import/"
    data = encode(dungeon())
    response = send(client_for("gm"), url, data)
    assert response.status_code == 400
    assert response.json()["fields"]["file"] == [
        f"the file is {len(data) / 1024 / 1024:g} MB; a map file may be at most "
        "0.000976562 MB (MAP_IMPORT_MAX_BYTES)"
    ]
    # Past the limit and the form's envelope, the body is not read at all.
    response = send(client_for("gm"), url, b" " * 100_000)
    assert response.json()["fields"]["file"] == [
        "a map file may be at most 0.000976562 MB (MAP_IMPORT_MAX_BYTES)"
    ]


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"simplify": "9"}, "simplify"),
        ({"simplify": "lots"}, "simplify"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_fields_are_a_400_on_the_field(client_for, table, fields, field):
    url = f"/api/campaigns/{table.campaign.pk}/scenes/import/"
    response = send(client_for("gm"), url, encode(dungeon()), **fields)
    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_players_see_lights_only_on_a_scene_without_fog(client_for, table):
    Light.objects.create(scene=table.scene, x=1, y=1, bright=1, dim=2)
    player = client_for("player")
    assert len(player.get(f"/api/scenes/{table.scene.pk}/").json()["lights"]) == 1
    services.scene_update(scene_id=table.scene.pk, by=table.gm, fog=True)
    assert "lights" not in player.get(f"/api/scenes/{table.scene.pk}/").json()
    listed = player.get(f"/api/campaigns/{table.campaign.pk}/scenes/").json()["results"]
    assert all("lights" not in scene for scene in listed)
    assert len(client_for("gm").get(f"/api/scenes/{table.scene.pk}/").json()["lights"]) == 1
