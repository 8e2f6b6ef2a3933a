"""A melee on a phone and at a desk, in a real browser (tests/browser/
melee_seed.py): eight wounded tokens side by side, whose wound plates never
cover one another or a name; a phone's map zoomed so a token is readable,
with the player's own in sight; a room bar and a toolbar that fit 390 px
and fold into menus, with the way back to the lobby and out; the turn
strip's "Round N · X's turn"; a roll's card clear of the toolbar; a status
line that clears; and the header of every page within a phone's width.
Screenshots go to tests/artifacts/ (70-79)."""

import pytest

from tests.browser.room import log_in, show_tab

from .conftest import seeded_server
from .test_room import DESK, PHONE
from .test_table import settled

pytestmark = pytest.mark.browser

SIZES = {"desk": (DESK, False), "phone": (PHONE, True)}


@pytest.fixture(scope="module")
def melee(tmp_path_factory, chromium_path):
    """{"url", "campaign", "character", "tokens", "states", "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.melee_seed")


def seat(browser, melee, who, size, room=True):
    viewport, touch = SIZES[size]
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, melee["url"], who, melee["password"])
    if room:
        page.goto(f"{melee['url']}/campaigns/{melee['campaign']}/room/")
        page.wait_for_selector("#conn[data-state=open]")
        # The GM knows every wound; a player, only their own character's.
        plates = 8 if who == "gm" else 1
        page.wait_for_function(f"document.querySelectorAll('#map .badge').length === {plates}")
        settled(page)
        settled(page)
    return page


@pytest.fixture(scope="module")
def phone(browser, melee):
    page = seat(browser, melee, "player", "phone")
    yield page
    page.context.close()


# The boxes on screen of every wound plate and name a viewer sees without
# hovering, focusing or selecting anything, and the pairs of them that overlap.
OVERLAPS = """() => {
    const seen = (node) => getComputedStyle(node).visibility === 'visible'
        && getComputedStyle(node).display !== 'none';
    const boxes = [];
    for (const token of document.querySelectorAll('#map g.token')) {
        const name = token.querySelector('text.label');
        const plate = token.querySelector('rect.badge-bg');
        const who = name.textContent;
        if (seen(name)) boxes.push({what: `name of ${who}`, r: name.getBoundingClientRect()});
        if (plate && seen(plate)) boxes.push({what: `plate of ${who}`, r: plate.getBoundingClientRect()});
    }
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i].r, boxes[j].r];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            out.push([boxes[i].what, boxes[j].what]);
    }
    return {plates: boxes.filter(b => b.what.startsWith('plate')).length, out};
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_no_wound_plate_covers_another_or_a_name_in_a_melee(browser, melee, size, shot):
    page = seat(browser, melee, "gm", size)
    try:
        page.mouse.move(1, 1)  # nothing hovered
        found = page.evaluate(OVERLAPS)
        shot(page, f"70-melee-plates-{size}")
        assert found["out"] == [], found["out"]
        assert found["plates"] >= 2, "no plates shown at all"
        for name, state in melee["states"].items():
            node = page.locator(f'[data-token-id="{melee["tokens"][name]}"]')
            # Every state stays said: the ring on the token, and the words
            # in its label for a screen reader.
            assert state in node.get_attribute("aria-label")
            assert node.locator("circle.condition-ring").count() == 1
        # A plate left out shows while its token is hovered.
        crowded = page.locator("#map g.token.plate-crowded").first
        crowded.hover(force=True)
        assert (
            crowded.locator("rect.badge-bg").evaluate("n => getComputedStyle(n).visibility")
            == "visible"
        )
        assert page.errors == []
    finally:
        page.context.close()


def test_a_phone_token_is_readable_and_the_players_own_in_sight(phone, melee, shot):
    scale = phone.evaluate("window.d6room.board.view.scale")
    assert scale >= 24, f"a square is {scale:.1f} px at the phone's fitted zoom"
    tenrec = phone.locator(f'#map g.token[data-token-id="{melee["tokens"]["Tenrec"]}"] circle.body')
    box, wrap = tenrec.bounding_box(), phone.locator("#map-wrap").bounding_box()
    assert box["width"] >= 24 * 0.8 - 0.5  # the face is 0.8 of its square
    assert wrap["x"] <= box["x"] and box["x"] + box["width"] <= wrap["x"] + wrap["width"], (
        box,
        wrap,
    )
    assert wrap["y"] <= box["y"] and box["y"] + box["height"] <= wrap["y"] + wrap["height"], (
        box,
        wrap,
    )
    # The map takes the height it has: no band of nothing over and under it.
    drawn = phone.evaluate(
        "(() => { const v = window.d6room.board.view; return v.size.height * v.scale; })()"
    )
    assert drawn >= wrap["height"] * 0.9, (drawn, wrap)
    shot(phone, "71-melee-phone-fitted")


def fits(page, selector, width=PHONE["width"]):
    """The parts of `selector` drawn past the right edge of a phone, or cut
    inside it."""
    return page.evaluate(
        """([selector, width]) => {
            const out = [];
            for (const box of document.querySelectorAll(selector)) {
                if (box.scrollWidth > box.clientWidth + 1) out.push(`${selector} scrolls`);
                for (const part of box.querySelectorAll('*')) {
                    const r = part.getBoundingClientRect();
                    if (r.width && (r.right > width + 0.5 || r.left < -0.5)) out.push(part.outerHTML.slice(0, 80));
                }
            }
            return out;
        }""",
        [selector, width],
    )


