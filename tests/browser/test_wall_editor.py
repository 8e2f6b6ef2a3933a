"""The GM's wall editor in a real browser: on the demo's tomb the GM traces a
vestry click to click (walls, a window dragged, a door), locks the door,
deletes a stray wall and takes the delete back, types an open gate, turns
fog on and the lights off, saves, and the scene stored holds exactly that. On a phone, taps draw
the same way. Screenshots go to tests/artifacts/."""

import pytest
from django import forms

from vtt.games.artifice.demo import WALLS as TOMB_WALLS
from vtt.web.gm_forms import read_walls

from .conftest import seeded_server
from .test_accessibility import violations
from .test_room import DESK, PHONE, log_in

pytestmark = pytest.mark.browser

TO_SCREEN = """([x, y]) => {
  const map = document.getElementById("wall-editor");
  const p = map.createSVGPoint();
  p.x = x;
  p.y = y;
  const q = p.matrixTransform(map.getScreenCTM());
  return [q.x, q.y];
}"""


@pytest.fixture(scope="module")
def tomb(tmp_path_factory, chromium_path):
    """{"url", "campaign", "scene", "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.walls_seed")


def open_editor(browser, tomb, viewport, **options):
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    log_in(page, tomb["url"], "gm", tomb["password"])
    page.goto(f"{tomb['url']}/campaigns/{tomb['campaign']}/gm/scenes/{tomb['scene']}/")
    page.wait_for_selector("#wall-toolbar:not([hidden])")
    page.locator("#wall-editor").scroll_into_view_if_needed()
    return context, page


def at(page, x, y):
    """The screen point of the grid corner (x, y)."""
    return page.evaluate(TO_SCREEN, [x, y])


def use(page, tool):
    page.get_by_role("radio", name=tool, exact=True).check()


def walls_typed(page):
    return [line for line in page.input_value("#id_walls").splitlines() if line.strip()]


def stored_scene(page, tomb):
    answer = page.request.get(f"{tomb['url']}/api/scenes/{tomb['scene']}/")
    assert answer.ok, answer.text()
    return answer.json()


VESTRY = [
    "14 2 14 5",
    "14 5 16 5",
    "16 5 18 5 window",
    "18 5 19 5 door",
    "19 5 22 5",
]


def test_the_gm_traces_a_vestry_click_to_click_and_saves_it(browser, tomb, shot):
    context, page = open_editor(browser, tomb, DESK)
    tomb_lines = walls_typed(page)
    assert tomb_lines == [" ".join(map(str, wall)) for wall in TOMB_WALLS]

    # A chain of walls, click to click; the double-click on its last corner ends it.
    page.mouse.click(*at(page, 14, 2))
    page.mouse.click(*at(page, 14, 5))
    page.mouse.move(*at(page, 16, 5))
    assert "Drawing walls from (14, 5)" in page.inner_text("#wall-hint")
    assert page.locator(".wall-draft").count() == 1  # the rubber band to the pointer
    shot(page, "30-wall-editor-drawing-desk")
    page.mouse.dblclick(*at(page, 16, 5))
    assert page.locator(".wall-anchor").count() == 0
    # A window, dragged from corner to corner.
    use(page, "Window")
    page.mouse.move(*at(page, 16, 5))
    page.mouse.down()
    page.mouse.move(*at(page, 18, 5), steps=6)
    page.mouse.up()
    # A door: its second corner ends it; then walls on to the chamber's side,
    # ended with Escape.
    use(page, "Door")
    page.mouse.click(*at(page, 18, 5))
    page.mouse.click(*at(page, 19, 5))
    use(page, "Wall")
    page.mouse.click(*at(page, 19, 5))
    page.mouse.click(*at(page, 22, 5))
    page.keyboard.press("Escape")
    page.mouse.click(*at(page, 12, 12))
    page.mouse.click(*at(page, 13, 12))
    page.keyboard.press("Escape")
    assert walls_typed(page) == tomb_lines + VESTRY + ["12 12 13 12"]
    assert page.locator("#wall-editor .kind-door").count() == 1
    assert page.locator("#wall-editor .kind-window").count() == 1

    # Select the door and lock it; the padlock shows on the map.
    use(page, "Select")
    page.mouse.click(*at(page, 18.5, 5))
    assert page.inner_text("#wall-selected") == "Line 11: (18, 5) to (19, 5)"
    page.get_by_label("Kind").select_option("door locked")
    assert page.locator("#wall-editor .segment:not(.chosen) .padlock").count() == 1

    # The stray wall goes with Delete, comes back with Undo, and goes again
    # with the Delete button.
    page.mouse.click(*at(page, 12.5, 12))
    page.keyboard.press("Delete")
    assert "12 12 13 12" not in walls_typed(page)
    page.get_by_role("button", name="Undo").click()
    assert walls_typed(page)[-1] == "12 12 13 12"
    page.mouse.click(*at(page, 12.5, 12))
    page.get_by_role("button", name="Delete").click()

    # Typed in the text area, a gate across the corridor shows on the map,
    # selected as the line the caret is on.
    page.locator("#id_walls").focus()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n5 6 5 10 door open")
    assert page.locator("#wall-editor .kind-door.open:not(.chosen)").count() == 1
    assert page.inner_text("#wall-selected") == "Line 13: (5, 6) to (5, 10)"

    drawn = tomb_lines + [*VESTRY[:3], "18 5 19 5 door locked", VESTRY[4], "5 6 5 10 door open"]
    assert walls_typed(page) == drawn
    page.get_by_label("Fog of war").check()
    page.get_by_label("Lit").uncheck()
    with page.expect_navigation():
        page.get_by_role("button", name="Save scene").click()
    assert page.locator("#scene-form .error").all_inner_texts() == []
    assert "Scene saved." in page.inner_text(".messages")

    scene = stored_scene(page, tomb)
    assert scene["walls"] == [
        *TOMB_WALLS,
        [14, 2, 14, 5],
        [14, 5, 16, 5],
        [16, 5, 18, 5, "window"],
        [18, 5, 19, 5, "door", "locked"],
        [19, 5, 22, 5],
        [5, 6, 5, 10, "door", "open"],
    ]
    assert (scene["fog"], scene["lit"]) == (True, False)
    # The page drawn again from the stored scene shows the same text.
    assert walls_typed(page) == drawn
    assert page.get_by_label("Fog of war").is_checked()
    page.locator("#wall-editor").scroll_into_view_if_needed()
    shot(page, "30-wall-editor-desk")
    assert violations(page) == []
    context.close()


LINES = [
    "0 0 12 0",
    "1, 2, 3, 4 wall",
    "0.5 1 2 1.5 Window",
    "4 4 5 4 door",
    "4 4 5 4 door closed",
    "5 4 6 4 DOOR open",
    "6 4 7 4 door locked",
    "1e1 0 12 0",
    "1 2 3",
    "1 2 3 door",
    "0x10 0 1 1",
    "1_0 0 1 1",
    "1e999 0 1 1",
    "Infinity 0 1 1",
    "0 0 1 1 gate",
    "0 0 1 1 door ajar",
    "0 0 1 1 window open",
]


def test_the_editor_reads_each_line_as_the_server_does(browser, tomb):
    """What the map draws from a line is what the form saves from it, and a
    line the form refuses is one the map does not draw."""
    context, page = open_editor(browser, tomb, DESK)
    from_js = page.evaluate(
        """async (lines) => {
            const t = await import('/static/js/gm/wall_text.js');
            return lines.map((line) => {
                const read = t.readLine(line);
                return read && [...read.ends, ...read.kind.split(" ").filter((w) => w !== "wall")];
            });
        }""",
        LINES,
    )
    for line, drawn in zip(LINES, from_js, strict=True):
        try:
            saved = read_walls(line)[0]
        except forms.ValidationError:
            saved = None
        assert drawn == saved, line
    context.close()


def test_on_a_phone_taps_draw_a_chain(browser, tomb, shot):
    context, page = open_editor(browser, tomb, PHONE, has_touch=True, is_mobile=True)
    before = walls_typed(page)
    for corner in ((2, 12), (6, 12), (6, 14)):
        page.touchscreen.tap(*at(page, *corner))
    page.touchscreen.tap(*at(page, 6, 14))  # the same corner again ends the chain
    page.touchscreen.tap(*at(page, 8, 14))  # so this one starts a new one
    assert walls_typed(page) == [*before, "2 12 6 12", "6 12 6 14"]
    assert page.locator(".wall-anchor").count() == 1
    assert page.inner_text("#wall-hint") == (
        "Drawing walls from (8, 14): tap the next corner, or the same one again to end."
    )
    # Nothing on the page scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "30-wall-editor-phone")
    context.close()
