"""A connection that dies without closing: the page notices when no pong
comes, says so, reconnects, catches up, and sends again what was left
unanswered, which the server carries out once."""

import re

import pytest

from tests.browser.room import show_tab

from .test_room import DESK, enter_room, log_in

pytestmark = pytest.mark.browser


def test_a_silently_dead_socket_is_noticed_and_its_unanswered_chat_lands_once(browser, table, shot):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    deaf = {"on": False}  # the network swallows everything the server sends

    def route(ws):
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: None if deaf["on"] else ws.send(message))

    try:
        log_in(page, table["url"], "player", table["password"])
        page.route_web_socket(re.compile(r"/ws/campaigns/"), route)
        page.clock.install()
        enter_room(page, table)
        deaf["on"] = True
        show_tab(page, "chat")
        page.fill("#chat-input", "Said while the line was dead")
        page.click("#chat-form button")
        # The server took the line; its ack and its event never came back.
        page.wait_for_function("window.d6room.socket.pending.size === 1")
        assert page.get_attribute("#conn", "data-state") == "open"
        page.clock.fast_forward(16_000)  # time for a ping
        page.clock.fast_forward(11_000)  # and for its deadline, with no pong
        page.wait_for_selector("#conn[data-state=offline]")
        shot(page, "08-player-dead-socket-desk")
        deaf["on"] = False
        page.clock.fast_forward(1_000)  # the first reconnect waits half a second
        page.wait_for_selector("#conn[data-state=open]")
        page.wait_for_function("window.d6room.socket.pending.size === 0")
        lines = page.locator("#chat-log > li", has_text="Said while the line was dead")
        assert lines.count() == 1
        # A fresh page reads the log as stored: the line is there once.
        page.reload()
        page.wait_for_selector("#conn[data-state=open]")
        assert lines.count() == 1
    finally:
        context.close()
