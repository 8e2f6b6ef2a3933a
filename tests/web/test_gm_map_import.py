"""Universal VTT import on the GM console: upload, the count shown before
anything is saved, counting again at another tolerance, the confirmation a
re-import needs, and a bad file refused on the upload's field."""

import base64
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tests.api.test_hostile_input import database_state
from tests.tabletop.uvtt_files import changed, dungeon, encode, picture
from vtt.maps.importing import SKETCH_SIDE
from vtt.tabletop import services
from vtt.tabletop.models import Light, Scene

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def upload(client, url, data=None, **fields):
    body = {
        "file": SimpleUploadedFile("Cellar.dd2vtt", data or encode(dungeon())),
        "simplify": "0.05",
    }
    return client.post(url, {**body, **fields})


def test_a_map_file_is_counted_then_imported_as_a_new_scene(campaign, as_user):
    gm = as_user("gm")
    console = gm.get(f"/campaigns/{campaign.pk}/gm/").content.decode()
    assert "New scene from a map file" in console
    before = database_state()
    counted = upload(gm, f"/campaigns/{campaign.pk}/gm/maps/")
    page = counted.content.decode()
    assert counted.status_code == 200
    assert '<strong id="plan-walls">12</strong> walls, from 183 segments' in page
    assert "Cellar: 12 × 10 squares" in page and "plan-replaces" not in page
    assert database_state() == before  # nothing saved yet
    again = gm.post(
        f"/campaigns/{campaign.pk}/gm/maps/confirm/", {"simplify": "0", "action": "count"}
    )
    assert "simplified at 0.0 squares" in again.content.decode()
    done = gm.post(
        f"/campaigns/{campaign.pk}/gm/maps/confirm/", {"simplify": "0.05", "action": "import"}
    )
    scene = Scene.objects.get(campaign=campaign, name="Cellar")
    assert done.status_code == 302 and done.url == f"/campaigns/{campaign.pk}/gm/scenes/{scene.pk}/"
    assert (len(scene.walls), Light.objects.filter(scene=scene).count()) == (14, 3)
    # The staged file went with the import: confirming again finds nothing.
    again = gm.post(f"/campaigns/{campaign.pk}/gm/maps/confirm/", {"simplify": "0.05"})
    assert again.status_code == 302 and Scene.objects.filter(name="Cellar").count() == 1


def test_the_count_comes_with_a_sketch_of_the_map(campaign, as_user):
    """The picture, small, inline (it is stored nowhere yet), with the
    walls, doors and lights drawn over it where the scene would have them."""
    gm = as_user("gm")
    doc = changed(["image"], base64.b64encode(picture(240, 200, 8)).decode())
    doc["resolution"]["pixels_per_grid"] = 8 * 20
    page = upload(gm, f"/campaigns/{campaign.pk}/gm/maps/", encode(doc)).content.decode()
    assert page.count('class="sketch-wall"') == 12
    assert page.count('class="sketch-door"') == 1 and page.count('class="sketch-door open"') == 1
    assert page.count('class="sketch-light"') == 3
    assert '<circle class="sketch-light" cx="2.0" cy="2.0" r="0.25" fill="#ffaa55"/>' in page
    assert '<line class="sketch-door" x1="6" y1="4" x2="6" y2="5"/>' in page
    found = re.search(r'href="data:image/webp;base64,([A-Za-z0-9+/=]+)"', page)
    small = Image.open(io.BytesIO(base64.b64decode(found.group(1))))
    # 1,920 x 1,600 px in the file: at most SKETCH_SIDE a side, its shape kept.
    assert (small.format, small.size) == ("WEBP", (SKETCH_SIDE, SKETCH_SIDE * 10 // 12))
    again = gm.post(
        f"/campaigns/{campaign.pk}/gm/maps/confirm/", {"simplify": "0", "action": "count"}
    ).content.decode()
    assert 'id="plan-sketch"' in again and again.count('class="sketch-light"') == 3


def test_a_reimport_shows_what_it_replaces_and_needs_the_box(campaign, users, as_user):
    gm = as_user("gm")
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=users["gm"],
        name="Crypt",
        width=12,
        height=10,
        walls=[[0, 0, 1, 0, "door"]],
    )
    services.token_create(scene_id=scene.pk, by=users["gm"], name="Rat", x=1, y=1)
    base = f"/campaigns/{campaign.pk}/gm/scenes/{scene.pk}/"
    assert "Import a map" in gm.get(base).content.decode()
    counted = upload(gm, base + "map/").content.decode()
    assert "This replaces the scene's 0 walls, 1 doors and 0 lights" in counted
    refused = gm.post(base + "map/confirm/", {"simplify": "0.05", "action": "import"})
    assert refused.status_code == 400
    assert "confirm to go on" in refused.content.decode()
    assert 'id="plan-sketch"' in refused.content.decode()  # shown again to look at
    assert Scene.objects.get(pk=scene.pk).walls == [[0, 0, 1, 0, "door"]]
    done = gm.post(base + "map/confirm/", {"simplify": "0.05", "replace": "on", "action": "import"})
    assert done.status_code == 302
    scene.refresh_from_db()
    assert (scene.name, len(scene.walls), [t.name for t in scene.tokens.all()]) == (
        "Crypt",
        14,
        ["Rat"],
    )


@pytest.mark.parametrize(
    "data, said",
    [
        (b"<svg>not a map</svg>", "not JSON"),
        (encode(changed(["image"], "aGVsbG8=")), "image: the file is not an image we can read"),
        (encode(changed(["lights", 0, "range"], "far")), "lights[0].range must be a number"),
    ],
)
def test_a_bad_file_is_refused_on_the_upload_and_nothing_is_kept(
    campaign, as_user, media, data, said
):
    gm = as_user("gm")
    before = database_state()
    refused = upload(gm, f"/campaigns/{campaign.pk}/gm/maps/", data)
    assert refused.status_code == 400
    assert said in refused.content.decode()
    assert database_state() == before
    assert not list(media.rglob("*.uvtt"))


def test_players_have_no_map_import(campaign, as_user):
    player = as_user("player")
    assert upload(player, f"/campaigns/{campaign.pk}/gm/maps/").status_code == 404
    confirm = f"/campaigns/{campaign.pk}/gm/maps/confirm/"
    assert player.post(confirm, {"simplify": "0.05", "action": "count"}).status_code == 404
