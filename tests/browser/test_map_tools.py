"""The map's tools switched on and off in a real browser: the ruler takes
the pointer (a drag measures and the map stays put) and gives it back (the
same drag pans and draws nothing), and the GM's "Edit walls" takes it from
the ruler, draws a wall on the room's map, and the player's fog follows."""

import pytest

from . import room
from .conftest import seeded_server
from .room import square_centre
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def vault(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.fog_seed")


@pytest.fixture(scope="module")
def gm(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "player", PHONE)
    yield page
    page.context.close()


def view_offset(page):
    return page.evaluate("[window.d6room.board.view.tx, window.d6room.board.view.ty]")


def drag(page, start, end):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def corner(page, x, y):
    """Client coordinates of the grid corner (x, y) on that page's map."""
    return page.evaluate(
        """([x, y]) => {
            const b = window.d6room.board;
            const r = b.view.screenBox();
            return [r.left + b.view.tx + x * b.view.scale, r.top + b.view.ty + y * b.view.scale];
        }""",
        [x, y],
    )


def pressed(page, button):
    return page.get_attribute(button, "aria-pressed") == "true"


def sees(page, x, y):
    return page.evaluate("([x, y]) => window.d6room.board.fog.sees(x + 0.5, y + 0.5)", [x, y])


def test_the_ruler_measures_while_on_and_once_off_the_same_drag_pans(gm):
    gm.click("#tool-ruler")
    assert pressed(gm, "#tool-ruler")
    before = view_offset(gm)
    drag(gm, square_centre(gm, 1, 1), square_centre(gm, 4, 1))
    assert gm.inner_text("#map-status").startswith("Ruler: 15 ft")
    assert gm.locator(".layer-ruler .ruler").count() == 1
    assert view_offset(gm) == before  # the ruler had the pointer: no pan

    gm.click("#tool-ruler")
    assert not pressed(gm, "#tool-ruler")
    assert gm.locator(".layer-ruler > *").count() == 0
    assert not gm.evaluate("window.d6room.board.ruler.enabled")
    scale = gm.evaluate("window.d6room.board.view.scale")
    drag(gm, square_centre(gm, 1, 1), square_centre(gm, 4, 1))
    # Its listeners are gone: the drag panned the map three squares and measured nothing.
    after = view_offset(gm)
    assert after[0] - before[0] == pytest.approx(3 * scale, abs=2)
    assert after[1] == pytest.approx(before[1], abs=2)
    assert gm.locator(".layer-ruler > *").count() == 0
    assert not gm.evaluate("document.getElementById('map').classList.contains('ruler-mode')")
    assert gm.errors == []


def test_the_gm_draws_a_wall_on_the_room_map_and_the_players_fog_follows(gm, player, shot):
    player.wait_for_selector(".layer-fog.fog-on")
    assert sees(player, 1, 3) == "view"  # across Tenrec's own room
    # The ruler on, then the wall editor takes the pointer from it.
    gm.click("#tool-ruler")
    gm.click("#tool-walls")
    assert pressed(gm, "#tool-walls") and not pressed(gm, "#tool-ruler")
    assert gm.is_visible("#edit-tool")
    # A wall down the west room, click to click; Escape ends the chain.
    gm.mouse.click(*corner(gm, 3, 0))
    gm.mouse.move(*corner(gm, 3, 4))
    assert gm.locator(".layer-wall-edit .wall-draft").count() == 1  # the rubber band
    gm.mouse.click(*corner(gm, 3, 8))
    shot(gm, "86-gm-draws-a-wall-in-the-room-desk")
    gm.keyboard.press("Escape")
    gm.wait_for_function(
        "window.d6room.board.scene.walls.some(w => w.length === 4 && w.join() === '3,0,3,8')"
    )
    # The player's fog follows the scene: beyond the new wall is only remembered.
    player.wait_for_function("window.d6room.board.scene.walls.length === 8")
    player.wait_for_function("window.d6room.board.fog.sees(1.5, 3.5) === 'explored'")
    assert sees(player, 5, 3) == "view"  # Tenrec's own square
    shot(player, "86-player-fog-after-the-new-wall-phone")
    # Undo from the keyboard takes it away again, for everyone.
    gm.focus("#map")
    gm.keyboard.press("Control+z")
    player.wait_for_function("window.d6room.board.fog.sees(1.5, 3.5) === 'view'")

    # Off: the editor's drawings and listeners go, and a drag pans again.
    gm.click("#tool-walls")
    assert not pressed(gm, "#tool-walls") and gm.is_hidden("#edit-tool")
    assert gm.locator(".layer-wall-edit > *").count() == 0
    walls = gm.evaluate("window.d6room.board.scene.walls.length")
    before = view_offset(gm)
    gm.mouse.click(*corner(gm, 2, 1))
    gm.mouse.click(*corner(gm, 2, 5))
    drag(gm, square_centre(gm, 1, 1), square_centre(gm, 2, 1))
    assert view_offset(gm) != before
    assert gm.evaluate("window.d6room.board.scene.walls.length") == walls
    assert gm.errors == [] and player.errors == []


def test_a_player_has_no_wall_editor(player):
    assert player.locator("#tool-walls").count() == 0
    assert player.evaluate("window.d6room.wallEdit") is None
