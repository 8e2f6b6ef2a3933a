"""Portraits and token art: who may set and clear them, what is refused,
what is stored (re-encoded, no metadata, square thumbnails, through the
storage API) and what the room is told."""

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from vtt.tabletop import services
from vtt.tabletop.models import Character, Token

from ..helpers import events_after, last_seq
from ..images import image_bytes, photo_with_exif, png_header_claiming, upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def stored_files(media) -> list[str]:
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file())


def opened(name: str) -> Image.Image:
    with default_storage.open(name) as f:
        image = Image.open(f)
        image.load()
    return image


def set_portrait(table, by, data=None, name="face.png"):
    return services.character_set_portrait(
        character_id=table.tenrec.pk, by=by, image=upload(data or image_bytes(300, 200), name)
    )


# ------------------------------------------------------------------ who may


def test_the_owner_sets_a_portrait_and_the_room_hears_of_it_and_its_token(table):
    seq = last_seq(table.campaign)
    character = set_portrait(table, table.player)
    assert character.portrait.name.startswith("portraits/")
    events = events_after(table.campaign, seq)
    assert [e.kind for e in events] == ["character.updated", "token.updated"]
    portrait = events[0].data["character"]["portrait"]
    assert portrait == {
        "url": character.portrait.url,
        "thumb_128": character.portrait_128.url,
        "thumb_256": character.portrait_256.url,
    }
    # Tenrec's token has no art of its own: it shows the portrait, a change
    # like any other (its version moves on).
    token = events[1].data["token"]
    assert token["id"] == table.tenrec_token.pk
    assert (token["art"], token["art_from"]) == (portrait, "character")
    assert token["version"] == table.tenrec_token.version + 1


def test_a_gm_sets_any_portrait_and_a_player_only_their_own(table):
    services.character_set_portrait(
        character_id=table.zombie.pk, by=table.gm, image=upload(image_bytes())
    )
    assert Character.objects.get(pk=table.zombie.pk).portrait
    with pytest.raises(services.NotAllowed):
        set_portrait(table, table.other)  # Kobor's player, not Tenrec's
    with pytest.raises(services.NotAllowed):
        set_portrait(table, table.observer)
    with pytest.raises(services.NotFound):
        set_portrait(table, table.outsider)
    with pytest.raises(services.NotFound):  # an NPC does not exist for players
        services.character_set_portrait(
            character_id=table.zombie.pk, by=table.player, image=upload(image_bytes())
        )
    with pytest.raises(services.NotAllowed):
        services.character_clear_portrait(character_id=table.tenrec.pk, by=table.other)


def test_token_art_the_gm_or_the_owner_of_its_character(table, media):
    services.token_set_art(
        token_id=table.tenrec_token.pk, by=table.player, image=upload(image_bytes())
    )
    services.token_set_art(token_id=table.zombie_token.pk, by=table.gm, image=upload(image_bytes()))
    with pytest.raises(services.NotAllowed):
        services.token_set_art(
            token_id=table.tenrec_token.pk, by=table.other, image=upload(image_bytes())
        )
    with pytest.raises(services.NotAllowed):  # nobody's character but the GM's
        services.token_set_art(
            token_id=table.zombie_token.pk, by=table.player, image=upload(image_bytes())
        )
    with pytest.raises(services.NotFound):  # a hidden token is not there for players
        services.token_set_art(
            token_id=table.lurker.pk, by=table.player, image=upload(image_bytes())
        )
    with pytest.raises(services.NotAllowed):
        services.token_clear_art(token_id=table.tenrec_token.pk, by=table.observer)
    # Two tokens' art, three files each; the refusals stored nothing.
    assert len(stored_files(media)) == 6


def test_own_art_wins_over_the_portrait(table):
    token = services.token_set_art(
        token_id=table.tenrec_token.pk, by=table.gm, image=upload(image_bytes())
    )
    assert token.art.name.startswith("tokens/")
    seq = last_seq(table.campaign)
    set_portrait(table, table.player)
    assert [e.kind for e in events_after(table.campaign, seq)] == ["character.updated"]
    seq = last_seq(table.campaign)
    token = services.token_clear_art(token_id=table.tenrec_token.pk, by=table.player)
    [event] = events_after(table.campaign, seq)
    assert event.data["token"]["art_from"] == "character"
    assert (
        event.data["token"]["art"]["url"] == Character.objects.get(pk=table.tenrec.pk).portrait.url
    )


# ------------------------------------------------------------------ what is refused


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"plain text wearing a .png name", "bad_image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "bad_image"),
        (image_bytes(kind="BMP"), "bad_image"),
        (image_bytes()[:40], "bad_image"),
        (png_header_claiming(8193, 10), "image_too_large"),
        # Within a side, beyond the pixels: 49 million would be decoded.
        (png_header_claiming(7000, 7000), "image_too_large"),
        (png_header_claiming(100_000, 100_000), "image_too_large"),
        (image_bytes() + b"\0" * (10 * 1024 * 1024), "image_too_large"),
    ],
    ids=["text", "svg", "bmp", "truncated", "too-wide", "too-many-pixels", "bomb", "too-big"],
)
def test_bad_files_are_refused_on_the_image_field_and_nothing_stays(table, media, data, code):
    seq = last_seq(table.campaign)
    for call in (
        lambda: set_portrait(table, table.player, data, "portrait.png"),
        lambda: services.token_set_art(
            token_id=table.tenrec_token.pk, by=table.gm, image=upload(data, "art.png")
        ),
    ):
        with pytest.raises(services.ServiceError) as caught:
            call()
        assert (caught.value.code, caught.value.field) == (code, "image")
    assert stored_files(media) == []
    assert events_after(table.campaign, seq) == []
    assert not Character.objects.get(pk=table.tenrec.pk).portrait
    assert not Token.objects.get(pk=table.tenrec_token.pk).art


