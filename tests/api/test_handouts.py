"""/api/campaigns/<id>/handouts/, /api/handouts/<id>/ and .../share/: the
GM makes a handout (multipart: title, Markdown text, picture) and shares
it; members read those shared with them; bad input is a 400 on its field
with nothing stored."""

import pytest

from tests.tabletop.images import image_bytes, png_header_claiming
from tests.tabletop.table import make_table
from vtt.tabletop.models import Handout, HandoutShare, RoomEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    """The small table without the API suite's handouts: these tests count them."""
    return make_table()


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def files(media) -> list:
    return [p for p in media.rglob("*") if p.is_file()]


def make(client, table, **fields):
    return client.post(
        f"/api/campaigns/{table.campaign.pk}/handouts/",
        {"title": "A letter", **fields},
        format="multipart",
    )


def picture(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("letter.png", data, content_type="image/png")


def test_the_gm_makes_shares_and_the_player_reads(client_for, table, media):
    gm = client_for("gm")
    made = make(gm, table, text="Come **alone**.", image=picture(image_bytes(30, 20)))
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["html"] == "<p>Come <strong>alone</strong>.</p>\n"
    assert body["text"] == "Come **alone**." and body["shared_with"] == []
    assert body["image"].startswith("/media/handouts/")
    hid = body["id"]
    player = client_for("player")
    assert player.get(f"/api/handouts/{hid}/").status_code == 404  # not yet theirs
    assert player.get(f"/api/campaigns/{table.campaign.pk}/handouts/").json()["results"] == []

    shared = gm.post(f"/api/handouts/{hid}/share/", {"members": [table.player.pk]}, format="json")
    assert shared.status_code == 200 and shared.json()["shared_with"] == [table.player.pk]
    read = player.get(f"/api/handouts/{hid}/")
    assert read.status_code == 200
    assert read.json() == {
        "id": hid,
        "title": "A letter",
        "html": body["html"],
        "image": body["image"],
        "everyone": False,
    }
    assert client_for("other").get(f"/api/handouts/{hid}/").status_code == 404

    everyone = gm.post(f"/api/handouts/{hid}/share/", {"everyone": True}, format="json")
    assert everyone.json()["everyone"] is True
    assert client_for("other").get(f"/api/handouts/{hid}/").status_code == 200
    assert client_for("outsider").get(f"/api/handouts/{hid}/").status_code == 404


def test_script_and_javascript_links_are_neutralised(client_for, table, media):
    made = make(
        client_for("gm"),
        table,
        text="<script>alert(1)</script> [click](javascript:alert(1)) <b onclick=x>b</b>",
    )
    html = made.json()["html"]
    assert "<script" not in html and "<b" not in html and "href" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"a letter, but in words", "bad_image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "bad_image"),
        (png_header_claiming(100_000, 100_000), "image_too_large"),
        (image_bytes() + b"\0" * (50 * 1024 * 1024), "image_too_large"),
    ],
    ids=["text", "svg", "bomb", "50MB"],
)
def test_a_bad_picture_is_a_400_and_nothing_is_stored(client_for, table, media, data, code):
    answer = make(client_for("gm"), table, text="x", image=picture(data))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == (code, "image")
    assert answer.json()["fields"]["image"]
    assert not Handout.objects.exists() and files(media) == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"text": "x" * 20_001}, "text"),
        ({}, "text"),
        ({"text": "x", "colour": "red"}, "colour"),
    ],
)
def test_bad_fields_are_a_400_on_the_field(client_for, table, media, fields, field):
    answer = make(client_for("gm"), table, **fields)
    assert answer.status_code == 400
    assert field in answer.json()["fields"]
    assert not Handout.objects.exists()


def test_who_may_make_and_share(client_for, table, media):
    assert make(client_for("player"), table, text="x").status_code == 403
    assert make(client_for("observer"), table, text="x").status_code == 403
    assert make(client_for("outsider"), table, text="x").status_code == 404
    hid = make(client_for("gm"), table, text="x").json()["id"]
    gm = client_for("gm")
    url = f"/api/handouts/{hid}/share/"
    for body, field in (
        ({}, "members"),
        ({"members": [table.outsider.pk]}, "members"),
        ({"members": ["x"]}, "members"),
        ({"members": [1] * 101}, "members"),
        ({"everyone": "perhaps"}, "everyone"),
    ):
        answer = gm.post(url, body, format="json")
        assert answer.status_code == 400, body
        # A list's item is named by its place ("members.0").
        assert all(k.split(".")[0] == field for k in answer.json()["fields"]), body
    assert not HandoutShare.objects.exists()
    assert not RoomEvent.objects.filter(kind="handout.shared").exists()
    assert client_for("player").post(url, {"everyone": True}, format="json").status_code == 404
