"""Fog of war in a real browser, in tests/browser/fog_seed.py's Vault: the
player sees only what Tenrec sees (black beyond, the ghoul not on their
page); the GM, seeing everything, opens, closes, locks and unlocks a door
from the map and the player's view follows; the player opens the door
beside their token and is refused one across the room; the token dialog
saves sight and light; the GM sees as the party, then reveals and covers an
area; a drag shows the view from the square under the pointer; the turn
order names only the combatants the player sees. The pages
stay free of serious axe violations. Screenshots go to tests/artifacts/."""

import pytest

from tests.browser import room
from tests.browser.room import log_in, show_tab, square_centre

from .conftest import ROOT, seeded_server
from .test_accessibility import violations
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

DOOR, FAR_DOOR = 1, 4  # fog_seed.WALLS: the door beside Tenrec, the one across the room
SIGHT_JS = ROOT / "static" / "js" / "map" / "sight.js"


@pytest.fixture(scope="module")
def vault(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.fog_seed")


def open_room(browser, vault, who, viewport):
    # Confirmations answered yes: "Forget everything ... explored?"
    return room.open_room(browser, vault, vault["campaign"], who, viewport, accept=True)


@pytest.fixture(scope="module")
def gm(browser, vault):
    page = open_room(browser, vault, "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, vault):
    page = open_room(browser, vault, "player", PHONE)
    yield page
    page.context.close()


def sees(page, x, y):
    """What that page's fog makes of the middle of square (x, y)."""
    return page.evaluate("([x, y]) => window.d6room.board.fog.sees(x + 0.5, y + 0.5)", [x, y])


def wait_sees(page, x, y, what):
    page.wait_for_function(
        "([x, y, what]) => window.d6room.board.fog.sees(x + 0.5, y + 0.5) === what",
        arg=[x, y, what],
    )


def has_token(page, token_id):
    return page.evaluate("id => window.d6room.board.tokens.has(id)", token_id)


def door(page, index):
    return page.locator(f'.door[data-wall="{index}"]')


def click_door(page, index, shift=False):
    """A click on the middle of the door's opening (an open door's leaf
    stands aside, so the middle of its drawing is empty floor)."""
    x, y = page.evaluate(
        """index => {
            const b = window.d6room.board;
            const d = b.doors.get(index);
            const r = b.view.screenBox();
            return [r.left + b.view.tx + (d.x1 + d.x2) / 2 * b.view.scale,
                    r.top + b.view.ty + (d.y1 + d.y2) / 2 * b.view.scale];
        }""",
        index,
    )
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(x, y)
    if shift:
        page.keyboard.up("Shift")


def wait_door(page, index, state):
    page.wait_for_selector(f'.door[data-wall="{index}"][data-state="{state}"]')


def status(page):
    return page.text_content("#map-status")


def test_the_player_sees_only_what_their_token_sees(gm, player, vault, shot):
    player.wait_for_selector(".layer-fog.fog-on")
    assert sees(player, 5, 3) == "view"  # Tenrec's own square
    assert sees(player, 10, 2) == "unexplored"  # behind the closed door
    assert not has_token(player, vault["ghoul"])
    assert player.get_attribute(f'.door[data-wall="{DOOR}"]', "aria-label").startswith(
        "Door, closed"
    )
    # The GM sees the whole map and every token: no fog.
    assert gm.locator(".layer-fog.fog-on").count() == 0
    assert sees(gm, 10, 2) is None
    assert has_token(gm, vault["ghoul"])
    shot(player, "80-player-fog-phone")
    shot(gm, "80-gm-fog-scene-desk")
    assert player.errors == [] and gm.errors == []


def test_the_player_opens_the_door_beside_their_token(player, vault, shot):
    click_door(player, DOOR)
    wait_door(player, DOOR, "open")
    # The ghoul came into view with the door's event.
    player.wait_for_function(f"window.d6room.board.tokens.has({vault['ghoul']})")
    wait_sees(player, 10, 2, "view")
    shot(player, "81-player-door-open-phone")
    door(player, DOOR).focus()
    player.keyboard.press("Enter")
    wait_door(player, DOOR, "closed")
    player.wait_for_function(f"!window.d6room.board.tokens.has({vault['ghoul']})")
    wait_sees(player, 10, 2, "explored")  # seen once: dimmed now, without its ghoul


def test_a_door_across_the_room_is_refused_with_the_servers_reason(player):
    click_door(player, FAR_DOOR)
    player.wait_for_selector("#map-status.refused")
    assert status(player).startswith("The door stays closed: ")
    assert player.get_attribute(f'.door[data-wall="{FAR_DOOR}"]', "data-state") == "closed"


def test_the_gm_opens_locks_and_unlocks_a_door_from_the_map(gm, player, vault, shot):
    click_door(gm, DOOR)
    wait_door(gm, DOOR, "open")
    wait_door(player, DOOR, "open")
    player.wait_for_function(f"window.d6room.board.tokens.has({vault['ghoul']})")
    click_door(gm, DOOR)
    wait_door(player, DOOR, "closed")
    player.wait_for_function(f"!window.d6room.board.tokens.has({vault['ghoul']})")
    # Shift-click locks; the player's click is then refused on their page.
    click_door(gm, DOOR, shift=True)
    wait_door(player, DOOR, "locked")
    assert "locked" in player.get_attribute(f'.door[data-wall="{DOOR}"]', "aria-label")
    shot(gm, "82-gm-door-locked-desk")
    click_door(player, DOOR)
    assert status(player) == "The door is locked."
    # The GM's menu unlocks it, from the keyboard alone.
    door(gm, DOOR).focus()
    gm.keyboard.press("Shift+F10")
    gm.wait_for_selector('.token-menu[aria-label="Door: actions"]:not([hidden])')
    gm.keyboard.press("Enter")  # "Unlock", the first item
    wait_door(player, DOOR, "closed")
    wait_door(gm, DOOR, "closed")


def test_the_token_dialog_saves_sight_and_light(gm, player, vault):
    tenrec = vault["tenrec"]
    gm.dblclick(f'[data-token-id="{tenrec}"]')
    gm.wait_for_selector("#token-dialog[open]")
    gm.fill("#token-sight", "1001")
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_function("document.getElementById('token-sight-error').textContent.length > 0")
    assert gm.get_attribute("#token-sight", "aria-invalid") == "true"
    gm.fill("#token-sight", "60")
    gm.fill("#token-light", "20")
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_selector("#token-dialog", state="hidden")
    read = (
        "id => { const t = window.d6room.board.tokens.get(id); return [t.sight_ft, t.light_ft]; }"
    )
    for page in (gm, player):
        page.wait_for_function(f"({read})({tenrec})[0] === 60")
        assert page.evaluate(read, tenrec) == [60, 20]
    gm.dblclick(f'[data-token-id="{tenrec}"]')
    gm.wait_for_selector("#token-dialog[open]")
    assert gm.input_value("#token-sight") == "60"
    assert gm.input_value("#token-light") == "20"
    gm.click("#token-dialog-cancel")


def test_the_gm_sees_as_the_party(gm, player, vault, shot):
    show_tab(gm, "gm")
    assert gm.is_checked("#fog-on") and gm.is_checked("#fog-lit")
    gm.select_option("#fog-see-as", "party")
    gm.wait_for_selector(".layer-fog.fog-on")
    # The GM's map is the player's: the same fog, and no ghoul.
    for x, y in ((5, 3), (10, 2), (2, 6)):
        assert sees(gm, x, y) == sees(player, x, y)
    assert "out-of-view" in gm.get_attribute(f'[data-token-id="{vault["ghoul"]}"]', "class")
    assert gm.is_visible(f'[data-token-id="{vault["tenrec"]}"]')
    shot(gm, "83-gm-sees-as-party-desk")
    gm.select_option("#fog-see-as", "")
    gm.wait_for_selector(".layer-fog:not(.fog-on)", state="attached")
    assert gm.is_visible(f'[data-token-id="{vault["ghoul"]}"]')


def test_the_gm_reveals_and_covers_an_area(gm, player, vault):
    show_tab(gm, "gm")
    gm.click("#fog-reveal")
    assert gm.get_attribute("#fog-reveal", "aria-pressed") == "true"
    start, end = square_centre(gm, 9, 1), square_centre(gm, 12, 3)
    gm.mouse.move(*start)
    gm.mouse.down()
    gm.mouse.move(*end, steps=5)
    gm.mouse.up()
    wait_sees(player, 11, 2, "explored")
    assert not has_token(player, vault["ghoul"])  # revealed ground shows no tokens
    # The same area covered again, from the keyboard: Shift+arrows stretch it.
    gm.click("#fog-cover")
    assert gm.get_attribute("#fog-cover", "aria-pressed") == "true"
    gm.evaluate(
        "window.d6room.fogPanel.area.from = [9, 1]; window.d6room.fogPanel.area.to = [9, 1]"
    )
    gm.focus("#map")
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown"):
        gm.keyboard.press(f"Shift+{key}")
    gm.keyboard.press("Enter")
    wait_sees(player, 11, 2, "unexplored")
    gm.keyboard.press("Escape")
    assert gm.get_attribute("#fog-cover", "aria-pressed") == "false"
    # Reset forgets what was explored (the square seen through the open
    # door); what Tenrec sees now stays clear.
    assert sees(player, 8, 3) == "explored"
    gm.click("#fog-reset")
    gm.wait_for_function("document.getElementById('fog-note').textContent.startsWith('Fog reset')")
    wait_sees(player, 8, 3, "unexplored")
    assert sees(player, 5, 3) == "view"


@pytest.mark.skipif(not SIGHT_JS.exists(), reason="static/js/map/sight.js is not on this branch")
def test_a_drag_shows_the_view_from_the_square_under_the_pointer(player, vault):
    tenrec = vault["tenrec"]
    player.wait_for_function("window.d6room.vision.sight !== null")
    before = player.evaluate("window.d6room.board.fog.drawn[0]")
    player.mouse.move(*square_centre(player, 5, 3))
    player.mouse.down()
    player.mouse.move(*square_centre(player, 3, 6), steps=6)
    preview = player.evaluate("window.d6room.board.fog.previewView")
    assert preview and preview != before
    assert player.evaluate("window.d6room.board.fog.drawn[0]") == preview
    player.mouse.up()
    # The server's view of the new square replaces the preview.
    player.wait_for_function(
        f"window.d6room.board.tokens.get({tenrec}).y === 6 && window.d6room.board.fog.previewView === null"
    )
    wait_sees(player, 3, 6, "view")


def drag(page, token_id, start, end):
    page.mouse.move(*square_centre(page, *start))
    page.mouse.down()
    page.mouse.move(*square_centre(page, *end), steps=6)
    page.mouse.up()
    page.wait_for_function(
        "([id, x, y]) => { const t = window.d6room.board.tokens.get(id);"
        " return t && t.x === x && t.y === y; }",
        arg=[token_id, *end],
    )


def test_walking_through_the_door_shows_the_east_room_and_nothing_of_the_closet(
    browser, gm, vault, shot
):
    """A player page of its own, every websocket frame it receives kept from
    the first: Tenrec walks into the east room through the door the GM
    opened; the ghoul comes into view, and the wraith walled in the closet
    is neither drawn nor anywhere in the page, its state or its frames."""
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    log_in(page, vault["url"], "player", vault["password"])
    page.goto(f"{vault['url']}/campaigns/{vault['campaign']}/room/")
    page.wait_for_selector(".layer-fog.fog-on")
    tenrec, wraith = vault["tenrec"], vault["wraith"]
    if gm.get_attribute(f'.door[data-wall="{DOOR}"]', "data-state") != "open":
        click_door(gm, DOOR)
        wait_door(gm, DOOR, "open")
    wait_door(page, DOOR, "open")
    at = page.evaluate(f"(t => [t.x, t.y])(window.d6room.board.tokens.get({tenrec}))")
    drag(page, tenrec, at, (6, 3))
    drag(page, tenrec, (6, 3), (8, 3))  # through the open door
    page.wait_for_function(f"window.d6room.board.tokens.has({vault['ghoul']})")
    wait_sees(page, 10, 5, "view")
    assert sees(page, 13, 6) == "unexplored"  # the closet stays black
    shot(page, "84-player-through-the-door-desk")
    assert not has_token(page, wraith)
    assert "Closet Wraith" not in page.content()
    assert "Closet Wraith" not in page.evaluate("JSON.stringify(window.d6room.state())")
    assert frames and not [f for f in frames if "Closet Wraith" in str(f)]
    assert has_token(gm, wraith)  # there all along, for the GM
    context.close()


def order_names(page):
    return page.eval_on_selector_all("#turn-list .name", "ns => ns.map(n => n.textContent)")


def gm_says(gm, intent):
    """An intent from the GM's page, its answer awaited."""
    return gm.evaluate("intent => window.d6room.socket.send(intent)", intent)


def test_the_turn_order_names_only_who_the_party_sees(gm, player, vault, shot):
    """The wraith walled in its closet fights too: the GM's order lists it,
    the player's does not, and on its turn the player reads only that it is
    a turn out of sight. Walked out of the closet by the GM, it joins the
    player's order as it comes into view."""
    show_tab(gm, "gm")
    gm.click("#encounter-start")
    for page in (gm, player):
        page.wait_for_selector("#turns[data-state=running]")
    assert sorted(order_names(gm)) == ["Closet Wraith", "Ghoul", "Tenrec"]
    assert sorted(order_names(player)) == ["Ghoul", "Tenrec"]
    order = gm.evaluate("window.d6room.turns.encounter.order")
    for c in order:
        initiative = 9 if c["token_id"] == vault["wraith"] else 1
        gm_says(gm, {"type": "encounter.set", "combatant": c["id"], "initiative": initiative})
    gm_says(gm, {"type": "encounter.next"})
    player.wait_for_selector("#turns[data-unseen-turn=true]")
    assert "a turn out of sight" in player.inner_text("#turns-status")
    assert player.locator("#turn-list li[aria-current=step]").count() == 0
    assert player.is_visible("#turn-unseen")  # the phone hides the status line
    assert gm.is_hidden("#turn-unseen")
    assert "Closet Wraith's turn" in gm.inner_text("#turns-status")
    shot(player, "85-player-turn-out-of-sight-phone")
    assert "Closet Wraith" not in player.content()
    assert "Closet Wraith" not in player.evaluate("JSON.stringify(window.d6room.turns.encounter)")
    # Out of the closet, into Tenrec's view: the player's order reads it anew.
    gm_says(gm, {"type": "token.move", "token": vault["wraith"], "x": 10, "y": 4})
    player.wait_for_function(
        "() => [...document.querySelectorAll('#turn-list .name')]"
        ".some(n => n.textContent === 'Closet Wraith')"
    )
    assert player.inner_text("#turn-list li[aria-current=step] .name") == "Closet Wraith"
    assert "Closet Wraith's turn" in player.inner_text("#turns-status")
    assert player.is_hidden("#turn-unseen")
    gm_says(gm, {"type": "encounter.end"})
    player.wait_for_selector("#turns[data-state=none]", state="attached")


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_fog_room_has_no_serious_axe_violation(who, gm, player):
    page = gm if who == "gm" else player
    if who == "gm":
        show_tab(page, "gm")
    assert violations(page) == []


def test_no_page_errors(gm, player):
    assert gm.errors == [] and player.errors == []
