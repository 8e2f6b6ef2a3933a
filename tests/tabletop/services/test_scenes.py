import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Scene, Token
from vtt.tabletop.serialize import table_tokens, token_data

from ..helpers import events_after, last_seq
from ..images import image_bytes, png_header_claiming, upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_create_and_activate(table):
    seq = last_seq(table.campaign)
    scene = services.scene_create(
        campaign_id=table.campaign.pk,
        by=table.gm,
        name="Crypt",
        width=30,
        height=12,
        walls=[[0, 0, 30, 0], [2.5, 1, 2.5, 12]],
    )
    assert scene.walls == [[0, 0, 30, 0], [2.5, 1, 2.5, 12]]
    services.scene_activate(scene_id=scene.pk, by=table.gm)
    assert Campaign.objects.get(pk=table.campaign.pk).active_scene == scene
    events = events_after(table.campaign, seq)
    # An inactive scene is the GM's business until the room goes there.
    assert [(e.kind, e.visibility) for e in events] == [
        ("scene.created", "gm"),
        ("scene.activated", "public"),
    ]
    assert events[1].data["scene"] == {
        "id": scene.pk,
        "name": "Crypt",
        "width": 30,
        "height": 12,
        "background": None,
        "walls": [[0, 0, 30, 0], [2.5, 1, 2.5, 12]],
        "fog": False,
        "lit": True,
        "lighting": "lit",
        "baked_lighting": False,
    }


def test_activation_carries_the_tokens_each_member_may_see(table):
    """The event names the new map's tokens as they are at its number: all
    for the GM, without the hidden ones (and no GM notes) for the others."""
    import json

    from vtt.tabletop.policy import event_view
    from vtt.tabletop.visibility import Viewer

    services.scene_activate(scene_id=table.spare_scene.pk, by=table.gm)
    empty = events_after(table.campaign, 0)[-1]
    assert (empty.data["tokens"]["rows"], "players_view" in empty.data) == ([], False)
    services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=4, y=4)
    services.scene_activate(scene_id=table.scene.pk, by=table.gm)
    change = events_after(table.campaign, 0)[-1]
    # Stored once, as a snapshot's table: no second copy for the players.
    assert "players_view" not in change.data
    names = ["Tenrec", "Kobor", "Zombie", "Lurker"]
    gm_view = event_view(change, Viewer(table.gm.pk, "gm"))
    gm_tokens = table_tokens(gm_view["data"]["tokens"])
    assert [t["name"] for t in gm_tokens] == names
    assert gm_tokens[0]["x"] == 4
    # Each as token_data gives it, with its markers (none here).
    assert gm_tokens == [
        {**token_data(t), "markers": []} for t in table.scene.tokens.order_by("pk")
    ]
    for viewer in (Viewer(table.player.pk, "player"), Viewer(table.observer.pk, "observer")):
        view = event_view(change, viewer)
        assert view["data"]["scene"] == gm_view["data"]["scene"]
        assert [t["name"] for t in table_tokens(view["data"]["tokens"])] == names[:3]
        text = json.dumps(view)
        assert "Lurker" not in text and "midnight" not in text


def test_a_scene_of_many_tokens_can_be_activated(table):
    """A scene change carries every token of its map: up to 10,000."""
    Token.objects.bulk_create(
        Token(scene=table.spare_scene, name=f"Crowd {i}", x=i % 20, y=i % 20) for i in range(2500)
    )
    services.scene_activate(scene_id=table.spare_scene.pk, by=table.gm)
    change = events_after(table.campaign, 0)[-1]
    assert len(change.data["tokens"]["rows"]) == 2500


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"width": 0}, "width"),
        ({"width": 201}, "width"),
        ({"height": "10"}, "height"),
        ({"walls": [[0, 0, 21, 0]]}, "walls[0][2]"),
        ({"walls": [[0, 0, 0, 0]]}, "walls[0]"),
        ({"walls": [[0, 0, 1]]}, "walls[0]"),
        ({"walls": [[0, 0, 1, float("nan")]]}, "walls[0][3]"),
        ({"walls": [[0, 0, 1, True]]}, "walls[0][3]"),
        ({"walls": "none"}, "walls"),
        ({"walls": [[0, 0, 1, 1]] * 2001}, "walls"),
    ],
)
def test_bad_scenes(table, kwargs, field):
    count = Scene.objects.count()
    with pytest.raises(services.ServiceError) as caught:
        services.scene_create(campaign_id=table.campaign.pk, by=table.gm, name="Bad", **kwargs)
    assert caught.value.field == field
    assert Scene.objects.count() == count


def test_only_the_gm_manages_scenes(table):
    with pytest.raises(services.NotAllowed):
        services.scene_create(campaign_id=table.campaign.pk, by=table.player, name="Mine")
    for call in (services.scene_activate, services.scene_delete):
        with pytest.raises(services.NotAllowed):
            call(scene_id=table.spare_scene.pk, by=table.player)
        with pytest.raises(services.NotFound):
            call(scene_id=table.spare_scene.pk, by=table.outsider)