def test_the_phone_room_bar_and_toolbar_fit_and_fold(phone, melee, shot):
    assert fits(phone, ".room-bar") == []
    assert fits(phone, ".map-tools") == []
    # The toolbar's rest waits behind "More tools".
    assert phone.locator("#band-range").is_hidden()
    phone.tap("#tools-more-toggle")
    assert phone.get_attribute("#tools-more-toggle", "aria-expanded") == "true"
    assert phone.locator("#band-range").is_visible()
    assert phone.locator("#token-reset").is_visible()
    assert fits(phone, ".map-tools") == []
    shot(phone, "72-phone-more-tools")
    phone.tap("#zoom-fit")  # a tap outside folds it again
    assert phone.locator("#band-range").is_hidden()
    # The room bar's Menu: the table's pages, the lobby and the way out.
    assert phone.locator("#room-links a", has_text="Lobby").is_hidden()
    phone.tap("#room-menu-toggle")
    for item in ("Characters", "Dice sessions", "Lobby", "Log out"):
        part = phone.locator("#room-links", has_text=item).get_by_text(item, exact=True)
        assert part.is_visible(), item
        assert part.bounding_box()["x"] + part.bounding_box()["width"] <= PHONE["width"]
    shot(phone, "73-phone-room-menu")
    phone.keyboard.press("Escape")


def test_the_phone_room_menu_goes_to_the_lobby_and_logs_out(browser, melee):
    page = seat(browser, melee, "player", "phone")
    try:
        page.tap("#room-menu-toggle")
        page.tap("#room-links >> text=Lobby")
        page.wait_for_url(melee["url"] + "/")
        page.go_back()
        page.wait_for_selector("#conn[data-state=open]")
        page.tap("#room-menu-toggle")
        with page.expect_navigation():
            page.tap("#room-links >> text=Log out")
        # Out: the site offers to log in again.
        assert page.locator(".site-header a", has_text="Log in").is_visible()
    finally:
        page.context.close()


def test_the_phone_turn_strip_says_whose_turn_it_is(browser, phone, melee, shot):
    gm = seat(browser, melee, "gm", "desk")
    try:
        show_tab(gm, "gm")
        gm.click("#turn-next")
        phone.wait_for_function("document.querySelector('#turns').dataset.turns === '1'")
        now = phone.locator("#turns-status .turn-now")
        assert now.is_visible()
        text = now.inner_text()
        assert text.startswith("Round 1 · ") and text.endswith("'s turn"), text
        # Whole, not cut: its line is as wide as its words need.
        status = phone.locator("#turns-status")
        assert status.evaluate("n => n.scrollWidth <= n.clientWidth")
        assert status.bounding_box()["x"] + status.bounding_box()["width"] <= PHONE["width"]
        assert "game time" in gm.inner_text("#turns-status")
        shot(phone, "74-phone-turn-strip")
    finally:
        gm.context.close()


def test_a_phone_rolls_card_leaves_the_toolbar_clear(phone, shot):
    show_tab(phone, "roll")
    phone.tap("#tray-roll")
    toast = phone.locator(".roll-toast-region .roll-toast").last
    toast.wait_for()
    card = toast.bounding_box()
    for chrome in (".room-bar", ".map-tools"):
        box = phone.locator(chrome).bounding_box()
        assert card["y"] >= box["y"] + box["height"] - 0.5, (chrome, card, box)
    shot(phone, "75-phone-roll-card")
    phone.tap(".roll-toast-region .toast-close")
    show_tab(phone, "roll")  # folds the bottom sheet again


def test_the_maps_status_line_clears(phone, melee):
    phone.evaluate("id => window.d6room.board.select(id)", melee["tokens"]["Tenrec"])
    assert "Tenrec selected" in phone.inner_text("#map-status")
    phone.wait_for_function(
        "document.getElementById('map-status').textContent === ''", timeout=15_000
    )
    assert phone.locator("#map-status").is_hidden()
    phone.evaluate("window.d6room.board.select(null)")


def pages(melee):
    c = f"/campaigns/{melee['campaign']}"
    return {
        "lobby": "/",
        "room": f"{c}/room/",
        "characters": f"{c}/characters/",
        "sheet": f"{c}/characters/{melee['character']}/",
        "sessions": f"{c}/sessions/",
        "dice-check": f"{c}/sessions/1/",
        "replay": f"{c}/sessions/1/replay/",
        "journal": f"{c}/sessions/1/journal/",
        "dice": f"{c}/dice/",
        "join": "/join/",
    }


@pytest.mark.parametrize("who", ["gm", "player"])
def test_every_pages_header_fits_a_phone(browser, melee, who, shot):
    page = seat(browser, melee, who, "phone", room=False)
    try:
        walk = pages(melee)
        if who == "gm":
            walk["gm-console"] = f"/campaigns/{melee['campaign']}/gm/"
        for name, path in walk.items():
            page.goto(melee["url"] + path)
            assert page.url.endswith(path), (name, page.url)
            header = ".room-bar" if name == "room" else ".site-header"
            if name == "room":
                page.wait_for_selector("#conn[data-state=open]")
            assert fits(page, header) == [], name
            shot(page, f"76-header-{who}-{name}-phone")
    finally:
        page.context.close()
    for name, path in {"login": "/accounts/login/", "signup": "/accounts/signup/"}.items():
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(melee["url"] + path)
        assert fits(page, ".site-header") == [], name
        shot(page, f"76-header-{name}-phone")
        context.close()
