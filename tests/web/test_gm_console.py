"""The GM console: invites, roles, settings, scenes with backgrounds and
walls, tokens. For GMs only; others get 404."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from vtt.tabletop import services
from vtt.tabletop.models import Invite, Membership, Scene, Token

pytestmark = pytest.mark.django_db


def gm_url(campaign, rest=""):
    return f"/campaigns/{campaign.pk}/gm/{rest}"


@pytest.fixture
def scene(campaign, users):
    return services.scene_create(
        campaign_id=campaign.pk, by=users["gm"], name="Crypt", width=10, height=8
    )


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def png(width=20, height=10):
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "grey").save(buffer, "PNG")
    return SimpleUploadedFile("map.png", buffer.getvalue(), content_type="image/png")


@pytest.mark.parametrize("who", ["player", "stranger"])
def test_only_the_gm_has_a_console(campaign, scene, as_user, who):
    client = as_user(who)
    assert client.get(gm_url(campaign)).status_code == 404
    assert client.get(gm_url(campaign, f"scenes/{scene.pk}/")).status_code == 404
    assert client.post(gm_url(campaign, "invites/"), {"role": "player"}).status_code == 404
    assert (
        not Invite.objects.filter(campaign=campaign, role="player", max_uses=None)
        .exclude(uses=1)
        .exists()
    )


def test_console_shows_members_invites_scenes_and_settings(campaign, scene, as_user):
    html = as_user("gm").get(gm_url(campaign)).content.decode()
    for text in ("player", "other", "Crypt", "Condition track", "Diagonals on the map"):
        assert text in html


def test_create_an_invite(campaign, as_user):
    page = as_user("gm").post(
        gm_url(campaign, "invites/"), {"role": "observer", "max_uses": "3", "expires_days": "2"}
    )
    assert page.status_code == 302
    invite = Invite.objects.filter(campaign=campaign, role="observer").get()
    assert invite.max_uses == 3 and invite.expires_at is not None


def test_change_a_role_and_keep_a_gm(campaign, users, as_user):
    client = as_user("gm")
    client.post(gm_url(campaign, "members/"), {"user_id": users["player"].pk, "role": "observer"})
    assert Membership.objects.get(campaign=campaign, user=users["player"]).role == "observer"
    # The last GM cannot step down: the service refuses and says why.
    page = client.post(
        gm_url(campaign, "members/"), {"user_id": users["gm"].pk, "role": "player"}, follow=True
    )
    assert Membership.objects.get(campaign=campaign, user=users["gm"]).role == "gm"
    assert b"at least one GM" in page.content


def test_remove_a_member(campaign, users, as_user):
    as_user("gm").post(
        gm_url(campaign, "members/"), {"user_id": users["other"].pk, "role": "remove"}
    )
    assert not Membership.objects.filter(campaign=campaign, user=users["other"]).exists()


def test_save_settings(campaign, as_user):
    client = as_user("gm")
    data = {
        "diagonal": "alternating",
        "condition_track": "Fine\nBruised\nBloodied\nDown\nDone",
        "abilities__Strength": "Might, Toughness, Endurance",
        "abilities__Dexterity": "Finesse, Agility, Stealth",
        "abilities__Intelligence": "Arcanum, Lore, Perception",
        "abilities__Will Power": "Resolve, Presence, Faith",
    }
    assert client.post(gm_url(campaign, "settings/"), data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings["diagonal"] == "alternating"
    assert campaign.settings["condition_track"][0] == "Fine"


def test_bad_settings_show_the_error_on_their_field(campaign, as_user):
    data = {
        "diagonal": "uniform",
        "condition_track": "Only\nTwo",
        "abilities__Strength": "Might, Toughness, Endurance",
        "abilities__Dexterity": "Finesse, Agility, Stealth",
        "abilities__Intelligence": "Arcanum, Lore, Perception",
        "abilities__Will Power": "Resolve, Presence, Faith",
    }
    page = as_user("gm").post(gm_url(campaign, "settings/"), data)
    assert page.status_code == 400
    assert page.context["settings_form"].errors.get("condition_track")


def test_create_a_scene_draw_walls_and_activate_it(campaign, as_user):
    client = as_user("gm")
    page = client.post(gm_url(campaign, "scenes/"), {"name": "Hall", "width": "12", "height": "9"})
    scene = Scene.objects.get(name="Hall")
    assert page.url == gm_url(campaign, f"scenes/{scene.pk}/")
    saved = client.post(
        gm_url(campaign, f"scenes/{scene.pk}/"),
        {"name": "Hall", "width": "12", "height": "9", "walls": "0 0 12 0\n3, 2, 3, 7"},
    )
    assert saved.status_code == 302
    scene.refresh_from_db()
    assert scene.walls == [[0, 0, 12, 0], [3, 2, 3, 7]]
    client.post(gm_url(campaign, f"scenes/{scene.pk}/activate/"))
    campaign.refresh_from_db()
    assert campaign.active_scene_id == scene.pk


def test_walls_that_are_not_four_numbers_are_refused(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"),
        {"name": "Crypt", "width": "10", "height": "8", "walls": "1 2 3"},
    )
    assert page.status_code == 400
    assert b"line 1" in page.content
    scene.refresh_from_db()
    assert scene.walls == []


def test_walls_off_the_map_are_refused_by_the_service(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"),
        {"name": "Crypt", "width": "10", "height": "8", "walls": "0 0 50 0"},
    )
    assert page.status_code == 400
    assert page.context["scene_form"].errors.get("walls")


def test_upload_a_background(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"), {"part": "background", "image": png()}
    )
    assert page.status_code == 302
    scene.refresh_from_db()
    assert scene.background


def test_a_file_that_is_not_an_image_is_refused(campaign, scene, as_user):
    fake = SimpleUploadedFile("map.png", b"not an image at all", content_type="image/png")
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"), {"part": "background", "image": fake}
    )
    assert page.status_code == 400
    scene.refresh_from_db()
    assert not scene.background


def test_place_a_hidden_npc_token(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/tokens/"),
        {"name": "Zombie", "x": "3", "y": "4", "size": "1", "color": "#556b2f", "hidden": "on"},
    )
    assert page.status_code == 302
    token = Token.objects.get(name="Zombie")
    assert (token.x, token.y, token.hidden) == (3, 4, True)


def test_a_token_off_the_map_is_refused(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/tokens/"),
        {"name": "Lost", "x": "30", "y": "4", "size": "1", "color": "#556b2f"},
    )
    assert page.status_code == 400
    assert not Token.objects.filter(name="Lost").exists()
