"""Lights on the room's map, in the Cellar of tests/browser/light_seed.py
(a dark scene under fog): the GM at a desk places a light with the
editing mode's Light tool, drags it, changes it in the bar and removes it
from the keyboard; the player on a phone, another browser, sees the
lit area and the rat standing in it appear, and nothing of the light
while it shines where Tenrec cannot see. Screenshots go to
/tmp/lightdraw-*.png."""

import pytest

from . import room
from .conftest import seeded_server
from .test_map_tools import corner, drag
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def cellar(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.light_seed")


@pytest.fixture(scope="module")
def gm(browser, cellar):
    page = room.open_room(browser, cellar, cellar["campaign"], "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, cellar):
    page = room.open_room(browser, cellar, cellar["campaign"], "player", PHONE)
    page.wait_for_selector(".layer-fog.fog-on")
    yield page
    page.context.close()


def lights(page):
    return page.evaluate("[...window.d6room.lightEdit.lights.values()]")


def has_token(page, token_id):
    return page.evaluate(f"window.d6room.board.tokens.has({token_id})")


def light_tool(gm):
    if gm.is_hidden("#map-edit"):
        gm.click("#tool-walls")
    gm.select_option("#edit-tool", "light")
    assert gm.is_visible("#light-fields")


def test_the_gm_places_a_light_drags_it_and_removes_it_from_the_keyboard(gm, player, cellar):
    light_tool(gm)
    gm.mouse.click(*corner(gm, 10.5, 5.5))  # behind the wall, in the bat's room
    # The room's light.changed may come before the answer that selects it.
    gm.wait_for_function(
        "window.d6room.lightEdit.lights.size === 1 && window.d6room.lightEdit.selected !== null"
    )
    [light] = lights(gm)
    assert (light["x"], light["y"], light["bright"], light["dim"]) == (10.5, 5.5, 4, 8)
    assert light["on"] and light["color"] == "#ffb347"
    assert gm.locator(".layer-lights .light-mark").count() == 1
    assert gm.is_enabled("#edit-delete") and gm.is_enabled("#light-bright")
    # Dragged a square up: the server has it there.
    drag(gm, corner(gm, 10.5, 5.5), corner(gm, 10.5, 4.5))
    gm.wait_for_function("[...window.d6room.lightEdit.lights.values()][0].y === 4.5")
    # The bar's bright reach: dim follows where bright passes it.
    gm.fill("#light-bright", "9")
    gm.press("#light-bright", "Enter")
    gm.wait_for_function("[...window.d6room.lightEdit.lights.values()][0].dim === 9")
    # The GM's map shows the light's area, whole; the player never learns
    # of a light beyond the wall: no bat, no lit shape.
    gm.wait_for_selector(".layer-lit .lit-area .lit-bright")
    assert not has_token(player, cellar["bat"])
    assert player.locator(".layer-lit .lit-area").count() == 0
    assert player.evaluate("window.d6room.state().vision.lit") == []
    # From the keyboard: the focused sun moves with the arrows, Delete takes it away.
    gm.focus(".layer-lights .light-mark")
    gm.keyboard.press("ArrowLeft")
    gm.wait_for_function("[...window.d6room.lightEdit.lights.values()][0].x === 9.5")
    gm.keyboard.press("Delete")
    gm.wait_for_function("window.d6room.lightEdit.lights.size === 0")
    assert gm.locator(".layer-lights .light-mark").count() == 0
    gm.wait_for_selector(".layer-lit .lit-area", state="detached")  # nothing lit any more
    # Enter on the focused map places one mid-view; Tab reaches its sun.
    gm.focus("#map")
    gm.keyboard.press("Enter")
    gm.wait_for_function("window.d6room.lightEdit.lights.size === 1")
    gm.focus(".layer-lights .light-mark")
    gm.keyboard.press("Delete")
    gm.wait_for_function("window.d6room.lightEdit.lights.size === 0")
    # Focus goes back to the map once the sun is drawn away.
    gm.wait_for_function("document.activeElement?.id === 'map'", timeout=10_000)
    assert gm.evaluate("document.activeElement.id") == "map"
    assert gm.errors == [] and player.errors == []


def test_a_light_placed_in_the_dark_shows_the_player_its_area_and_the_rat_in_it(gm, player, cellar):
    rat = cellar["rat"]
    assert not has_token(player, rat)  # the Cellar is dark: Tenrec sees nothing
    gm.screenshot(path="/tmp/lightdraw-gm-dark-desk.png")
    player.screenshot(path="/tmp/lightdraw-player-dark-phone.png")
    light_tool(gm)
    gm.mouse.click(*corner(gm, 4.5, 2.5))  # between Tenrec and the rat
    gm.wait_for_function("window.d6room.lightEdit.lights.size === 1")
    player.wait_for_function(f"window.d6room.board.tokens.has({rat})")
    player.wait_for_selector(".layer-lit .lit-area .lit-dim")
    [lit] = player.evaluate("window.d6room.state().vision.lit")
    assert set(lit) == {"color", "bright", "dim"} and lit["color"] == "#ffb347"
    gm.wait_for_selector(".layer-lit .lit-area .lit-bright")
    gm.click("#edit-done")
    gm.screenshot(path="/tmp/lightdraw-gm-lit-desk.png")
    player.screenshot(path="/tmp/lightdraw-player-lit-phone.png")
    assert gm.errors == [] and player.errors == []


def test_a_drag_preview_keeps_the_lamps_light_in_sight_and_loses_it_behind_the_wall(player, cellar):
    """Tenrec sees nothing in the dark by himself: dragged, the preview
    draws the lamp's light the server sent wherever he would still see it
    from, and none of it from beyond the wall."""
    tenrec = cellar["tenrec"]
    player.wait_for_function(
        "window.d6room.vision.sight && window.d6room.state().vision.lit.length === 1"
    )
    drag_to = """([id, square, point]) => {
      const { board, vision } = window.d6room;
      vision.dragAt(board.tokens.get(id), square);
      return board.fog.sees(...point);
    }"""
    lamp_lit = [5.5, 3.5]  # in the lamp's light, two squares east of where Tenrec stands
    assert player.evaluate(drag_to, [tenrec, [3, 4], lamp_lit]) == "view"
    player.screenshot(path="/tmp/lightdraw-player-preview-phone.png")
    # Beyond the wall the lamp's room is out of sight: only remembered.
    assert player.evaluate(drag_to, [tenrec, [9, 3], lamp_lit]) == "explored"
    assert player.evaluate(drag_to, [tenrec, None, lamp_lit]) == "view"  # the drag ended
    assert player.errors == []
