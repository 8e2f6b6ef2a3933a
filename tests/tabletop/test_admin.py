"""The admin site saves through the services: versions bump, events are
appended, sheets and bounds are checked, the last GM stays."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from vtt.tabletop.models import Campaign, Character, Membership, Roll, RoomEvent, Scene, Token

from .helpers import kinds_after, last_seq
from .images import image_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(db):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", None)
    client = Client()
    client.force_login(admin)
    return client


def token_form(token, **changes):
    data = {
        "character": token.character_id or "",
        "name": token.name,
        "x": token.x,
        "y": token.y,
        "size": token.size,
        "color": token.color,
        "controllers": [u.pk for u in token.controllers.all()],
    }
    if token.hidden:
        data["hidden"] = "on"
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "model",
    ["campaign", "membership", "invite", "character", "scene", "token", "roll", "roomevent"],
)
def test_every_model_has_its_pages(site, table, model):
    assert site.get(f"/admin/tabletop/{model}/").status_code == 200
    add = site.get(f"/admin/tabletop/{model}/add/")
    assert add.status_code == (403 if model in ("roll", "roomevent") else 200)


def test_a_token_moved_in_the_admin_bumps_its_version_and_tells_the_room(site, table):
    seq = last_seq(table.campaign)
    token = table.tenrec_token
    response = site.post(f"/admin/tabletop/token/{token.pk}/change/", token_form(token, x=6, y=7))
    assert response.status_code == 302
    token.refresh_from_db()
    assert (token.x, token.y, token.version) == (6, 7, 2)
    assert kinds_after(table.campaign, seq) == ["token.moved"]


def test_a_token_off_the_map_is_refused_on_the_form(site, table):
    token = table.tenrec_token
    response = site.post(f"/admin/tabletop/token/{token.pk}/change/", token_form(token, x=40))
    assert response.status_code == 200
    assert "must stay on the 20x15 map" in response.content.decode()
    token.refresh_from_db()
    assert (token.x, token.version) == (2, 1)


def test_hide_and_resize_in_one_save(site, table):
    seq = last_seq(table.campaign)
    token = table.zombie_token
    site.post(f"/admin/tabletop/token/{token.pk}/change/", token_form(token, size=2, hidden="on"))
    token.refresh_from_db()
    assert (token.size, token.hidden, token.version) == (2, True, 3)
    assert kinds_after(table.campaign, seq) == ["token.updated", "token.hidden"]


def test_a_bad_sheet_is_refused_on_the_form(site, table):
    character = table.tenrec
    response = site.post(
        f"/admin/tabletop/character/{character.pk}/change/",
        {
            "owner": table.player.pk,
            "name": "Tenrec",
            "kind": "pc",
            "sheet": '{"abilities": {"Might": {"dice": 9, "kind": "class"}}}',
            "weapons": "[]",
            "resources": "{}",
            "gm_notes": "",
        },
    )
    assert response.status_code == 200
    assert "a class ability is 1D to 6D, not 9D" in response.content.decode()
    character.refresh_from_db()
    assert character.sheet["abilities"]["Might"]["dice"] == 2


def test_add_a_campaign_with_its_gm(site, table):
    response = site.post(
        "/admin/tabletop/campaign/add/",
        {"name": "Ashes", "game": "xerosum", "settings": "{}", "gm": table.other.pk},
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Ashes")
    assert campaign.settings["starting_insight_dice"] == 2
    assert Membership.objects.get(campaign=campaign).user == table.other


def test_the_last_gm_cannot_be_deleted(site, table):
    member = Membership.objects.get(campaign=table.campaign, user=table.gm)
    page = site.get(f"/admin/tabletop/membership/{member.pk}/delete/")
    assert "the last GM of The Tomb" in page.content.decode()
    site.post(f"/admin/tabletop/membership/{member.pk}/delete/", {"post": "yes"})
    assert Membership.objects.filter(pk=member.pk).exists()


def test_a_non_image_background_is_refused(site, table, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    scene = table.scene
    response = site.post(
        f"/admin/tabletop/scene/{scene.pk}/change/",
        {
            "name": scene.name,
            "width": scene.width,
            "height": scene.height,
            "walls": "[[0, 5, 10, 5]]",
            "background": SimpleUploadedFile("map.png", b"not an image at all"),
        },
    )
    assert response.status_code == 200
    scene.refresh_from_db()
    assert not scene.background
    ok = site.post(
        f"/admin/tabletop/scene/{scene.pk}/change/",
        {
            "name": scene.name,
            "width": scene.width,
            "height": scene.height,
            "walls": "[[0, 5, 10, 5]]",
            "background": SimpleUploadedFile("map.png", image_bytes()),
        },
    )
    assert ok.status_code == 302
    assert Scene.objects.get(pk=scene.pk).background.name.endswith(".png")


def test_the_record_is_read_only(site, table):
    event = RoomEvent.objects.filter(campaign=table.campaign).first()
    assert (
        site.post(f"/admin/tabletop/roomevent/{event.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert RoomEvent.objects.filter(pk=event.pk).exists()
    assert Roll.objects.count() == 0
    assert Character.objects.filter(pk=table.zombie.pk).exists()
    assert Token.objects.count() == 4
