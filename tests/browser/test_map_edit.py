"""The GM's editing mode on the room's map ("Edit map"), in the Vault of
tests/browser/fog_seed.py: the GM moves a wall by dragging its end and
back from the keyboard, deletes a door and undoes it, opens a door from
the bar, covers and reveals an area; the player's page, another browser,
follows each at once. A GM on a phone deletes a wall and shuts a door."""

import pytest

from . import room
from .conftest import seeded_server
from .room import square_centre
from .test_map_tools import corner, drag, pressed, sees
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
    page.wait_for_selector(".layer-fog.fog-on")
    yield page
    page.context.close()


def wall_is(page, index, text):
    page.wait_for_function(f"window.d6room.board.scene.walls[{index}].join() === '{text}'")


def has_wall(page, text, present=True):
    test = f"window.d6room.board.scene.walls.some((w) => w.join() === '{text}')"
    page.wait_for_function(test if present else f"!{test}")


def player_sees(page, x, y, what):
    page.wait_for_function(f"window.d6room.board.fog.sees({x} + 0.5, {y} + 0.5) === '{what}'")


def test_the_gm_moves_a_wall_by_its_end_and_the_players_fog_follows(gm, player, shot):
    assert sees(player, 8, 0) != "view"  # behind the wall down column 7
    gm.click("#tool-walls")
    assert pressed(gm, "#tool-walls") and gm.is_visible("#map-edit")
    gm.select_option("#edit-tool", "select")
    gm.mouse.click(*corner(gm, 7, 1.5))  # the middle of walls[0], (7, 0) to (7, 3)
    assert gm.is_enabled("#edit-delete") and gm.is_hidden("#edit-door")
    assert gm.locator(".layer-wall-edit .wall-end").count() == 2
    # Its top end dragged two squares east: the wall now leans, and the
    # player sees past where it stood.
    drag(gm, corner(gm, 7, 0), corner(gm, 9, 0))
    wall_is(gm, 0, "9,0,7,3")
    player_sees(player, 8, 0, "view")
    wall_is(player, 0, "9,0,7,3")
    shot(gm, "mapedit-gm-moves-a-wall-desk")
    # From the keyboard: the end just dragged is held; Shift+Left twice puts it back.
    gm.focus("#map")
    gm.keyboard.press("Shift+ArrowLeft")
    gm.keyboard.press("Shift+ArrowLeft")
    wall_is(gm, 0, "7,0,7,3")
    player_sees(player, 8, 0, "explored")
    assert gm.errors == [] and player.errors == []


def test_the_gm_deletes_a_door_and_undoes_it_and_the_player_sees_through_then_not(
    gm, player, vault
):
    ghoul = vault["ghoul"]
    assert not player.evaluate(f"window.d6room.board.tokens.has({ghoul})")
    gm.mouse.click(*corner(gm, 7, 3.5))  # the door beside Tenrec
    gm.wait_for_selector("#edit-door:not([hidden])")
    assert gm.inner_text("#edit-door") == "Open door"
    gm.click("#edit-delete")
    has_wall(gm, "7,3,7,4,door", present=False)
    player.wait_for_function(f"window.d6room.board.tokens.has({ghoul})")
    player_sees(player, 9, 3, "view")
    # Undo on the map puts the door back; the ghoul is out of sight again.
    gm.focus("#map")
    gm.keyboard.press("Control+z")
    has_wall(gm, "7,3,7,4,door")
    player.wait_for_function(f"!window.d6room.board.tokens.has({ghoul})")
    player_sees(player, 9, 3, "explored")
    assert gm.errors == [] and player.errors == []


def test_a_selected_segment_stays_selected_when_the_scenes_order_comes_back_different(gm):
    """The scene puts a wall back by Undo last, where the editor had it in
    its old line: the answer that brings the scene's order must leave the
    GM's selection on the segment clicked meanwhile, not on its old line."""
    held = gm.evaluate(
        """() => {
            const edit = window.d6room.wallEdit;
            const far = edit.lines.segments().find((s) => s.ends.join() === "7,7,7,8");
            edit.editor.select(far.line);
            const walls = window.d6room.board.scene.walls;
            edit.take([walls[walls.length - 1], ...walls.slice(0, -1)]);  // another order
            const held = edit.lines.segmentAt(edit.editor.selected).ends.join();
            edit.take(walls);  // the scene's own order back
            return [held, edit.lines.segmentAt(edit.editor.selected).ends.join()];
        }"""
    )
    assert held == ["7,7,7,8", "7,7,7,8"]
    gm.keyboard.press("Escape")
    gm.wait_for_function("window.d6room.wallEdit.editor.selected === -1")


def test_the_gm_opens_a_door_from_the_bar(gm, player):
    gm.mouse.click(*corner(gm, 7, 7.5))  # the far door
    gm.wait_for_selector("#edit-door:not([hidden])")
    gm.click("#edit-door")
    has_wall(gm, "7,7,7,8,door,open")
    has_wall(player, "7,7,7,8,door,open")
    gm.wait_for_function("document.getElementById('edit-door').textContent === 'Close door'")
    # The scene's change keeps the tool chosen.
    assert gm.input_value("#edit-tool") == "select"