def test_a_map_never_shrinks_from_under_a_token_or_wall(table):
    # The hidden lurker (2x2) stands on (15, 10)..(16, 11).
    with pytest.raises(services.ServiceError) as caught:
        services.scene_update(scene_id=table.scene.pk, by=table.gm, width=16)
    assert caught.value.field == "width"
    with pytest.raises(services.ServiceError) as caught:
        services.scene_update(scene_id=table.scene.pk, by=table.gm, height=4)
    assert caught.value.field == "height"  # the wall on y = 5
    scene = services.scene_update(scene_id=table.scene.pk, by=table.gm, width=17, name="Gate")
    assert (scene.width, scene.name) == (17, "Gate")
    with pytest.raises(services.ServiceError) as caught:
        services.scene_update(scene_id=table.scene.pk, by=table.gm, depth=3)
    assert caught.value.code == "unknown_field"


def test_background_image(table, media, django_capture_on_commit_callbacks):
    seq = last_seq(table.campaign)
    scene = services.scene_set_background(
        scene_id=table.scene.pk, by=table.gm, image=upload(image_bytes(64, 32))
    )
    assert scene.background.name.startswith("scenes/") and scene.background.name.endswith(".png")
    stored = media / scene.background.name
    assert stored.exists()
    [event] = events_after(table.campaign, seq)
    assert event.kind == "scene.updated"
    assert event.data["scene"]["background"] == f"/media/{scene.background.name}"
    # A new background replaces the old file once the change has committed.
    with django_capture_on_commit_callbacks(execute=True):
        scene = services.scene_set_background(
            scene_id=table.scene.pk, by=table.gm, image=upload(image_bytes(kind="JPEG"), "x.jpg")
        )
    assert not stored.exists() and scene.background.name.endswith(".jpg")
    with django_capture_on_commit_callbacks(execute=True):
        scene = services.scene_clear_background(scene_id=table.scene.pk, by=table.gm)
    assert not scene.background and list(media.glob("scenes/*")) == []


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"GIF89a but not really", "bad_image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "bad_image"),
        (b"", "bad_image"),
        (image_bytes(kind="BMP"), "bad_image"),
        (image_bytes()[:40], "bad_image"),
        (png_header_claiming(8193, 10), "image_too_large"),
        (png_header_claiming(100_000, 100_000), "image_too_large"),
    ],
)
def test_hostile_backgrounds_are_refused_and_nothing_stays(table, media, data, code):
    with pytest.raises(services.ServiceError) as caught:
        services.scene_set_background(scene_id=table.scene.pk, by=table.gm, image=upload(data))
    assert (caught.value.code, caught.value.field) == (code, "image")
    table.scene.refresh_from_db()
    assert not table.scene.background
    assert list(media.glob("scenes/*")) == []


def test_oversized_background(table, media):
    data = image_bytes() + b"\0" * (10 * 1024 * 1024)
    with pytest.raises(services.ServiceError) as caught:
        services.scene_set_background(scene_id=table.scene.pk, by=table.gm, image=upload(data))
    assert caught.value.code == "image_too_large"
    assert list(media.glob("scenes/*")) == []


def test_delete_scene(table):
    seq = last_seq(table.campaign)
    services.scene_delete(scene_id=table.scene.pk, by=table.gm)
    assert Campaign.objects.get(pk=table.campaign.pk).active_scene is None
    [event] = events_after(table.campaign, seq)
    assert (event.kind, event.visibility) == ("scene.deleted", "public")


@pytest.mark.parametrize(
    "change, lighting, lit",
    [
        ({"lighting": "dim"}, "dim", False),
        ({"lighting": "dark"}, "dark", False),
        ({"lit": False}, "dark", False),
        ({"lighting": "dim", "baked_lighting": True}, "dim", False),
    ],
)
def test_a_scene_is_lit_dim_or_dark_and_lit_follows(table, change, lighting, lit):
    scene = services.scene_update(scene_id=table.spare_scene.pk, by=table.gm, **change)
    scene.refresh_from_db()
    assert (scene.lighting, scene.lit) == (lighting, lit)
    assert scene.baked_lighting is change.get("baked_lighting", False)
    services.scene_update(scene_id=scene.pk, by=table.gm, lit=True)
    scene.refresh_from_db()
    assert (scene.lighting, scene.lit) == ("lit", True)


def test_unticking_lit_keeps_a_dim_scene_dim(table):
    services.scene_update(scene_id=table.spare_scene.pk, by=table.gm, lighting="dim")
    scene = services.scene_update(scene_id=table.spare_scene.pk, by=table.gm, lit=False)
    assert (scene.lighting, scene.lit) == ("dim", False)


def test_lighting_is_one_of_three(table):
    with pytest.raises(services.ServiceError) as refused:
        services.scene_update(scene_id=table.spare_scene.pk, by=table.gm, lighting="dusk")
    assert (refused.value.field, refused.value.message) == (
        "lighting",
        "lighting: must be one of lit, dim, dark",
    )
    scene = services.scene_create(
        campaign_id=table.campaign.pk, by=table.gm, name="Cave", lighting="dark"
    )
    assert (scene.lighting, scene.lit) == ("dark", False)
