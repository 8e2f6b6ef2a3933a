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


def test_a_wall_off_the_map_is_named_by_its_line(campaign, scene, as_user):
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"),
        {"name": "Crypt", "width": "10", "height": "8", "walls": "0 0 5 0\n\n0 0 5 9"},
    )
    assert page.status_code == 400
    assert page.context["scene_form"].errors["walls"] == [
        "line 3, y2: must be between 0 and 8, not 9"
    ]


def test_doors_and_windows_are_saved_as_the_scene_contract_says(campaign, scene, as_user):
    text = "0 0 4 0\n4 0 5 0 door locked\n5 0 6 0 door open\n6 0 9 0 window\n9 0 10 0 door"
    page = as_user("gm").post(
        gm_url(campaign, f"scenes/{scene.pk}/"),
        {"name": "Crypt", "width": "10", "height": "8", "walls": text},
    )
    assert page.status_code == 302
    scene.refresh_from_db()
    assert scene.walls == [
        [0, 0, 4, 0],
        [4, 0, 5, 0, "door", "locked"],
        [5, 0, 6, 0, "door", "open"],
        [6, 0, 9, 0, "window"],
        [9, 0, 10, 0, "door"],
    ]


def test_the_scene_page_writes_doors_and_windows_as_text(campaign, scene, as_user):
    # Stored as the contract has them (by whatever door; here straight in).
    Scene.objects.filter(pk=scene.pk).update(
        walls=[[0, 0, 4, 0], [4, 0, 5, 0, "door", "locked"], [6, 0, 9, 0, "window"]]
    )
    page = as_user("gm").get(gm_url(campaign, f"scenes/{scene.pk}/"))
    assert page.context["scene_form"]["walls"].value() == (
        "0 0 4 0\n4 0 5 0 door locked\n6 0 9 0 window"
    )


def test_a_new_scene_is_lit_without_fog_unless_the_gm_says(campaign, as_user):
    form = as_user("gm").get(gm_url(campaign)).context["scene_form"]
    assert (form["fog"].value(), form["lit"].value()) == (None, True)
    as_user("gm").post(
        gm_url(campaign, "scenes/"), {"name": "Cellar", "width": "8", "height": "8", "fog": "on"}
    )
    cellar = Scene.objects.get(name="Cellar")
    assert cellar.fog is True and cellar.lit is False


def test_fog_and_light_are_changed_with_the_scene(campaign, scene, as_user):
    client = as_user("gm")
    url = gm_url(campaign, f"scenes/{scene.pk}/")
    assert client.get(url).context["scene_form"]["lit"].value() is True
    data = {"name": "Crypt", "width": "10", "height": "8", "walls": ""}
    assert client.post(url, {**data, "fog": "on"}).status_code == 302
    scene.refresh_from_db()
    assert (scene.fog, scene.lit) == (True, False)
    client.post(url, {**data, "lit": "on"})
    scene.refresh_from_db()
    assert (scene.fog, scene.lit) == (False, True)
    form = client.get(url).context["scene_form"]
    assert (form["fog"].value(), form["lit"].value()) == (False, True)


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
