"""The map's own geometry against the rules' (vtt/rules/grid.py), the
keyboard on the map, and the dice tray of every game in a real browser."""

import random

import pytest

from tests.browser.room import log_in_by_form, show_tab
from vtt.rules import grid

from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def gm_page(browser, table):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, table["url"], "gm", table["password"])
    yield page
    context.close()


def test_the_maps_geometry_agrees_with_the_rules(gm_page, table):
    gm_page.goto(table["url"] + "/")
    rnd = random.Random(6)
    walls = [[4, 0, 4, 5], [4, 7, 4, 10], [0, 6, 3, 6], [6, 2, 9, 2], [7, 5, 8, 6]]
    cases = []
    for _ in range(12):
        origin = [rnd.randrange(10), rnd.randrange(9)]
        range_ft = rnd.choice([None, 10, 15, 25, "line_of_sight"])
        diagonal = rnd.choice(["uniform", "alternating"])
        cases.append([origin, range_ft, diagonal])
    from_js = gm_page.evaluate(
        """async ([cases, walls]) => {
            const g = await import('/static/js/map/grid.js');
            return cases.map(([o, r, d]) => g.rangeBands(o, r, 10, 9, walls, d));
        }""",
        [cases, walls],
    )
    for (origin, range_ft, diagonal), bands in zip(cases, from_js, strict=True):
        expected = grid.range_bands(tuple(origin), range_ft, 10, 9, walls, diagonal)
        assert bands == expected, (origin, range_ft, diagonal)


def test_keyboard_moves_a_token_and_shows_its_range_bands(gm_page, table, shot):
    enter_room(gm_page, table)
    tenrec = gm_page.locator(f'[data-token-id="{table["tenrec_token"]}"]')
    tenrec.focus()
    start = gm_page.evaluate(
        "id => { const t = window.d6room.board.tokens.get(id); return [t.x, t.y]; }",
        table["tenrec_token"],
    )
    gm_page.keyboard.press("ArrowRight")
    gm_page.wait_for_function(
        "([id, x]) => window.d6room.board.tokens.get(id).x === x",
        arg=[table["tenrec_token"], start[0] + 1],
    )
    gm_page.select_option("#band-range", label="Bow (missile, 30 ft)")  # Tenrec's bow
    gm_page.wait_for_selector(".layer-bands rect.band-near")
    # Its own square and the eight around it (it is nowhere near an edge);
    # the server's bands come as runs of squares along each row.
    adjacent = gm_page.eval_on_selector_all(
        ".layer-bands rect.band-adjacent",
        "rs => rs.reduce((n, r) => n + Number(r.dataset.squares), 0)",
    )
    assert adjacent == 9
    # The ruler from the keyboard: R on the map, then arrows move its far end.
    gm_page.focus("#map")
    gm_page.keyboard.press("r")
    for _ in range(3):
        gm_page.keyboard.press("ArrowRight")
    assert "15 ft" in gm_page.inner_text("#map-status")
    shot(gm_page, "08-gm-bands-and-ruler-desk")
    gm_page.keyboard.press("r")


def test_a_characters_sheet_fills_the_tray(gm_page, table):
    enter_room(gm_page, table)
    show_tab(gm_page, "roll")
    gm_page.select_option("#tray-action", "check")
    gm_page.select_option("#tray-character", label="Tenrec")
    gm_page.select_option("#tray-f-pool-sheet", label="Might 3D+1")
    assert gm_page.input_value("#tray-f-pool") == "3"
    assert gm_page.input_value("#tray-f-modifier") == "1"
    gm_page.wait_for_selector("#odds li[data-outcome=success]")


def test_the_gm_renames_and_hides_a_token_from_the_map(gm_page, table, shot):
    enter_room(gm_page, table)
    zombie = gm_page.locator(f'[data-token-id="{table["zombie_token"]}"]')
    zombie.focus()
    gm_page.keyboard.press("Enter")
    gm_page.click("#token-edit")
    gm_page.fill("#token-name", "Zombie (burning)")
    shot(gm_page, "08-gm-token-dialog-desk")
    gm_page.click("#token-dialog-form button[type=submit]")
    gm_page.wait_for_function(
        "id => window.d6room.board.tokens.get(id).name === 'Zombie (burning)'",
        arg=table["zombie_token"],
    )
    assert gm_page.locator("#token-dialog[open]").count() == 0
    # Reveal, then hide again: the map follows the server's events.
    # Its word at a desk, "Reveal"; whole for a screen reader.
    assert gm_page.inner_text("#token-hide [data-verb]") == "Reveal"
    assert gm_page.get_by_role("button", name="Reveal token", exact=True).count() == 1
    gm_page.click("#token-hide")
    gm_page.wait_for_function(
        "id => !window.d6room.board.tokens.get(id).hidden", arg=table["zombie_token"]
    )
    assert "hidden-token" not in zombie.get_attribute("class")
    assert gm_page.get_by_role("button", name="Hide token", exact=True).count() == 1
    gm_page.click("#token-hide")
    gm_page.wait_for_function(
        "id => window.d6room.board.tokens.get(id).hidden", arg=table["zombie_token"]
    )


@pytest.mark.parametrize("game", ["artifice", "fgr", "xerosum", "rd6", "apocalyptia"])
def test_every_trays_action_gets_its_odds(gm_page, table, game, shot):
    gm_page.goto(f"{table['url']}/campaigns/{table['games'][game]}/room/")
    gm_page.wait_for_selector("#conn[data-state=open]")
    actions = gm_page.eval_on_selector_all("#tray-action option", "os => os.map(o => o.value)")
    assert actions
    for action in actions:
        gm_page.select_option("#tray-action", action)
        gm_page.wait_for_function(
            "() => document.querySelector('#odds li[data-outcome], #odds .odds-dist, #odds .odds-certain')"
            " && !document.querySelector('#odds[aria-busy]')"
        )
        error = gm_page.inner_text("#tray-error")
        assert error == "", f"{game} {action}: {error}"
    gm_page.select_option("#tray-action", actions[0])
    gm_page.click("#tray-roll")
    show_tab(gm_page, "log")
    gm_page.wait_for_selector("#log li.roll-entry")
    if game == "xerosum":
        # The roller may spend Insight Dice on their own check, from its log entry.
        gm_page.click("#log li.roll-entry .reroll button >> nth=0")
        gm_page.wait_for_function("document.querySelectorAll('#log > li.roll-entry').length === 2")
        assert "reroll" in gm_page.locator("#log > li.roll-entry").last.inner_text()
    assert gm_page.errors == []
    shot(gm_page, f"09-tray-{game}-desk")


def test_pages_at_phone_size(browser, table, shot):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(table["url"] + "/")
    shot(page, "10-landing-phone")
    log_in_by_form(page, table["url"], "gm", table["password"])
    shot(page, "10-lobby-phone")
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/gm/")
    shot(page, "10-gm-console-phone")
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/characters/new/")
    shot(page, "10-character-new-phone")
    # Nothing is wider than the phone: no sideways scrolling.
    for path in (
        "/",
        f"/campaigns/{table['campaign']}/gm/",
        f"/campaigns/{table['campaign']}/room/",
        f"/campaigns/{table['campaign']}/characters/new/",
    ):
        page.goto(table["url"] + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width}px wide"
    context.close()
