"""A spectator's seat, in real Chromium: through the GM's link, with no
account, the spectator (1440 x 900) sees the party's view of the Vault
(fog: the ghoul beyond the wall out of sight; the hidden lurker nowhere),
the public rolls and moves as they come, and nothing hidden over any frame
or on the page (a GM-only roll, a whisper, a GM-only marker, a GM's note);
the page has no control to act with, and an intent sent anyway is refused
with "a spectator watches only", nothing changed, the socket kept. The
GM's room bar counts the spectator. The GM then makes a link in the
console, and revokes the first: its page says the link is no longer
valid. Screenshots: /tmp/spectator-*.png."""

import json

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in, open_room
from tests.browser.spectator_seed import CHECK, SECRETS

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

REFUSAL = "a spectator watches only"


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.spectator_seed")


def watch(browser, server, viewport=DESK, token=None):
    """A spectator's page, nobody logged in; its `frames` collect every
    websocket frame it receives."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.errors, page.frames_in = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_in.append(str(f))))
    page.goto(f"{server['url']}/watch/{token or server['token']}/")
    return page


def tokens_on(page) -> dict:
    return page.evaluate(
        "() => Object.fromEntries([...window.d6watch.board.tokens.values()].map(t => [t.id, [t.x, t.y]]))"
    )


def send(page, intent: dict) -> dict:
    """An intent sent through the page's socket: its ack, or its refusal."""
    return page.evaluate(
        """(intent) => window.d6room
            ? window.d6room.socket.send(intent).then((a) => a, (e) => e)
            : window.d6watch.socket.send(intent).then((a) => a, (e) => e)""",
        intent,
    )


def test_the_spectator_sees_the_partys_view_cannot_act_and_sees_nothing_hidden(browser, server):
    cid, tenrec = server["campaign"], server["tenrec"]
    gm = open_room(browser, server, cid, "gm", DESK)
    player = open_room(browser, server, cid, "player", DESK)
    spectator = watch(browser, server)
    try:
        spectator.wait_for_selector("#conn[data-state=open]")
        # The party's view: Tenrec; not the ghoul beyond the wall, nor the lurker.
        spectator.wait_for_function(f"() => window.d6watch.board.tokens.has({tenrec})")
        seen = tokens_on(spectator)
        assert str(server["ghoul"]) not in seen and str(server["lurker"]) not in seen
        assert spectator.locator(".fog-unseen, .layer-fog *").count() > 0  # the fog is drawn
        # Counted in the room bar, not named.
        gm.wait_for_selector("#watchers[data-count='1']")
        assert gm.inner_text("#watchers") == "1 spectator"
        assert "Spectator" not in gm.inner_text("#online")
        gm.locator(".room-bar").screenshot(path="/tmp/spectator-room-bar.png")

        # The table plays: a public roll, a GM-only roll, a whisper, a move.
        assert (
            send(player, {"type": "roll", "request": CHECK, "visibility": "public"})["type"]
            == "ack"
        )
        spectator.wait_for_selector("#watch-log li[data-type=roll]")
        hidden_roll = {"type": "roll", "request": CHECK, "visibility": "gm"}
        assert send(gm, hidden_roll)["type"] == "ack"
        whisper = {"type": "chat", "text": f"/w player {SECRETS['whisper']} again"}
        assert send(gm, whisper)["type"] == "ack"
        version = player.evaluate(f"() => window.d6room.board.tokens.get({tenrec}).version")
        move = {"type": "token.move", "token": tenrec, "x": 4, "y": 3, "version": version}
        assert send(player, move)["type"] == "ack"
        spectator.wait_for_function(f"() => window.d6watch.board.tokens.get({tenrec})?.x === 4")
        last = gm.evaluate("() => window.d6room.state().seq")
        spectator.wait_for_function(
            f"() => Number(document.getElementById('watch').dataset.seq) >= {last}"
        )

        # No control to act with, and an intent sent anyway is refused.
        for absent in ("#tray", "#chat-form", "#tab-roll", "#token-reset", "#tool-ping"):
            assert spectator.locator(absent).count() == 0, absent
        tried = {"type": "token.move", "token": tenrec, "x": 6, "y": 3, "version": version + 1}
        refused = send(spectator, tried)
        assert (refused["code"], refused["message"]) == ("forbidden", REFUSAL)
        refused = send(spectator, {"type": "roll", "request": CHECK, "visibility": "public"})
        assert (refused["code"], refused["message"]) == ("forbidden", REFUSAL)
        assert spectator.get_attribute("#conn", "data-state") == "open"  # the socket kept
        assert gm.evaluate(f"() => window.d6room.board.tokens.get({tenrec}).x") == 4
        assert spectator.locator("#watch-log li[data-type=roll]").count() == 1

        # Nothing hidden reached the spectator, over any frame or on the page.
        received = "\n".join(spectator.frames_in)
        text = spectator.content()
        for secret in SECRETS.values():
            assert secret not in received and secret not in text, secret
        assert '"gm_notes"' not in received and '"whisper"' not in received
        frames = [json.loads(f) for f in spectator.frames_in if f.startswith("{")]
        assert all(f.get("event", {}).get("data", {}).get("visibility") != "gm" for f in frames)
        spectator.screenshot(path="/tmp/spectator-desk.png")
        assert spectator.errors == []
    finally:
        for page in (gm, player, spectator):
            page.context.close()


def test_the_gm_makes_a_link_and_revoking_one_closes_its_page(browser, server):
    cid = server["campaign"]
    spectator = watch(browser, server)
    console = browser.new_context(viewport=DESK).new_page()
    try:
        spectator.wait_for_selector("#conn[data-state=open]")
        log_in(console, server["url"], "gm", server["password"])
        console.goto(f"{server['url']}/campaigns/{cid}/gm/")
        # A new link, with a delay, shown once to copy.
        console.fill("#spectator-label", "Phone stream")
        console.fill("#spectator-delay_seconds", "2")
        console.click("#spectator-form button[type=submit]")
        url = console.input_value("#spectator-new-link")
        console.locator("#spectators").screenshot(path="/tmp/spectator-console.png")
        assert "/watch/" in url and server["token"] not in url
        phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
        phone.goto(url)
        phone.wait_for_selector("#conn[data-state=open]", timeout=15000)
        assert "2 s behind the table" in phone.inner_text(".replay-bar")
        phone.screenshot(path="/tmp/spectator-phone.png")
        phone.context.close()

        # Revoking the seed's link closes its page, which says so.
        console.goto(f"{server['url']}/campaigns/{cid}/gm/")
        row = console.locator(f"li[data-link-id='{server['link']}']")
        row.get_by_role("button", name="Revoke").click()
        console.wait_for_selector(".message.success")
        spectator.wait_for_selector("#watch-closed:not([hidden])")
        assert spectator.get_attribute("#watch", "data-state") == "closed"
        assert spectator.evaluate("() => window.d6watch.board.tokens.size") == 0
        answer = spectator.goto(f"{server['url']}/watch/{server['token']}/")
        assert answer.status == 404
        assert "no longer valid" in spectator.inner_text("main")
    finally:
        spectator.context.close()
        console.context.close()
