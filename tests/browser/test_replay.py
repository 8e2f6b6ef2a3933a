"""A play session replayed in a real browser (docs/replay.md): the GM plays
it and watches Tenrec walk, jumps to a roll, looks through the player's
eyes; the player's own replay never holds the hidden Lurker nor the GM's
secret roll. On a desk and on a phone."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def played(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.replay_seed")


def replay_page(browser, played, who, viewport, query=""):
    page = browser.new_context(viewport=viewport).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, played["url"], who, played["password"])
    page.goto(f"{played['url']}/campaigns/{played['campaign']}/sessions/1/replay/{query}")
    page.wait_for_selector("#replay[data-state=ready]")
    return page


def token_at(page, token_id):
    """Where the replay's map draws the token (None: not on it), from the DOM."""
    return page.evaluate(
        """(id) => {
            const t = window.d6replay.board.tokens.get(id);
            const node = document.querySelector(`#map [data-token-id="${id}"]`);
            return t && node ? [t.x, t.y] : null;
        }""",
        token_id,
    )


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_gm_plays_the_session_and_jumps_to_a_roll(browser, played, viewport, shot):
    page = replay_page(browser, played, "gm", viewport)
    name = "desk" if viewport is DESK else "phone"
    # The map as the session started: Tenrec where the move before it left him.
    assert token_at(page, played["tenrec"]) == [2, 2]
    assert token_at(page, played["lurker"]) == [10, 6]  # the GM sees the hidden one
    shot(page, f"replay-01-gm-start-{name}")
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector("#replay[data-state=ended]", timeout=20000)
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) == [9, 5]
    log = page.locator("#replay-log").inner_text()
    assert "Session 1 ended" in log and "Tenrec moved to (6, 5)" in log
    shot(page, f"replay-02-gm-end-{name}")

    rolls = page.locator("#replay-rolls button")
    assert rolls.count() == 2
    rolls.nth(0).click()
    assert page.get_attribute("#replay", "data-seq") == str(played["public_seq"])
    # Tenrec had walked to (6, 2) when the player rolled, and not further.
    assert token_at(page, played["tenrec"]) == [6, 2]
    assert rolls.nth(0).get_attribute("aria-current") == "true"
    # The scrubber goes back to the start exactly.
    page.locator("#replay-scrub").fill("0")
    assert token_at(page, played["tenrec"]) == [2, 2]
    # No wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_players_replay_has_nothing_hidden_from_them(browser, played, viewport, shot):
    page = replay_page(browser, played, "player", viewport)
    name = "desk" if viewport is DESK else "phone"
    assert page.locator("#replay-as").count() == 0  # no one else's view for a player
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector("#replay[data-state=ended]", timeout=20000)
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) is None
    assert page.locator("#replay-rolls button").count() == 1
    html = page.content()
    assert "Lurker" not in html
    everything = page.evaluate("JSON.stringify(window.d6replay.state())")
    assert "Lurker" not in everything
    shot(page, f"replay-03-player-{name}")
    assert page.errors == []
    page.context.close()


def test_the_gm_sees_through_the_players_eyes(browser, played):
    page = replay_page(browser, played, "gm", DESK)
    page.select_option("#replay-as", str(played["users"]["player"]))
    page.wait_for_url(f"**/replay/?as={played['users']['player']}")
    page.wait_for_selector("#replay[data-state=ready]")
    assert "player" in page.locator("#replay-whose").inner_text()
    page.locator("#replay-scrub").fill(page.get_attribute("#replay-scrub", "max"))
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) is None
    assert page.locator("#replay-rolls button").count() == 1
    page.context.close()