# ------------------------------------------------------------------ what is stored


def test_a_photo_is_turned_upright_and_keeps_no_metadata(table):
    data = photo_with_exif(40, 20, orientation=6)
    with Image.open(upload(data)) as original:
        assert original.getexif()[0x010F] == "PhoneMaker"
    character = set_portrait(table, table.player, data, "holiday.jpg")
    assert character.portrait.name.endswith(".webp")
    image = opened(character.portrait.name)
    assert image.format == "WEBP"
    assert dict(image.getexif()) == {} and "exif" not in image.info and "xmp" not in image.info
    # Orientation 6 turned a 40 x 20 picture with its blue half on the left
    # into a 20 x 40 one with the blue half on top.
    assert image.size == (20, 40)
    top, bottom = image.convert("RGB").getpixel((10, 5)), image.convert("RGB").getpixel((10, 35))
    assert top[2] > 150 > top[0] and bottom[0] > 150 > bottom[2]


def test_thumbnails_are_squares_in_the_storage_and_the_picture_is_bounded(table):
    character = set_portrait(table, table.player, image_bytes(2400, 1200))
    assert opened(character.portrait.name).size == (1024, 512)
    for field, side in (("portrait_128", 128), ("portrait_256", 256)):
        name = getattr(character, field).name
        assert default_storage.exists(name)
        assert opened(name).size == (side, side)
    # One random stem for the three, nothing of the upload's name.
    stem = character.portrait.name.removesuffix(".webp")
    assert character.portrait_128.name == f"{stem}-128.webp"
    assert "face" not in stem and len(stem.removeprefix("portraits/")) >= 24


def test_a_transparent_picture_stays_transparent(table):
    import io

    buffer = io.BytesIO()
    Image.new("RGBA", (64, 64), (0, 0, 0, 0)).save(buffer, "PNG")
    character = set_portrait(table, table.player, buffer.getvalue())
    assert opened(character.portrait_128.name).convert("RGBA").getpixel((5, 5))[3] == 0


# ------------------------------------------------------------------ clearing and replacing


def test_replacing_and_clearing_delete_the_files(table, media, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = set_portrait(table, table.player)
    first_files = stored_files(media)
    assert len(first_files) == 3
    with django_capture_on_commit_callbacks(execute=True):
        second = set_portrait(table, table.player)
    assert second.portrait.name != first.portrait.name
    assert not set(first_files) & set(stored_files(media)) and len(stored_files(media)) == 3
    seq = last_seq(table.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        cleared = services.character_clear_portrait(character_id=table.tenrec.pk, by=table.gm)
    assert not cleared.portrait and not cleared.portrait_128 and not cleared.portrait_256
    assert stored_files(media) == []
    events = events_after(table.campaign, seq)
    assert events[0].data["character"]["portrait"] is None
    assert events[1].data["token"]["art"] is None
    # Clearing what is not there says nothing.
    seq = last_seq(table.campaign)
    services.character_clear_portrait(character_id=table.tenrec.pk, by=table.gm)
    services.token_clear_art(token_id=table.tenrec_token.pk, by=table.gm)
    assert events_after(table.campaign, seq) == []


def test_deleting_a_token_or_character_deletes_its_files(
    table, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.token_set_art(token_id=table.lurker.pk, by=table.gm, image=upload(image_bytes()))
        set_portrait(table, table.player)
    assert len(stored_files(media)) == 6
    with django_capture_on_commit_callbacks(execute=True):
        services.token_delete(token_id=table.lurker.pk, by=table.gm)
    assert all(name.startswith("portraits/") for name in stored_files(media))
    seq = last_seq(table.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        services.character_delete(character_id=table.tenrec.pk, by=table.player)
    assert stored_files(media) == []
    # Its token stays on the map, and shows no portrait now.
    events = events_after(table.campaign, seq)
    assert [e.kind for e in events] == ["character.deleted", "token.updated"]
    assert events[1].data["token"]["art"] is None
    assert events[1].data["token"]["character_id"] is None


def test_deleting_the_campaign_deletes_every_picture(
    table, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        set_portrait(table, table.player)
        services.token_set_art(token_id=table.lurker.pk, by=table.gm, image=upload(image_bytes()))
        services.scene_set_background(
            scene_id=table.scene.pk, by=table.gm, image=upload(image_bytes())
        )
    assert len(stored_files(media)) == 7
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_delete(campaign_id=table.campaign.pk, by=table.gm)
    assert stored_files(media) == []
