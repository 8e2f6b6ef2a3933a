"""A Universal VTT map imported in the browser and played in the dark
(tests/browser/import_seed.py): the GM at a desk uploads the Undercroft's
file (made here, its picture painted with Pillow) on the scene's page, sees
what it makes (walls, two doors, three lights, dark) and its sketch,
imports it and puts the scene on the table; the player on a phone, their
socket open from the start, has Tenrec lit by the west room's brazier. The
GM hands Tenrec a torch in the token dialog; the player walks him to the
door with a finger (the door, inside his touch disc, still takes a
finger), the GM opens it and he steps into the dark east room. The goblin
there is in none of the player's frames or REST answers until the torch
reaches it, and then it is on their map. Screenshots go to
tests/artifacts/ (docs/img/import-lit-* are made from the last two)."""

import json

import pytest

from tests.browser import room
from tests.browser.room import finger_drag, log_in, square_centre

from .conftest import seeded_server
from .import_seed import undercroft_file
from .test_accessibility import violations
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

TORCH_FT = 20  # four squares


@pytest.fixture(scope="module")
def crypt(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.import_seed")


@pytest.fixture(scope="module")
def player(browser, crypt):
    """The player on a phone, every websocket frame and REST answer it
    receives kept from the first page on (`heard`)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors, page.heard = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.heard.append(f)))

    def answered(response):
        if "/api/" in response.url:
            try:
                page.heard.append(response.text())
            except Exception:  # a redirect or a closed page has no body to read
                page.heard.append(f"(no body) {response.url}")

    page.on("response", answered)
    log_in(page, crypt["url"], "player", crypt["password"])
    page.goto(f"{crypt['url']}/campaigns/{crypt['campaign']}/room/")
    page.wait_for_selector("#conn[data-state=open]")
    page.cdp = context.new_cdp_session(page)
    yield page
    context.close()


@pytest.fixture(scope="module")
def console(browser, crypt):
    """The GM's console pages, at a desk."""
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, crypt["url"], "gm", crypt["password"])
    yield page
    context.close()


@pytest.fixture(scope="module")
def gm(browser, crypt):
    page = room.open_room(browser, crypt, crypt["campaign"], "gm", DESK)
    yield page
    page.context.close()


def mentions(payload, token_id: int, name: str) -> bool:
    """Whether a frame or answer tells of the token: its name anywhere (a
    token row, an entering token, a log line), or an object about it (a
    token's own, with its place, or an event's `token`)."""
    if name in str(payload):
        return True
    try:
        found = json.loads(payload)
    except (TypeError, ValueError):
        return False
    stack = [found]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("id") == token_id and "x" in item:
                return True
            if item.get("token") == token_id:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def told_of_goblin(player, crypt) -> list:
    return [p for p in player.heard if mentions(p, crypt["goblin"], "Goblin")]


def has_token(page, token_id):
    return page.evaluate("id => window.d6room.board.tokens.has(id)", token_id)


def wait_at(page, token_id, x, y):
    page.wait_for_function(
        "([id, x, y]) => { const t = window.d6room.board.tokens.get(id);"
        " return t && t.x === x && t.y === y; }",
        arg=[token_id, x, y],
    )


def door_index(page, x, y):
    """The wall index of the door whose middle is (x, y)."""
    return page.evaluate(
        """([x, y]) => window.d6room.board.doors.list
            .find(d => d.kind === "door" && (d.x1 + d.x2) / 2 === x && (d.y1 + d.y2) / 2 === y)
            ?.index""",
        [x, y],
    )


def walk(player, token_id, start, end):
    """Tenrec dragged with a finger from square `start` to `end`."""
    finger_drag(player, square_centre(player, *start), square_centre(player, *end), steps=6)
    wait_at(player, token_id, *end)


def test_the_gm_imports_a_drawn_map_onto_the_scene(console, player, crypt, shot):
    assert player.evaluate("window.d6room.board.scene.name") == "Road"
    base = f"{crypt['url']}/campaigns/{crypt['campaign']}/gm/scenes/{crypt['scene']}/"
    console.goto(base)
    console.set_input_files(
        "#map-file",
        {"name": "Undercroft.dd2vtt", "mimeType": "application/json", "buffer": undercroft_file()},
    )
    console.click("button:has-text('Read the map')")
    console.wait_for_selector("#map-plan")
    # Twelve walls (a loop of 176 tiny segments is four), two doors, three
    # lights, and the file's darkness; nothing to replace on a bare scene.
    assert console.inner_text("#plan-walls") == "13"
    assert console.inner_text("#plan-doors") == "2"
    assert console.inner_text("#plan-lights") == "3"
    assert "Dark" in console.inner_text("#map-plan")
    assert console.locator("#plan-replaces").count() == 0
    # The sketch: the painted picture, loaded, with the walls, the doors in
    # the wall between the rooms and the lights drawn over it.
    console.wait_for_function(
        "() => document.querySelector('#plan-sketch image').getBBox().width === 12"
    )
    assert console.locator("#plan-sketch .sketch-wall").count() == 13
    doors = console.eval_on_selector_all(
        "#plan-sketch .sketch-door", "ls => ls.map(l => [l.x1.baseVal.value, l.y1.baseVal.value])"
    )
    assert sorted(doors) == [[6, 4], [6, 7]]
    assert console.locator("#plan-sketch .sketch-light").count() == 3
    assert violations(console) == []
    shot(console, "uvtt-import-review-desk")
    console.set_viewport_size(PHONE)
    width = console.evaluate("document.querySelector('#plan-sketch').getBoundingClientRect().width")
    assert 300 < width <= PHONE["width"]  # the sketch fits a phone
    shot(console, "uvtt-import-review-phone")
    console.set_viewport_size(DESK)
    console.click("#map-import")
    console.wait_for_selector("text=Map imported: 13 walls, 2 doors and 3 lights.")
    assert console.url == base
    console.click("button:has-text('Put this scene on the table')")
    console.wait_for_selector("text=Undercroft is now on the table.")
    # The player's page follows to the new map: dark, under fog, Tenrec
    # lit by the brazier; the goblin nowhere.
    player.wait_for_function("window.d6room.board.scene?.name === 'Undercroft'")
    player.wait_for_selector(".layer-fog.fog-on")
    player.wait_for_selector(f'[data-token-id="{crypt["tenrec"]}"]')
    scene = player.evaluate("window.d6room.board.scene")
    assert (scene["width"], scene["height"], scene["lighting"]) == (12, 10, "dark")
    assert player.locator(".layer-lit .lit-area").count() >= 1
    assert not has_token(player, crypt["goblin"])
    assert told_of_goblin(player, crypt) == []
    assert console.errors == [] and player.errors == []


