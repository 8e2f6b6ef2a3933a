"""Checking the dice in a real browser (docs/dice.md): the player's tray
sends its nonce, the log shows the session's digest and each roll's draw,
the GM ends the session from the console, and the player's check page
recomputes every roll they saw with WebCrypto; on a table whose log was
tampered with, the page names the die that does not match."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.dice_seed import CHAT
from tests.browser.room import log_in, show_tab
from tests.rules.test_session_dice import NONCE, SEED, VECTORS

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tables(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.dice_seed")


def signed_in(browser, tables, who, viewport=DESK):
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, tables["url"], who, tables["password"])
    return page


@pytest.fixture(scope="module")
def player(browser, tables):
    page = signed_in(browser, tables, "player")
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def gm(browser, tables):
    page = signed_in(browser, tables, "gm")
    yield page
    page.context.close()


def tray_roll(page):
    show_tab(page, "roll")
    page.select_option("#tray-action", "check")
    page.fill("#tray-f-pool", "4")
    page.fill("#tray-f-difficulty", "2")
    page.wait_for_selector("#odds li[data-outcome=success]")
    page.click("#tray-roll")


def test_a_session_played_ended_and_checked(player, gm, tables, shot):
    room = f"{tables['url']}/campaigns/{tables['campaign']}"
    player.goto(f"{room}/room/")
    player.wait_for_selector("#conn[data-state=open]")
    show_tab(player, "log")
    started = player.locator('#log li.session-entry[data-ended="false"]')
    assert "Session 1 started" in started.inner_text()
    for _ in range(2):
        tray_roll(player)
    show_tab(player, "log")
    derived = player.locator('#log li.roll-entry[data-physical="false"]')
    derived.nth(1).wait_for()
    for i in range(2):
        assert "with the roller's nonce" in derived.nth(i).locator(".draw").inner_text()
    physical = player.locator('#log li.roll-entry[data-physical="true"]')
    assert "physical dice: not derived" in physical.inner_text()
    shot(player, "dice-01-player-log")

    gm.goto(f"{room}/gm/")
    gm.click("#console-session-end")
    gm.wait_for_selector("text=Session 1 ended: its seed is out.")

    ended = player.locator('#log li.session-entry[data-ended="true"]')
    ended.wait_for()
    ended.get_by_role("link", name="Check the rolls").click()
    player.wait_for_url(f"{room}/sessions/1/")
    player.wait_for_selector("#verdict[data-check=checked]")
    shot(player, "dice-02-player-check-page")
    rows = player.locator("#rolls tbody tr")
    # Roll 1 is the GM's hidden roll: not on the player's page.
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.roll)") == ["2", "3", "4"]
    checks = player.locator("#rolls .check").evaluate_all("cs => cs.map(c => c.dataset.check)")
    assert checks == ["physical", "checked", "checked"]
    assert player.get_attribute("#digest-check", "data-check") == "checked"
    assert "2 rolls recomputed from the seed; 1 with physical dice" in player.inner_text("#verdict")

    gm.goto(f"{room}/sessions/1/")
    gm.wait_for_selector("#verdict[data-check=checked]")
    assert gm.locator("#rolls tbody tr").count() == 4


def test_the_sessions_and_the_check_page_fit_a_phone(browser, tables, shot):
    """A session played as above and ended: its list and its check page on
    a phone, nothing wider than the screen."""
    page = signed_in(browser, tables, "player", PHONE)
    room = f"{tables['url']}/campaigns/{tables['played']}"
    try:
        page.goto(f"{room}/sessions/")
        shot(page, "dice-04-player-sessions-phone")
        page.goto(f"{room}/sessions/1/")
        page.wait_for_selector("#verdict[data-check=checked]")
        shot(page, "dice-05-player-check-page-phone")
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"the check page is {width} px wide on a phone"
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_journal_and_the_dice_pages(browser, tables, shot, viewport):
    """A session played as above and ended: its journal (the GM's with the
    hidden roll, the player's without) and the dice statistics, at a desk
    and on a phone, nothing wider than the screen."""
    room = f"{tables['url']}/campaigns/{tables['played']}"
    size = "desk" if viewport is DESK else "phone"
    for who in ("gm", "player"):
        page = signed_in(browser, tables, who, viewport)
        try:
            page.goto(f"{room}/sessions/")
            page.click("#sessions .journal-link")
            page.wait_for_url(f"{room}/sessions/1/journal/")
            entries = page.locator("#journal-entries li")
            chat = page.locator("#journal-entries li.journal-chat").inner_text()
            assert CHAT in chat  # as typed: no markup ran or rendered
            assert page.evaluate("window.hacked") is None
            hidden = page.locator("#journal-entries li", has_text="GM only").count()
            assert hidden == (1 if who == "gm" else 0)
            assert entries.count() >= 4
            shot(page, f"journal-01-{who}-{size}")
            page.emulate_media(media="print")
            assert page.locator(".site-header").is_hidden()
            assert page.locator("#journal-print").is_hidden()
            shot(page, f"journal-02-{who}-{size}-print")
            page.emulate_media(media="screen")
            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= viewport["width"], f"the journal is {width} px wide"

            page.goto(f"{room}/sessions/")
            page.click("#dice-stats-link")
            page.wait_for_url(f"{room}/dice/")
            everyone = page.locator("#everyone .dice-group")
            assert everyone.locator(".dice-bars").count() == 2  # the server's, the physical
            assert everyone.locator(".dice-bars").first.locator("li").count() == 6
            assert "too few dice to say" in everyone.inner_text().lower()
            shot(page, f"dice-stats-01-{who}-{size}")
            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= viewport["width"], f"the dice page is {width} px wide"
        finally:
            page.context.close()


def test_an_altered_die_is_named(player, tables, shot):
    player.goto(f"{tables['url']}/campaigns/{tables['tampered']}/sessions/1/")
    player.wait_for_selector("#verdict[data-check=mismatch]")
    shot(player, "dice-03-tampered-check-page")
    altered = tables["altered"]
    cells = player.locator("#rolls .check")
    assert cells.evaluate_all("cs => cs.map(c => c.dataset.check)") == ["checked", "mismatch"]
    said = player.inner_text(f'#rolls tr[data-roll="{altered["roll"]}"] .check')
    assert said.startswith(f"✗ die {altered['die']} shows {altered['shown']}; the seed gives ")
    assert "1 roll differ" in player.inner_text("#verdict")


def test_the_browsers_construction_gives_the_known_answers(player, tables):
    player.goto(f"{tables['url']}/campaigns/{tables['campaign']}/sessions/")
    got = player.evaluate(
        """async ([seed, vectors]) => {
            const d = await import("/static/js/verify/derive.js");
            const key = await d.seedKey(seed);
            const out = [];
            for (const [session, roll, nonce, expected] of vectors) {
                const faces = await d.deriveFaces(key, session, roll, nonce, expected.length);
                out.push(faces.join(""));
            }
            return { faces: out, digest: await d.sha256Hex(d.fromHex(seed)) };
        }""",
        [SEED.hex(), [list(v) for v in VECTORS]],
    )
    assert got["faces"] == [v[3] for v in VECTORS]
    assert got["digest"] == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert NONCE in [v[2] for v in VECTORS]
