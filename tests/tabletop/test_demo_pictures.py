"""The demo's pictures: portraits and battle-map backgrounds are real
images, the same every time they are drawn, and different from each other."""

import hashlib
import io

import pytest
from PIL import Image

from vtt.demo import DEMOS
from vtt.demo.portraits import EMBLEMS, SIZE, initials, portrait
from vtt.games.drawing import PX, Canvas

FIGURES = [figure for demo in DEMOS for figure in demo.figures]


def opened(data: bytes) -> Image.Image:
    Image.open(io.BytesIO(data)).verify()
    return Image.open(io.BytesIO(data))


def test_portraits_are_pngs_distinct_for_every_character():
    seen = {}
    for figure in FIGURES:
        data = portrait(figure.name, figure.colour, figure.emblem)
        picture = opened(data)
        assert (picture.format, picture.size) == ("PNG", (SIZE, SIZE))
        # Transparent outside the disc, opaque at its centre.
        assert picture.getpixel((0, 0))[3] == 0
        assert picture.getpixel((SIZE // 2, SIZE // 2))[3] == 255
        digest = hashlib.sha256(data).hexdigest()
        assert digest not in seen, f"{figure.name} looks like {seen.get(digest)}"
        seen[digest] = figure.name


def test_a_portrait_is_drawn_the_same_every_time():
    assert portrait("Tenrec", "#2b6cb0", "sword") == portrait("Tenrec", "#2b6cb0", "sword")


def test_one_colour_and_sign_still_differ_by_name():
    assert portrait("Raider", "#c53030", "skull") != portrait("Shambler", "#c53030", "skull")


def test_every_emblem_draws_and_an_unknown_one_is_refused():
    pictures = {portrait("Ann Example", "#336699", emblem) for emblem in EMBLEMS}
    assert len(pictures) == len(EMBLEMS)
    with pytest.raises(ValueError):
        portrait("Ann Example", "#336699", "teapot")


@pytest.mark.parametrize(
    ("name", "letters"),
    [("Tenrec", "TE"), ("Goblin archer", "GA"), ("Dr. Imre Vey", "IV"), ("Mags Dunleavy", "MD")],
)
def test_initials(name, letters):
    assert initials(name) == letters


@pytest.mark.parametrize("demo", DEMOS, ids=[demo.game for demo in DEMOS])
def test_backgrounds_fill_the_scene_at_px_a_square(demo):
    data = demo.scene.paint()
    picture = opened(data)
    assert picture.format in ("JPEG", "PNG")
    assert picture.size == (demo.scene.width * PX, demo.scene.height * PX)
    assert len(data) < 512 * 1024  # small enough to load at once in the room
    # A painted map, not a flat fill: many colours.
    assert len(picture.convert("RGB").getcolors(maxcolors=1 << 20)) > 1000
    assert demo.scene.paint() == data


def test_the_walls_are_drawn_where_the_scene_keeps_them():
    """A wall's pixels take the wall colour along the stored segment."""
    canvas = Canvas(4, 4, seed="walls")
    canvas.fill((0, 0, 0), (10, 10, 10))
    canvas.walls([[1, 2, 3, 2]], fill=(200, 0, 0), edge=(0, 0, 200))
    for x in (1.2, 2, 2.8):
        assert canvas.image.getpixel(canvas.p(x, 2)) == (200, 0, 0)
    assert canvas.image.getpixel(canvas.p(2, 1)) != (200, 0, 0)
