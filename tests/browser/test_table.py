"""The room as a table: the map keeps every token in sight whatever the side
panel does, on a desk, a phone and a tablet; a roll starts from the sheet;
and a GM rolls and moves with the keyboard alone. Screenshots go to
tests/artifacts/."""

import pytest

from tests.browser.room import finger_drag, show_tab, square_centre

from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}

# Tokens whose square lies outside the map's visible box, by id. The square
# is where the board draws the token (its grid place through the view's
# transform), so the check holds whatever the token looks like.
CLIPPED = """() => {
    const board = window.d6room.board;
    const wrap = document.getElementById('map-wrap').getBoundingClientRect();
    const svg = board.view.screenBox();
    const out = [];
    for (const t of board.tokens.values()) {
        const left = svg.left + board.view.tx + t.x * board.view.scale;
        const top = svg.top + board.view.ty + t.y * board.view.scale;
        const side = (t.size || 1) * board.view.scale;
        if (left < wrap.left - 0.5 || top < wrap.top - 0.5 ||
            left + side > wrap.right + 0.5 || top + side > wrap.bottom + 0.5) out.push(t.id);
    }
    return out;
}"""


def settled(page):
    # The map refits on the frame after its box changes.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def every_token_in_sight(page, when: str):
    settled(page)
    assert page.evaluate("window.d6room.board.tokens.size") > 0
    assert page.evaluate(CLIPPED) == [], f"tokens clipped after {when}"
    box = page.locator("#map-wrap").bounding_box()
    assert box["height"] > 150, f"the map is {box['height']} px tall after {when}"


def open_page(browser, table, who, viewport, touch=False):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    log_in(page, table["url"], who, table["password"])
    enter_room(page, table)
    return page


@pytest.mark.parametrize(
    "viewport, touch, name",
    [(DESK, False, "desk"), (PHONE, True, "phone"), (TABLET, True, "tablet")],
)
def test_every_token_stays_in_sight_whatever_the_panel_does(
    browser, table, shot, viewport, touch, name
):
    page = open_page(browser, table, "gm", viewport, touch)
    try:
        every_token_in_sight(page, "loading")
        for tab in ("log", "chat", "sheet", "gm", "roll"):
            show_tab(page, tab)
            every_token_in_sight(page, f"opening the {tab} tab")
        show_tab(page, "gm")
        page.click("#encounter-start")
        page.wait_for_selector("#turns[data-state=running]")
        every_token_in_sight(page, "starting an encounter")
        shot(page, f"30-gm-encounter-strip-{name}")
        page.click("#panel-toggle")
        assert page.get_attribute("#room", "data-panel") == "closed"
        every_token_in_sight(page, "folding the panel")
        shot(page, f"31-gm-panel-folded-{name}")
        page.click("#panel-toggle")
        every_token_in_sight(page, "unfolding the panel")
        if viewport is DESK:
            before = page.locator("#side").bounding_box()["width"]
            page.focus("#panel-resizer")
            for _ in range(5):
                page.keyboard.press("ArrowLeft")
            assert page.locator("#side").bounding_box()["width"] > before
            every_token_in_sight(page, "widening the panel")
        page.once("dialog", lambda dialog: dialog.accept())
        show_tab(page, "gm")
        page.click("#encounter-end")
        page.wait_for_selector("#turns[data-state=none]", state="attached")
        every_token_in_sight(page, "ending the encounter")
        # A zoom the user chose survives the panel: the scale is kept.
        page.click("#zoom-in")
        scale = page.evaluate("window.d6room.board.view.scale")
        show_tab(page, "log")
        settled(page)
        assert page.evaluate("window.d6room.board.view.scale") == scale
        page.click("#zoom-fit")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        page.context.close()


def test_a_roll_starts_from_the_sheet_on_a_phone(browser, table, shot):
    page = open_page(browser, table, "player", PHONE, touch=True)
    try:
        # The player's only character is chosen for them.
        show_tab(page, "roll")
        assert page.locator("#tray-character option:checked").inner_text() == "Tenrec"
        show_tab(page, "sheet")
        assert page.locator("#sheet-character option:checked").inner_text() == "Tenrec"
        page.click("#sheet-view .sheet-entries button:has-text('Might')")
        page.wait_for_selector("#panel-roll:not([hidden])")
        assert page.input_value("#tray-f-pool") == "3"
        assert page.input_value("#tray-f-modifier") == "1"
        page.wait_for_selector("#odds li[data-outcome]")
        rolls = page.locator("#log li.roll-entry").count()
        box = page.locator("#tray-roll").bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], "the Roll button is below the screen"
        shot(page, "32-player-roll-from-sheet-phone")
        page.click("#tray-roll")
        page.wait_for_function(
            "n => document.querySelectorAll('#log li.roll-entry').length > n", arg=rolls
        )
        assert "Tenrec" in page.locator("#log li.roll-entry").last.inner_text()
        # The choice is remembered after a reload.
        page.reload()
        page.wait_for_selector("#conn[data-state=open]")
        assert page.locator("#tray-character option:checked").inner_text() == "Tenrec"
    finally:
        page.context.close()


def test_the_gm_moves_and_rolls_with_the_keyboard_alone(browser, table, shot):
    page = open_page(browser, table, "gm", DESK)
    try:
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Skip to the map"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "map"
        page.keyboard.press("Tab")
        token_id = page.evaluate("Number(document.activeElement.dataset.tokenId)")
        assert token_id
        x = page.evaluate("id => window.d6room.board.tokens.get(id).x", token_id)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id).x === x + 1", arg=[token_id, x]
        )
        # On to the Roll button, counting the stops.
        stops = 0
        while page.evaluate("document.activeElement.id") != "tray-roll":
            stops += 1
            assert stops < 40, "Tab took 40 stops without reaching the Roll button"
            page.keyboard.press("Tab")
        rolls = page.locator("#log li.roll-entry").count()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => document.querySelectorAll('#log li.roll-entry').length > n", arg=rolls
        )
        shot(page, "33-gm-keyboard-roll-desk")
    finally:
        page.context.close()


def test_a_finger_drags_a_token_on_a_phone(browser, table, shot):
    page = open_page(browser, table, "player", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    try:
        token_id = table["tenrec_token"]
        x, y = page.evaluate(
            "id => [window.d6room.board.tokens.get(id).x, window.d6room.board.tokens.get(id).y]",
            token_id,
        )
        # However small the token is drawn, a finger has 44 px to take it by.
        scale = page.evaluate("window.d6room.board.view.scale")
        hit = page.locator(f'circle.hit[data-hit-for="{token_id}"]').bounding_box()
        assert hit["width"] >= 43.5, (scale, hit)
        finger_drag(page, square_centre(page, x, y), square_centre(page, x + 1, y), steps=5)
        page.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id).x === x", arg=[token_id, x + 1]
        )
        shot(page, "34-player-touch-drag-phone")
    finally:
        page.context.close()
