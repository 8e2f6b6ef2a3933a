"""Portraits and token art over REST: multipart uploads to
/api/characters/<id>/portrait/ and /api/tokens/<id>/art/, a 400 on the
`image` field for anything that is not an acceptable picture, and the
URLs in the characters and tokens the API answers with."""

import pytest
from django.conf import settings as configured
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tests.tabletop.images import image_bytes, png_header_claiming
from vtt.pictures import images

from .test_hostile_input import database_state


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def send(client, url, data, name="picture.png", method="put"):
    image = SimpleUploadedFile(name, data, content_type="image/png")
    return getattr(client, method)(url, {"image": image}, format="multipart")


def files(media):
    return sorted(p for p in media.rglob("*") if p.is_file())


def test_a_player_gives_their_character_a_portrait_and_its_token_shows_it(client_for, table, media):
    player = client_for("player")
    response = send(player, f"/api/characters/{table.tenrec.pk}/portrait/", image_bytes(90, 60))
    assert response.status_code == 200, response.content
    portrait = response.json()["portrait"]
    assert set(portrait) == {"url", "thumb_128", "thumb_256"}
    for url in portrait.values():
        assert url.startswith("/media/portraits/") and url.endswith(".webp")
        assert default_storage.exists(url.removeprefix("/media/"))
    assert player.get(f"/api/characters/{table.tenrec.pk}/").json()["portrait"] == portrait
    token = player.get(f"/api/tokens/{table.tenrec_token.pk}/").json()
    assert (token["art"], token["art_from"]) == (portrait, "character")

    response = player.delete(f"/api/characters/{table.tenrec.pk}/portrait/")
    assert response.status_code == 200 and response.json()["portrait"] is None
    assert player.get(f"/api/tokens/{table.tenrec_token.pk}/").json()["art"] is None


def test_the_gm_gives_a_token_its_own_art_with_post(client_for, table):
    gm = client_for("gm")
    response = send(gm, f"/api/tokens/{table.zombie_token.pk}/art/", image_bytes(), method="post")
    assert response.status_code == 200, response.content
    token = response.json()
    assert token["art_from"] == "token" and token["art"]["url"].startswith("/media/tokens/")
    assert token["version"] == table.zombie_token.version + 1
    listed = gm.get(f"/api/scenes/{table.scene.pk}/tokens/").json()["results"]
    assert next(t for t in listed if t["id"] == table.zombie_token.pk)["art"] == token["art"]
    response = gm.delete(f"/api/tokens/{table.zombie_token.pk}/art/")
    assert response.status_code == 200
    assert (response.json()["art"], response.json()["art_from"]) == (None, None)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"just some text with a .png name", "bad_image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "bad_image"),
        (image_bytes(kind="BMP"), "bad_image"),
        (png_header_claiming(7000, 7000), "image_too_large"),
        (png_header_claiming(100_000, 100_000), "image_too_large"),
        (image_bytes() + b"\0" * (11 * 1024 * 1024), "image_too_large"),
    ],
    ids=["text", "svg", "bmp", "too-many-pixels", "bomb", "too-big"],
)
@pytest.mark.parametrize("target", ["portrait", "art"])
def test_bad_pictures_are_a_400_on_the_image_field(client_for, table, media, data, code, target):
    url = (
        f"/api/characters/{table.tenrec.pk}/portrait/"
        if target == "portrait"
        else f"/api/tokens/{table.tenrec_token.pk}/art/"
    )
    before = database_state()
    response = send(client_for("player"), url, data)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == (code, "image")
    assert response.json()["fields"]["image"]
    assert database_state() == before
    assert files(media) == []


@pytest.mark.parametrize("body", [{}, {"image": "not a file"}, {"image": "x", "other": "y"}])
def test_an_upload_without_a_file_is_a_400(client_for, table, body):
    response = client_for("gm").put(
        f"/api/tokens/{table.tenrec_token.pk}/art/", body, format="multipart"
    )
    assert response.status_code == 400
    assert response.json()["fields"]


def test_json_is_not_an_upload(client_for, table):
    response = client_for("gm").put(
        f"/api/characters/{table.tenrec.pk}/portrait/", {"image": 1}, format="json"
    )
    assert response.status_code == 415


# ------------------------------------------------------------------ every refusal names its limit


