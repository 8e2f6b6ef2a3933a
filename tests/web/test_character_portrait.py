"""The portrait on the character page: uploaded with the sheet, shown as
its tokens show it, refused on its own field when it is no picture (and
then nothing of the form is saved), and removed with a tick."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tabletop.images import image_bytes
from vtt.tabletop import services
from vtt.tabletop.models import Character

from .test_characters import form_data, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def tenrec(campaign, users):
    return services.character_create(
        campaign_id=campaign.pk, by=users["gm"], name="Tenrec", owner_id=users["player"].pk
    )


def picture(data, name="me.png"):
    return SimpleUploadedFile(name, data, content_type="image/png")


def test_the_owner_uploads_a_portrait_and_sees_it(campaign, tenrec, as_user, media):
    client = as_user("player")
    page = client.get(url(campaign, tenrec))
    html = page.content.decode()
    assert 'enctype="multipart/form-data"' in html and 'name="portrait"' in html
    assert "No portrait yet" in html
    data = form_data(page)
    data["portrait"] = picture(image_bytes(120, 80))
    assert client.post(url(campaign, tenrec), data).status_code == 302
    tenrec.refresh_from_db()
    assert tenrec.portrait and tenrec.portrait_256
    html = client.get(url(campaign, tenrec)).content.decode()
    assert f'src="{tenrec.portrait_256.url}"' in html
    assert "Tenrec&#x27;s portrait" in html or "Tenrec's portrait" in html

    data = form_data(client.get(url(campaign, tenrec)))
    data["portrait_clear"] = "on"
    assert client.post(url(campaign, tenrec), data).status_code == 302
    assert not Character.objects.get(pk=tenrec.pk).portrait


def test_a_file_that_is_no_picture_is_refused_on_its_field(campaign, tenrec, as_user, media):
    client = as_user("player")
    data = form_data(client.get(url(campaign, tenrec)))
    data["name"] = "Tenrec the Bold"
    data["portrait"] = picture(b"#!/bin/sh\necho not an image\n", "innocent.png")
    page = client.post(url(campaign, tenrec), data)
    assert page.status_code == 400
    errors = page.context["portrait_form"].errors["portrait"]
    assert errors == ["the file is not an image we can read: it must be a PNG, JPEG, GIF or WebP"]
    assert "the file is not an image we can read" in page.content.decode()
    tenrec.refresh_from_db()
    assert tenrec.name == "Tenrec" and not tenrec.portrait  # nothing of the form was saved
    assert [p for p in media.rglob("*") if p.is_file()] == []


def test_another_player_cannot_set_it(campaign, tenrec, as_user):
    client = as_user("other")
    data = form_data(client.get(url(campaign, tenrec)))
    data["portrait"] = picture(image_bytes())
    assert client.post(url(campaign, tenrec), data).status_code == 400
    assert not Character.objects.get(pk=tenrec.pk).portrait


def test_a_new_character_can_come_with_a_portrait(campaign, as_user):
    client = as_user("player")
    data = form_data(client.get(f"/campaigns/{campaign.pk}/characters/new/"))
    data["name"] = "Ash"
    data["portrait"] = picture(image_bytes())
    response = client.post(f"/campaigns/{campaign.pk}/characters/new/", data)
    assert response.status_code == 302
    assert Character.objects.get(name="Ash").portrait
