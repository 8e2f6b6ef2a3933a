"""Placing and editing tokens in a real browser, in the seed's muster yard
(players may place their own characters there): the GM drags a character
from the Sheet tab onto the map and both pages show its token on the square
it was dropped on; the player drags their own with a finger on a phone, and
is refused another's; the GM links a token to a character, hands it to a
player and gives it a picture in the token dialog; the token's menu
duplicates and removes (mouse), answers the keyboard, and opens on a long
press on a phone. Screenshots go to tests/artifacts/."""

import pytest

from tests.browser import room
from tests.browser.room import finger_drag, show_tab, square_centre, touch
from tests.tabletop.images import image_bytes

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


def open_room(browser, table, who, viewport, touch=False):
    campaign = table["muster"]["campaign"]
    return room.open_room(browser, table, campaign, who, viewport, touch=touch, accept=True)


@pytest.fixture(scope="module")
def gm(browser, table):
    page = open_room(browser, table, "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, table):
    page = open_room(browser, table, "player", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    yield page
    page.context.close()


def tokens_of(page, character_id):
    """[x, y, controllers] of each token of the character on that page's map."""
    return page.evaluate(
        """id => [...window.d6room.board.tokens.values()]
            .filter(t => t.character_id === id).map(t => [t.x, t.y, t.controllers])""",
        character_id,
    )


def wait_token_of(page, character_id, x, y):
    page.wait_for_function(
        """([id, x, y]) => [...window.d6room.board.tokens.values()]
            .some(t => t.character_id === id && t.x === x && t.y === y)""",
        arg=[character_id, x, y],
    )


def centre_of(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_gm_drags_a_character_onto_the_map(gm, player, table, shot):
    ghoul = table["muster"]["characters"]["ghoul"]
    show_tab(gm, "sheet")
    chip = gm.locator(f'.place-chip[data-character-id="{ghoul}"]')
    # The GM may place anyone: the player characters and the NPC.
    assert gm.locator("#place-list .place-item").count() == 3
    start = centre_of(chip)
    target = square_centre(gm, 7, 5)
    gm.mouse.move(*start)
    gm.mouse.down()
    for i in range(1, 11):
        gm.mouse.move(
            start[0] + (target[0] - start[0]) * i / 10, start[1] + (target[1] - start[1]) * i / 10
        )
    # While dragging, a ghost follows the pointer and the landing square is marked.
    assert gm.locator(".place-ghost.over-map").count() == 1
    assert gm.locator("#map .drop-target").get_attribute("x") == "7"
    shot(gm, "60-gm-drags-a-character-desk")
    gm.mouse.up()
    wait_token_of(gm, ghoul, 7, 5)
    wait_token_of(player, ghoul, 7, 5)
    assert gm.locator(".place-ghost").count() == 0
    assert gm.locator("#map .drop-target").count() == 0
    assert "on the map" in chip.inner_text()
    shot(gm, "61-gm-placed-a-character-desk")
    # The keyboard's way: Place puts Kobor on a free square in the map's middle.
    kobor = table["muster"]["characters"]["kobor"]
    gm.get_by_role("button", name="Place Kobor on the map").click()
    gm.wait_for_function(
        "id => [...window.d6room.board.tokens.values()].some(t => t.character_id === id)", arg=kobor
    )
    [(x, y, controllers)] = tokens_of(gm, kobor)
    assert 4 <= x <= 7 and 2 <= y <= 5, (x, y)
    assert controllers == [table["muster"]["users"]["rival"]]
    occupied = gm.evaluate(
        "([x, y]) => [...window.d6room.board.tokens.values()].filter(t => t.x === x && t.y === y).length",
        [x, y],
    )
    assert occupied == 1
    assert gm.errors == [] and player.errors == []


def test_a_player_places_their_own_character_with_a_finger(player, table, shot):
    muster = table["muster"]
    wren, kobor = muster["characters"]["wren"], muster["characters"]["kobor"]
    show_tab(player, "sheet")
    # Only their own character is offered.
    items = player.locator("#place-list .place-item")
    assert items.count() == 1
    chip = player.locator(f'.place-chip[data-character-id="{wren}"]')
    start = centre_of(chip)
    target = square_centre(player, 9, 1)
    assert target[1] < start[1]  # the map is above the bottom sheet
    finger_drag(player, start, target)
    wait_token_of(player, wren, 9, 1)
    [(_, _, controllers)] = tokens_of(player, wren)
    assert controllers == [muster["users"]["player"]]
    # Once on the map, a player's character is not offered again.
    player.wait_for_selector(f'.place-item[data-character-id="{wren}"] button:disabled')
    shot(player, "62-player-placed-own-character-phone")
    # Another's character is refused by the server, naming the field.
    kobors = len(tokens_of(player, kobor))
    refusal = player.evaluate(
        """id => window.d6room.socket
            .send({type: "token.create", name: "Kobor", x: 1, y: 1, character_id: id})
            .then(() => null, (e) => [e.code, e.field])""",
        kobor,
    )
    assert refusal == ["forbidden", "character_id"]
    assert len(tokens_of(player, kobor)) == kobors
    assert player.errors == []


def test_the_list_follows_the_gm_turning_placing_off(gm, player, table):
    muster = table["muster"]
    show_tab(player, "sheet")
    player.wait_for_selector("#place:not([hidden])")
    switched = gm.evaluate(
        """async (id) => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const r = await fetch(`/api/campaigns/${id}/`, {method: "PATCH", credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                body: JSON.stringify({settings: {players_place_tokens: false}})});
            return r.status;
        }""",
        muster["campaign"],
    )
    assert switched == 200
    player.wait_for_selector("#place", state="hidden")
    refusal = player.evaluate(
        """id => window.d6room.socket
            .send({type: "token.create", name: "Wren", x: 0, y: 7, character_id: id})
            .then(() => null, (e) => e.code)""",
        muster["characters"]["wren"],
    )
    assert refusal == "forbidden"
    # The GM's list is the GM's whatever the setting.
    show_tab(gm, "sheet")
    assert gm.locator("#place-list .place-item").count() == 3


def test_the_gm_edits_a_tokens_character_controllers_and_picture(gm, player, table, shot):
    muster = table["muster"]
    brute = muster["brute"]
    node = gm.locator(f'[data-token-id="{brute}"]')
    node.dblclick()
    gm.wait_for_selector("#token-dialog[open]")
    assert gm.input_value("#token-name") == "Brute"
    # A refusal shows beside its field, and nothing is saved.
    gm.fill("#token-size", "11")
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_function("document.getElementById('token-size-error').textContent.length > 0")
    assert "size" in gm.text_content("#token-size-error")
    assert gm.get_attribute("#token-size", "aria-invalid") == "true"
    gm.fill("#token-size", "1")
    gm.select_option("#token-character", label="Kobor")
    gm.check(f"#token-controller-{muster['users']['player']}")
    gm.set_input_files(
        "#token-art-file",
        files=[{"name": "brute.png", "mimeType": "image/png", "buffer": image_bytes(64, 64)}],
    )
    shot(gm, "63-gm-token-dialog-full-desk")
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_selector("#token-dialog", state="hidden")
    done = """([id, ch, user]) => { const t = window.d6room.board.tokens.get(id);
        return t && t.character_id === ch && t.controllers.includes(user) && t.art_from === "token"; }"""
    args = [brute, muster["characters"]["kobor"], muster["users"]["player"]]
    gm.wait_for_function(done, arg=args)
    player.wait_for_function(done, arg=args)
    player.wait_for_selector(f'[data-token-id="{brute}"] .face.has-art')
    # Now the player's to move.
    assert player.evaluate(f"window.d6room.board.canMove(window.d6room.board.tokens.get({brute}))")
    # Enter on the selected token opens the dialog again; the picture goes.
    node.focus()
    if gm.evaluate("window.d6room.board.selected") != brute:
        gm.keyboard.press("Space")
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#token-dialog[open]")
    assert gm.is_visible("#token-art-preview")
    gm.click("#token-art-remove")
    gm.wait_for_function("id => window.d6room.board.tokens.get(id).art_from === null", arg=brute)
    # The room's event may land before the dialog's own answer: wait for both.
    gm.wait_for_selector("#token-art-remove:disabled")
    gm.select_option("#token-character", label="None")
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_function(
        "id => window.d6room.board.tokens.get(id).character_id === null", arg=brute
    )
    assert gm.errors == []


def test_the_gm_duplicates_and_removes_a_token_from_its_menu(gm, player, table, shot):
    brute = table["muster"]["brute"]
    node = gm.locator(f'[data-token-id="{brute}"]')
    node.click(button="right")
    menu = gm.locator(".token-menu[role=menu]")
    menu.wait_for(state="visible")
    items = menu.locator("[role=menuitem]")
    assert items.all_inner_texts() == ["Edit…", "Duplicate", "Hide from players", "Remove"]
    assert gm.evaluate("document.activeElement.textContent") == "Edit…"
    gm.keyboard.press("ArrowDown")
    assert gm.evaluate("document.activeElement.textContent") == "Duplicate"
    shot(gm, "64-gm-token-menu-desk")
    before = set(gm.evaluate("[...window.d6room.board.tokens.keys()]"))
    gm.keyboard.press("Enter")
    gm.wait_for_function("n => window.d6room.board.tokens.size === n", arg=len(before) + 1)
    [copy] = set(gm.evaluate("[...window.d6room.board.tokens.keys()]")) - before
    original, duplicate = (
        gm.evaluate(f"window.d6room.board.tokens.get({i})") for i in (brute, copy)
    )
    assert duplicate["name"] == "Brute" and duplicate["color"] == original["color"]
    # On a free square next to the original.
    assert max(abs(duplicate["x"] - original["x"]), abs(duplicate["y"] - original["y"])) == 1
    player.wait_for_function("id => window.d6room.board.tokens.has(id)", arg=copy)
    # Remove, from the copy's menu.
    gm.locator(f'[data-token-id="{copy}"]').click(button="right")
    menu.wait_for(state="visible")
    menu.get_by_role("menuitem", name="Remove").click()
    gm.wait_for_function("id => !window.d6room.board.tokens.has(id)", arg=copy)
    player.wait_for_function("id => !window.d6room.board.tokens.has(id)", arg=copy)
    # The keyboard: Shift+F10 on a focused token opens it, Escape closes it
    # and the focus is back on the token.
    node.focus()
    gm.keyboard.press("Shift+F10")
    menu.wait_for(state="visible")
    assert gm.evaluate("document.activeElement.getAttribute('role')") == "menuitem"
    gm.keyboard.press("End")
    assert gm.evaluate("document.activeElement.textContent") == "Remove"
    gm.keyboard.press("Escape")
    menu.wait_for(state="hidden")
    assert gm.evaluate("Number(document.activeElement.dataset.tokenId)") == brute
    assert gm.errors == []


def test_a_long_press_opens_the_menu_on_a_phone(browser, table, shot):
    page = open_room(browser, table, "gm", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    try:
        brute = table["muster"]["brute"]
        at = page.evaluate(
            f"[window.d6room.board.tokens.get({brute}).x, window.d6room.board.tokens.get({brute}).y]"
        )
        view = "[window.d6room.board.view.tx, window.d6room.board.view.ty]"
        pan = page.evaluate(view)
        start = square_centre(page, *at)
        touch(page, "touchStart", [start])
        page.wait_for_selector(".token-menu[role=menu]:not([hidden])")
        touch(page, "touchEnd", [])
        shot(page, "65-gm-long-press-menu-phone")
        # The press neither moved the token nor panned the map.
        assert (
            page.evaluate(
                f"[window.d6room.board.tokens.get({brute}).x, window.d6room.board.tokens.get({brute}).y]"
            )
            == at
        )
        assert page.evaluate(view) == pan
        assert page.is_visible(".token-menu")
        # A press elsewhere closes it; a finger drag of the token still moves it.
        page.keyboard.press("Escape")
        page.wait_for_selector(".token-menu", state="hidden")
        end = square_centre(page, at[0], at[1] + 1)
        finger_drag(page, start, end, steps=5)
        page.wait_for_function(
            "([id, y]) => window.d6room.board.tokens.get(id).y === y", arg=[brute, at[1] + 1]
        )
        assert not page.is_visible(".token-menu")
        assert page.errors == []
    finally:
        page.context.close()
