"""A connection that dies without closing: the page notices within 5 s
(nothing heard: a ping, then the verdict), says so, reconnects, catches up,
and sends again what was left unanswered, which the server carries out
once; what is made while offline is refused where it was made, not queued."""

import re

import pytest

from tests.browser.room import show_tab

from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser

# A desk, and a phone held in the hand.
SCREENS = [
    pytest.param({"viewport": DESK}, id="desk"),
    pytest.param({"viewport": PHONE, "has_touch": True, "is_mobile": True}, id="phone"),
]
SHOWN_WITHIN_MS = 5000


def deafened_page(browser, table, screen):
    """A player's page in the room whose socket runs through the test: with
    `deaf["on"]` the network swallows everything the server sends, and the
    socket dies without closing. Its clock moves only when the test says."""
    context = browser.new_context(**screen)
    page = context.new_page()
    deaf = {"on": False}

    def route(ws):
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: None if deaf["on"] else ws.send(message))

    log_in(page, table["url"], "player", table["password"])
    page.route_web_socket(re.compile(r"/ws/campaigns/"), route)
    page.clock.install()
    enter_room(page, table)
    return context, page, deaf


def go_deaf(page, deaf) -> int:
    """Kill the line and step the page's clock until the room bar says it is
    offline; the page time that took, in ms."""
    deaf["on"] = True
    start = page.evaluate("Date.now()")
    page.clock.pause_at((start + 50) / 1000)
    while page.get_attribute("#conn", "data-state") != "offline":
        assert page.evaluate("Date.now()") - start <= SHOWN_WITHIN_MS, (
            "the dead socket was not shown"
        )
        page.clock.run_for(100)
    return page.evaluate("Date.now()") - start


def come_back(page, deaf):
    deaf["on"] = False
    page.clock.run_for(1_000)  # the first reconnect waits at most 750 ms
    page.wait_for_selector("#conn[data-state=open]")


@pytest.mark.parametrize("screen", SCREENS)
def test_a_silently_dead_socket_is_shown_within_5_s_and_its_unanswered_chat_is_sent_once(
    browser, table, shot, screen
):
    context, page, deaf = deafened_page(browser, table, screen)
    where = "phone" if screen["viewport"] == PHONE else "desk"
    said = f"Said on the {where} while the line was dead"
    try:
        show_tab(page, "chat")
        deaf["on"] = True
        page.fill("#chat-input", said)
        page.click("#chat-form button")
        # The server took the line; its ack and its event never came back.
        page.wait_for_function("window.d6room.socket.pending.size === 1")
        assert page.get_attribute("#conn", "data-state") == "open"
        assert go_deaf(page, deaf) <= SHOWN_WITHIN_MS
        # Shown as waiting, not as sent.
        assert "1 waiting to send" in page.inner_text("#conn")
        shot(page, f"08-player-dead-socket-{where}")
        come_back(page, deaf)
        page.wait_for_function("window.d6room.socket.pending.size === 0")
        assert "waiting" not in page.inner_text("#conn")
        lines = page.locator("#chat-log > li", has_text=said)
        assert lines.count() == 1
        # A fresh page reads the log as stored: the line is there once.
        page.clock.resume()
        page.reload()
        page.wait_for_selector("#conn[data-state=open]")
        assert lines.count() == 1
    finally:
        context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_a_chat_made_while_offline_is_refused_visibly_and_never_sent(browser, table, screen):
    context, page, deaf = deafened_page(browser, table, screen)
    typed = f"Typed on the {'phone' if screen['viewport'] == PHONE else 'desk'} while offline"
    try:
        show_tab(page, "chat")
        assert go_deaf(page, deaf) <= SHOWN_WITHIN_MS
        page.fill("#chat-input", typed)
        page.click("#chat-form button")
        note = page.locator("#chat-note")
        note.wait_for(state="visible")
        assert "Not sent: offline" in note.inner_text()
        assert page.input_value("#chat-input") == typed  # kept to send again
        assert "waiting" not in page.inner_text("#conn")
        come_back(page, deaf)
        # What the page asks on catching up is answered; no chat was held.
        assert not page.evaluate(
            "[...window.d6room.socket.pending.values()].some((p) => p.frame.type === 'chat')"
        )
        page.wait_for_function("window.d6room.socket.pending.size === 0")
        # A few pings' worth of time flowing as it does: nothing was held
        # back to send later.
        page.clock.resume()
        page.wait_for_timeout(3_000)
        assert page.get_attribute("#conn", "data-state") == "open"
        assert page.locator("#chat-log > li", has_text=typed).count() == 0
    finally:
        context.close()


def test_a_page_that_slept_pings_again_before_calling_its_live_socket_dead(browser, table):
    # A background tab or a suspended laptop: the page's timers run a minute
    # late, the socket is fine, and the quiet was the page's own.
    context, page, _deaf = deafened_page(browser, table, {"viewport": DESK})
    try:
        page.evaluate(
            """() => {
              const conn = document.getElementById("conn");
              window.connStates = [];
              new MutationObserver(() => window.connStates.push(conn.dataset.state))
                .observe(conn, { attributes: true, attributeFilter: ["data-state"] });
            }"""
        )
        # A moment ahead of the page's clock however slow this call comes back.
        start = page.evaluate("Date.now()")
        page.clock.pause_at((start + 2_000) / 1000)
        page.clock.fast_forward(60_000)
        page.clock.resume()
        page.wait_for_timeout(2_000)  # the ping's pong comes back
        assert page.get_attribute("#conn", "data-state") == "open"
        assert page.evaluate("window.connStates") == []
    finally:
        context.close()
