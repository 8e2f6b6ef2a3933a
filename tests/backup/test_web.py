"""The GM console's "Download backup" and the lobby's "Import from backup":
GMs only download; what a GM downloads leaves out other members' whispers;
an upload imports as a new campaign its uploader runs, and a bad one is a
400 on the field `archive` with nothing written."""

import io
import json
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from tests.tabletop.images import image_bytes
from vtt import dice
from vtt.tabletop.models import Campaign, Membership, RoomEvent

from .campaign import rich_campaign
from .test_refusals import database, flipped

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def battle():
    return rich_campaign()


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def download(battle, who):
    url = reverse("web:gm_backup", args=[battle.campaign.pk])
    return client_of(battle.users[who]).get(url)


def rows_of(archive: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        return json.loads(z.read("campaign.json"))


def test_only_a_gm_downloads_the_backup(battle):
    for who in ("player", "observer", "stranger"):
        assert download(battle, who).status_code == 404
    assert Client().get(reverse("web:gm_backup", args=[battle.campaign.pk])).status_code == 302
    answer = download(battle, "gm")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/zip"
    assert "attachment" in answer["Content-Disposition"]


def test_the_gms_download_leaves_out_whispers_between_others(battle):
    rows = rows_of(download(battle, "gm").content)
    texts = [
        e["data"]["text"] for e in rows["tables"]["tabletop.roomevent"] if e["kind"] == "whisper"
    ]
    # The player's whisper to the other player is theirs alone; the GM's own stays.
    assert texts == ["you hear scratching"]
    assert RoomEvent.objects.filter(campaign=battle.campaign, kind="whisper").count() == 2


def test_no_download_while_a_session_is_open(battle):
    dice.session_start(campaign_id=battle.campaign.pk, by=battle.users["gm"])
    answer = download(battle, "gm")
    assert answer.status_code == 302
    page = client_of(battle.users["gm"]).get(answer["Location"]).content.decode()
    assert "end it first" in page


def test_the_console_offers_the_download_and_the_lobby_the_import(battle):
    console = client_of(battle.users["gm"]).get(reverse("web:gm", args=[battle.campaign.pk]))
    page = console.content.decode()
    assert reverse("web:gm_backup", args=[battle.campaign.pk]) in page
    assert f"{reverse('web:home')}#import-campaign" in page
    lobby = client_of(battle.users["gm"]).get(reverse("web:home")).content.decode()
    assert reverse("web:campaign_import") in lobby
    assert 'name="archive"' in lobby
    # By default only staff and GMs import: a player's lobby has no form.
    lobby = client_of(battle.users["player"]).get(reverse("web:home")).content.decode()
    assert 'name="archive"' not in lobby


def upload(user, data: bytes, name="tomb.zip", client=None):
    from django.core.files.uploadedfile import SimpleUploadedFile

    archive = SimpleUploadedFile(name, data, content_type="application/zip")
    client = client or client_of(user)
    return client.post(reverse("web:campaign_import"), {"archive": archive})


def test_an_upload_imports_a_campaign_its_uploader_runs(battle):
    data = download(battle, "gm").content
    gm = battle.users["gm"]
    client = client_of(gm)
    review = upload(gm, data, client=client)
    assert review.status_code == 200
    page = review.content.decode()
    assert reverse("web:campaign_import_confirm") in page
    form = review.context["form"]
    # The importer kept by default (the archive knows them), nobody else.
    answer = client.post(reverse("web:campaign_import_confirm"), defaults_of(form))
    assert answer.status_code == 302
    imported = Campaign.objects.exclude(pk=battle.campaign.pk).get()
    assert answer["Location"] == reverse("web:gm", args=[imported.pk])
    assert imported.name.startswith("The Tomb (imported ")
    roles = dict(Membership.objects.filter(campaign=imported).values_list("user__username", "role"))
    assert roles == {"artifice-gm": "gm"}


def defaults_of(form) -> dict:
    return {name: form[name].value() or "" for name in form.fields}


@pytest.mark.parametrize(
    "data, says",
    [
        (b"not a zip at all", "not a zip file"),
        (image_bytes(), "not a zip file"),
    ],
)
def test_a_bad_upload_is_a_400_on_the_archive_field_and_writes_nothing(battle, data, says):
    before = database()
    answer = upload(battle.users["gm"], data)
    assert answer.status_code == 400
    assert says in answer.content.decode()
    assert "archive" in answer.context["import_form"].errors
    assert database() == before


def test_a_damaged_upload_is_refused(battle):
    data = flipped(download(battle, "gm").content)
    before = database()
    answer = upload(battle.users["gm"], data)
    assert answer.status_code == 400
    assert "does not match its checksum" in answer.context["import_form"].errors["archive"][0]
    assert database() == before