@pytest.mark.parametrize(
    ("target", "data", "message"),
    [
        (
            "portrait",
            png_header_claiming(20000, 20000),
            "at most 8192 px a side, not 20000 x 20000",
        ),
        ("background", png_header_claiming(20000, 20000), "at most 8192 px a side"),
        ("art", png_header_claiming(8193, 10), "a token art must be at most 8192 px a side"),
        (
            "portrait",
            png_header_claiming(5000, 5000),
            "a portrait must have at most 12,000,000 pixels",
        ),
        (
            "background",
            png_header_claiming(5000, 4000),
            "at most 16,000,000 pixels, not 20,000,000",
        ),
        (
            "background",
            image_bytes(2000, 2000, "WEBP"),
            "a WebP background must have at most 3,200,000",
        ),
        (
            "portrait",
            image_bytes(2000, 2000, "WEBP"),
            "a WebP portrait must have at most 2,400,000",
        ),
        ("art", image_bytes() + b"\0" * (11 * 1024 * 1024), "the image must be at most 10 MB"),
        ("background", image_bytes(kind="BMP"), "it must be a PNG, JPEG, GIF or WebP"),
    ],
    ids=[
        "side",
        "background-side",
        "art-side",
        "pixels",
        "background-pixels",
        "webp-background",
        "webp-portrait",
        "bytes",
        "kind",
    ],
)
def test_every_refusal_names_the_limit_passed(client_for, table, media, target, data, message):
    url = {
        "portrait": f"/api/characters/{table.tenrec.pk}/portrait/",
        "art": f"/api/tokens/{table.tenrec_token.pk}/art/",
        "background": f"/api/scenes/{table.scene.pk}/background/",
    }[target]
    response = send(client_for("gm"), url, data)
    assert response.status_code == 400
    assert message in response.json()["error"]["message"]
    assert message in response.json()["fields"]["image"][0]
    assert files(media) == []


def test_the_limits_are_the_settings(client_for, table, media, settings):
    settings.PORTRAIT_MAX_SIDE = 100
    settings.IMAGE_MAX_BYTES = 512 * 1024
    url = f"/api/characters/{table.tenrec.pk}/portrait/"
    response = send(client_for("player"), url, image_bytes(101, 20))
    assert "a portrait must be at most 100 px a side" in response.json()["error"]["message"]
    response = send(client_for("player"), url, image_bytes() + b"\0" * (600 * 1024))
    assert response.json()["error"]["message"] == "the image must be at most 0.5 MB"
    # Token art keeps its own.
    response = send(
        client_for("gm"), f"/api/tokens/{table.tenrec_token.pk}/art/", image_bytes(101, 20)
    )
    assert response.status_code == 200, response.content


def test_pillow_refuses_past_the_largest_limit_everywhere():
    assert Image.MAX_IMAGE_PIXELS == max(
        configured.BACKGROUND_MAX_PIXELS,
        configured.PORTRAIT_MAX_PIXELS,
        configured.TOKEN_ART_MAX_PIXELS,
    )


def test_a_big_photo_is_decoded_small_and_kept_at_the_size_shown(client_for, table, media):
    response = send(
        client_for("player"),
        f"/api/characters/{table.tenrec.pk}/portrait/",
        image_bytes(6000, 4000, "JPEG"),
        name="photo.jpg",
    )
    assert response.status_code == 200, response.content
    stored = response.json()["portrait"]["url"].removeprefix("/media/")
    with Image.open(default_storage.open(stored)) as image:
        assert image.size == (1024, 683)


def test_a_busy_worker_says_when_to_come_back(client_for, table, media, settings, monkeypatch):
    settings.IMAGE_WORK_AT_ONCE = 1
    monkeypatch.setattr(images, "WAIT_SECONDS", 0.2)
    before = database_state()
    with images.image_work():  # another upload holds the process's one slot
        response = send(
            client_for("player"), f"/api/characters/{table.tenrec.pk}/portrait/", image_bytes()
        )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("busy", "image")
    assert (
        "at most 1 at a time" in error["message"] and "try again in 5 seconds" in error["message"]
    )
    assert database_state() == before and files(media) == []
    # The slot given back, the same upload goes through.
    response = send(
        client_for("player"), f"/api/characters/{table.tenrec.pk}/portrait/", image_bytes()
    )
    assert response.status_code == 200
