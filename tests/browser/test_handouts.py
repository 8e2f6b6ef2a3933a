"""Handouts in the room, in real Chromium: the GM (1440 x 900) makes one
with a picture and Markdown (a <script> and a javascript: link in it) and
shares it with one player; that player (390 x 844, touch) gets a notice
and reads it in the Handouts tab, the text rendered and defused; the other
player's frames, REST list and page hold nothing of it. Screenshots:
/tmp/handouts-*.png."""

import json

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in, open_room, show_tab
from tests.tabletop.images import image_bytes

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

TITLE = "A letter sealed in red wax"
TEXT = (
    "My friend,\n\nMeet me at the **old mill** at *midnight*.\n\n"
    "- come alone\n- bring the key\n\n"
    "<script>window.pwned = 1</script> [a trap](javascript:window.pwned=2) "
    "[the mill](https://example.com/mill)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.handouts_seed")


def frames_of(page) -> list:
    """Every websocket frame the page receives from now on."""
    seen = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(str(f))))
    return seen


def test_a_handout_reaches_its_player_and_nobody_else(browser, server):
    cid = server["campaign"]
    gm = open_room(browser, server, cid, "gm", DESK)
    player = open_room(browser, server, cid, "player", PHONE, touch=True)
    other_context = browser.new_context(viewport=DESK)
    other = other_context.new_page()
    other_frames = frames_of(other)
    log_in(other, server["url"], "other", server["password"])
    other.goto(f"{server['url']}/campaigns/{cid}/room/")
    other.wait_for_selector("#conn[data-state=open]")
    try:
        show_tab(gm, "handouts")
        gm.fill("#handout-new-name", TITLE)
        gm.fill("#handout-new-text", TEXT)
        gm.set_input_files(
            "#handout-new-image",
            files=[{"name": "seal.png", "mimeType": "image/png", "buffer": image_bytes(240, 160)}],
        )
        gm.click("#handout-form button[type=submit]")
        card = gm.locator(".handout", has_text=TITLE)
        card.wait_for()
        card.get_by_label("player", exact=True).check()
        card.get_by_role("button", name="Share").click()
        card.locator("input:checked:disabled").wait_for()  # let in: never out again

        # The player is told, and reads it.
        notice = player.locator(".handout-notice")
        notice.wait_for()
        assert TITLE in notice.inner_text()
        player.screenshot(path="/tmp/handouts-notice-390x844.png")
        notice.get_by_role("button", name="Read it").click()
        player.wait_for_selector("#panel-handouts:not([hidden]) .handout")
        text = player.locator(".handout .handout-text")
        assert text.locator("strong", has_text="old mill").count() == 1
        assert text.locator("li").count() == 2
        assert player.locator("#panel-handouts script").count() == 0
        links = text.locator("a").evaluate_all("links => links.map(a => a.href)")
        assert links == ["https://example.com/mill"]
        # The server's HTML as it is, each link opening beside the room.
        assert text.locator("a").evaluate_all("links => links.map(a => a.target)") == ["_blank"]
        assert player.evaluate("() => window.pwned") is None
        image = player.locator(".handout img")
        image.wait_for()
        assert player.evaluate("img => img.naturalWidth", image.element_handle()) == 240
        player.screenshot(path="/tmp/handouts-player-390x844.png")
        gm.screenshot(path="/tmp/handouts-gm-1440x900.png")

        # The other player: no notice, nothing in the frames, the list or the tab.
        seq = player.evaluate("() => window.d6room.state().seq")
        other.wait_for_function("s => window.d6room.state()?.seq >= s", arg=seq)
        assert other.locator(".handout-notice").count() == 0
        assert not [f for f in other_frames if TITLE in f or "old mill" in f]
        listed = other.evaluate(
            "url => fetch(url).then(r => r.json())", f"/api/campaigns/{cid}/handouts/"
        )
        assert listed["results"] == []
        show_tab(other, "handouts")
        assert TITLE not in other.content()
        other.screenshot(path="/tmp/handouts-other-1440x900.png")
        assert not (gm.errors or player.errors)
        assert json.dumps(other_frames).count("redacted") >= 1  # it had a number, no more
    finally:
        for page in (gm, player):
            page.context.close()
        other_context.close()