def test_the_gm_covers_and_reveals_an_area_and_cover_says_what_it_cannot(gm, player, shot):
    gm.select_option("#edit-tool", "cover")
    assert pressed(gm, "#tool-walls") and gm.is_visible("#map-edit")
    assert "cannot hide what a token sees now" in gm.inner_text("#edit-note")
    assert gm.is_hidden("#edit-undo") and gm.is_hidden("#edit-delete")
    # Over Tenrec's room and the part of the east room seen through the door.
    drag(gm, square_centre(gm, 4, 2), square_centre(gm, 10, 4))
    player_sees(player, 9, 3, "unexplored")
    assert sees(player, 5, 3) == "view"  # what Tenrec sees now stays in view
    shot(gm, "mapedit-gm-covers-an-area-desk")
    gm.select_option("#edit-tool", "reveal")
    assert "Reveal adds the area" in gm.inner_text("#edit-note")
    drag(gm, square_centre(gm, 12, 0), square_centre(gm, 13, 1))
    player_sees(player, 12, 0, "explored")
    player_sees(player, 9, 3, "unexplored")
    shot(player, "mapedit-player-after-cover-and-reveal-phone")
    gm.click("#edit-done")
    assert not pressed(gm, "#tool-walls") and gm.is_hidden("#map-edit")
    assert not gm.evaluate("window.d6room.board.tool")
    assert gm.errors == [] and player.errors == []


def test_the_gm_draws_a_wall_from_the_keyboard(gm, player):
    gm.click("#tool-walls")
    gm.select_option("#edit-tool", "wall")
    gm.focus("#map")
    # The corner starts in the map's middle, (7, 4): three squares east.
    for key in ["ArrowRight"] * 3 + ["Enter"] + ["ArrowDown"] * 2 + ["Enter", "Escape"]:
        gm.keyboard.press(key)
    has_wall(gm, "10,4,10,6")
    has_wall(player, "10,4,10,6")
    gm.keyboard.press("Control+z")
    has_wall(player, "10,4,10,6", present=False)
    gm.click("#edit-done")
    assert gm.errors == []


def test_a_gm_on_a_phone_deletes_a_wall_and_shuts_a_door(browser, vault, player, shot):
    phone = room.open_room(browser, vault, vault["campaign"], "gm", PHONE, touch=True)
    try:
        phone.tap("#tools-more-toggle")
        phone.tap("#tool-walls")
        phone.wait_for_selector("#map-edit:not([hidden])")
        assert phone.is_visible("#edit-done")
        phone.select_option("#edit-tool", "select")
        phone.touchscreen.tap(*corner(phone, 13, 5))  # the closet's top wall
        phone.wait_for_function("!document.getElementById('edit-delete').disabled")
        shot(phone, "mapedit-gm-selects-a-wall-phone")
        phone.tap("#edit-delete")
        has_wall(phone, "12,5,14,5", present=False)
        has_wall(player, "12,5,14,5", present=False)
        phone.touchscreen.tap(*corner(phone, 7, 7.5))  # the door the GM opened
        phone.wait_for_selector("#edit-door:not([hidden])")
        assert phone.inner_text("#edit-door") == "Close door"
        phone.tap("#edit-door")
        has_wall(player, "7,7,7,8,door")
        phone.wait_for_function("document.getElementById('edit-door').textContent === 'Open door'")
        assert phone.input_value("#edit-tool") == "select"
        shot(phone, "mapedit-gm-edits-on-a-phone")
        assert phone.errors == []
    finally:
        phone.context.close()


def test_each_change_is_sent_as_the_one_edit_it_is(gm):
    """room/wall_edit.js's editBetween: a line added anywhere is a wall.add,
    one taken out a wall.delete by its index and ends, one changed a
    wall.change (the ends alone when the kind stayed); more than one change
    is no single edit (the page then saves the whole list)."""
    edits = gm.evaluate(
        """async () => {
            const { editBetween } = await import("/static/js/room/wall_edit.js");
            const before = ["0 0 1 0", "1 0 1 1 door open", "2 2 3 3 window"];
            return [
                editBetween(before, [...before, "4 4 5 4 door"]),
                editBetween(before, ["0 0 1 0", "9 9 8 8", "1 0 1 1 door open", "2 2 3 3 window"]),
                editBetween(before, ["0 0 1 0", "2 2 3 3 window"]),
                editBetween(before, ["0 0 1 0", "1 0 1 2 door open", "2 2 3 3 window"]),
                editBetween(before, ["0 0 1 0", "1 0 1 1 door locked", "2 2 3 3 window"]),
                editBetween(before, ["0 0 2 0", "1 0 1 2 door open", "2 2 3 3 window"]),
                editBetween(before, ["2 2 3 3 window"]),
                editBetween([], ["0 0 1 0"]),
            ];
        }"""
    )
    assert edits == [
        {"type": "wall.add", "wall": [4, 4, 5, 4, "door"]},
        {"type": "wall.add", "wall": [9, 9, 8, 8]},
        {"type": "wall.delete", "index": 1, "was": [1, 0, 1, 1]},
        {"type": "wall.change", "index": 1, "was": [1, 0, 1, 1], "wall": [1, 0, 1, 2]},
        {
            "type": "wall.change",
            "index": 1,
            "was": [1, 0, 1, 1],
            "wall": [1, 0, 1, 1, "door", "locked"],
        },
        None,
        None,
        {"type": "wall.add", "wall": [0, 0, 1, 0]},
    ]
