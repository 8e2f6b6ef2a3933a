"""Area templates in a real browser. The player (390x844, a finger) opens
the Template bar, sizes a cone in squares (the feet follow), puts it down
on the map and turns it by a drag: the goblin and the orc are ringed and
listed as inside, never the hidden lurker; placed, the cone reaches the GM
(1440x900). The GM drags a GM-only burst that the player's page never
holds. From the attack panel the player attacks every token in the cone:
the server adjudicates one attack for the goblin and one for the orc, each
with its own log entry on both pages. The player takes the cone off.
Screenshots: tests/artifacts/ (docs/img/templates-gm-desk.jpg is made from
templates-gm-desk.jpg there); a test never writes into the repository."""

import pytest

from tests.browser import room
from tests.browser.conftest import ARTIFACTS, seeded_server
from tests.browser.room import finger_drag, show_tab

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.templates_seed")


@pytest.fixture(scope="module")
def gm(browser, table):
    page = room.open_room(browser, table, table["campaign"], "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, table):
    page = room.open_room(browser, table, table["campaign"], "player", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    yield page
    page.context.close()


def corner(page, x, y):
    """Client coordinates of the grid intersection (x, y): square (x, y)'s top-left corner."""
    return page.evaluate(
        """([x, y]) => {
            const b = window.d6room.board;
            const r = b.view.screenBox();
            return [r.left + b.view.tx + x * b.view.scale, r.top + b.view.ty + y * b.view.scale];
        }""",
        [x, y],
    )


def open_bar(page):
    """The Template button, as a person reaches it: under "More tools" on a phone."""
    toggle = page.locator("#tools-more-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.click("#tool-template")
    page.wait_for_selector("#template-bar:not([hidden])")


def placed(page) -> list[dict]:
    return page.evaluate(
        "() => Object.values(window.d6room.state().templates || {}).sort((a, b) => a.id - b.id)"
    )


def wait_placed(page, count):
    page.wait_for_function(
        "n => Object.keys(window.d6room.state()?.templates || {}).length === n", arg=count
    )
    page.wait_for_function(
        "n => document.querySelectorAll('.layer-templates .template:not(.placing)').length === n",
        arg=count,
    )


def test_the_player_sizes_a_cone_and_turns_it_by_drag_over_the_tokens(player, gm, shot):
    open_bar(player)
    assert player.input_value("#template-shape") == "cone"
    player.fill("#template-size", "5")
    assert player.input_value("#template-feet") == "25"
    # Feet set the squares too; a size past the grid's is said at once.
    player.fill("#template-feet", "10000")
    assert "1 to 100 squares" in player.inner_text("#template-error")
    player.fill("#template-feet", "25")
    assert player.input_value("#template-size") == "5"
    assert player.inner_text("#template-error") == ""
    player.fill("#template-label", "Frost fan")
    player.locator("#template-label").dispatch_event("change")
    # A finger puts it on the corner (3, 4) and turns it east, to (8, 4).
    start, end = corner(player, 3, 4), corner(player, 8, 4.3)
    finger_drag(player, start, end)
    player.wait_for_function(
        "() => document.querySelector('#template-inside').textContent.includes('2 inside')"
    )
    inside = player.inner_text("#template-inside")
    assert "25-ft cone (Frost fan)" in inside
    assert "Goblin, Orc" in inside and "Lurker" not in inside and "Kobor" not in inside
    rings = player.locator(".layer-templates .template.placing .template-held")
    assert rings.count() == 2
    shot(player, "60-player-template-placing-phone")
    player.click("#template-place")
    player.wait_for_selector("#template-bar", state="hidden")
    wait_placed(player, 1)
    wait_placed(gm, 1)
    cone = placed(gm)[0]
    assert (cone["shape"], cone["x"], cone["y"], cone["size"]) == ("cone", 3, 4, 5)
    assert cone["angle"] in range(0, 6) and cone["label"] == "Frost fan"
    assert not player.errors and not gm.errors


def test_the_gms_secret_burst_never_reaches_the_player(gm, player, shot):
    open_bar(gm)
    gm.select_option("#template-shape", "circle")
    gm.fill("#template-size", "2")
    gm.check("#template-gm-only")
    gm.fill("#template-label", "Pit trap")
    gm.locator("#template-label").dispatch_event("change")
    # Pressed on (10, 6), dragged to (11, 7): a burst follows the pointer.
    gm.mouse.move(*corner(gm, 10, 6))
    gm.mouse.down()
    gm.mouse.move(*corner(gm, 11, 7), steps=6)
    gm.mouse.up()
    gm.wait_for_function(
        "() => document.querySelector('#template-inside').textContent.includes('10-ft burst')"
    )
    # The GM sees the lurker inside the cone too: their list of placed ones.
    assert "Frost fan" in gm.inner_text("#template-list")
    # The desk's picture for the docs: the cone placed, the pit being placed.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    gm.screenshot(path=str(ARTIFACTS / "templates-gm-desk.jpg"), type="jpeg", quality=80)
    gm.keyboard.press("Enter")
    wait_placed(gm, 2)
    burst = placed(gm)[1]
    assert (burst["shape"], burst["x"], burst["y"], burst["gm_only"]) == ("circle", 11, 7, True)
    gm.wait_for_selector(".layer-templates .template.gm-only")
    shot(gm, "61-gm-templates-desk")
    # The player's page holds the cone alone, and draws nothing of the pit.
    player.wait_for_function("() => window.d6room.state().seq >= 0")
    assert [t["label"] for t in placed(player)] == ["Frost fan"]
    assert "Pit trap" not in player.content()


def test_the_player_attacks_every_token_in_the_cone(player, gm, table, shot):
    show_tab(player, "roll")
    player.click("#tab-attack")
    assert player.input_value("#attack-attacker") == str(table["tokens"]["kobor"])
    cone = placed(player)[0]
    player.select_option("#attack-target", f"t:{cone['id']}")
    player.select_option("#attack-weapon", "Frost ray")
    player.wait_for_function(
        "() => document.querySelector('#attack-measure').textContent.includes('Goblin, Orc')"
    )
    assert "One attack against each of the 2" in player.inner_text("#attack-odds")
    shot(player, "62-player-area-attack-phone")
    player.click("#attack-go")
    player.wait_for_function(
        "() => document.querySelector('#attack-result').textContent.includes('2 attacks')"
    )
    result = player.inner_text("#attack-result")
    assert "Goblin:" in result and "Orc:" in result and "Lurker" not in result
    # One adjudication each: two log entries, on both pages, each its own dice.
    for page in (gm, player):
        show_tab(page, "log")
        page.wait_for_function("() => document.querySelectorAll('#log .attack-entry').length === 2")
    attacks = gm.evaluate(
        """() => window.d6room.state().log.filter((e) => e.type === 'combat.attack')
                 .map((e) => [e.data.attack.target.name, e.data.attack.steps.length])"""
    )
    assert sorted(name for name, _ in attacks) == ["Goblin", "Orc"]
    assert all(steps >= 1 for _, steps in attacks)
    shot(gm, "63-gm-area-attack-log-desk")


def test_the_player_takes_the_cone_off(player, gm):
    open_bar(player)
    player.wait_for_selector("#template-list li button")
    # The GM's pit is not theirs to see, the cone theirs to remove.
    assert player.locator("#template-list li").count() == 1
    player.click("#template-list li button")
    wait_placed(player, 0)
    wait_placed(gm, 1)
    player.click("#template-done")
    player.wait_for_selector("#template-bar", state="hidden")
    # Read again as after a change of map: the GM's pit alone is left.
    gm.evaluate("() => window.d6room.templates.load()")
    assert [t["label"] for t in placed(gm)] == ["Pit trap"]
    wait_placed(gm, 1)
    assert not player.errors and not gm.errors