def test_the_gm_gives_tenrec_a_torch(gm, player, crypt):
    tenrec = crypt["tenrec"]
    lit_before = player.evaluate("window.d6room.state().vision.lit.length")
    gm.dblclick(f'[data-token-id="{tenrec}"]')
    gm.wait_for_selector("#token-dialog[open]")
    gm.fill("#token-light", str(TORCH_FT))
    gm.click("#token-dialog-form button[type=submit]")
    gm.wait_for_selector("#token-dialog", state="hidden")
    # The player's vision frame now has the torch's area too (#ffb347).
    player.wait_for_function(
        "n => window.d6room.state().vision.lit.length > n", arg=lit_before, timeout=10_000
    )
    colours = player.evaluate("window.d6room.state().vision.lit.map(l => l.color)")
    assert "#ffb347" in colours
    assert not has_token(player, crypt["goblin"])
    assert gm.errors == [] and player.errors == []


def test_tenrec_walks_to_the_door_and_the_gm_opens_it(gm, player, crypt):
    tenrec = crypt["tenrec"]
    walk(player, tenrec, (2, 4), (5, 4))
    door = door_index(player, 6, 4.5)
    assert door is not None
    assert player.get_attribute(f'.door[data-wall="{door}"]', "data-state") == "closed"
    # At the fitted zoom the whole door lies inside Tenrec's touch disc (a
    # token's is 44 px across at least), yet a finger on it past the token's
    # own ring meets the door.
    reach = player.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('circle.hit')).r)"
    )
    assert reach > 0.71  # past the door's ends, (6, 4) and (6, 5)
    for y in (4.1, 4.9):
        under = player.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('.door')?.dataset.wall",
            square_centre(player, 5.5, y - 0.5),
        )
        assert under == str(door), y
    # The GM, seeing Tenrec at the door, opens it from the desk (its upper
    # end: Tenrec's ring takes the middle).
    gm.mouse.click(*square_centre(gm, 5.5, 3.6))
    player.wait_for_selector(f'.door[data-wall="{door}"][data-state="open"]')
    # The east room opens before him, dark: the goblin four squares and
    # more beyond the torch is in no frame and no answer.
    assert not has_token(player, crypt["goblin"])
    assert told_of_goblin(player, crypt) == []
    assert player.errors == []


def test_the_goblin_appears_only_when_the_torch_reaches_it(gm, player, crypt, shot):
    tenrec, goblin = crypt["tenrec"], crypt["goblin"]
    walk(player, tenrec, (5, 4), (6, 4))  # in the doorway: the goblin 5 squares off
    assert not has_token(player, goblin)
    assert told_of_goblin(player, crypt) == []
    walk(player, tenrec, (6, 4), (7, 5))  # 3.6 squares: in the torch's light
    player.wait_for_function(f"window.d6room.board.tokens.has({goblin})")
    assert told_of_goblin(player, crypt) != []
    player.wait_for_selector(f'[data-token-id="{goblin}"]')
    gm.wait_for_function(
        "([id]) => { const t = window.d6room.board.tokens.get(id); return t.x === 7 && t.y === 5; }",
        arg=[tenrec],
    )
    # The dark is shaded on the GM's whole map; on the player's the fog
    # blacks out what no light shows, and only dim light is shaded.
    shade = "document.querySelector('.layer-lit mask[id^=lit-shade-mask] rect').getAttribute('fill')"
    assert gm.evaluate(shade) == "rgb(158, 158, 158)"
    assert player.evaluate(shade) == "rgb(0, 0, 0)"
    assert gm.locator(".layer-lit .lit-area").count() == 4  # three lights and the torch
    shot(gm, "uvtt-import-lit-gm-desk")
    # The player zooms in and slides the map to have Tenrec and the goblin
    # large on the phone (a finger on the margin above the map pans it).
    while player.evaluate("window.d6room.board.view.scale") < 45:
        player.click("#zoom-in")
    top = player.locator("#map-wrap").bounding_box()["y"]
    finger_drag(player, (300, top + 30), (230, top + 30))
    player.wait_for_function(
        "([x, y]) => { const v = window.d6room.board.view, r = v.screenBox();"
        " return r.left + v.tx + x * v.scale < r.right; }",
        arg=[11, 7],
    )
    player.wait_for_function("!window.d6room.board.svg.classList.contains('moving')")
    shot(player, "uvtt-import-lit-player-phone")
    assert gm.errors == [] and player.errors == []
