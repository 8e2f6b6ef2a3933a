"""The GM puts another scene on the table from the GM console: the player's
page (a phone) changes map and tokens in place, on the same websocket, with
its roll log kept; the hidden lurker of the new map never reaches it. Each
step leaves a screenshot in tests/artifacts/."""

import json

import pytest

from tests.browser.room import show_tab

from .test_room import DESK, PHONE, enter_room, log_in, token

pytestmark = pytest.mark.browser


def page_for(browser, table, who, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.sockets = []  # every websocket the page opens
    page.frames_in = []  # every frame they receive

    def watch(ws):
        page.sockets.append(ws.url)
        ws.on("framereceived", lambda payload: page.frames_in.append(payload))

    page.on("websocket", watch)
    log_in(page, table["url"], who, table["password"])
    enter_room(page, table)
    return page


def test_the_player_follows_a_scene_change_without_reconnecting(browser, table, shot):
    hall = table["hall"]
    gm = page_for(browser, table, "gm", DESK)
    player = page_for(browser, table, "player", PHONE)
    console = gm.context.new_page()
    try:
        # Something in the roll log, and the socket as it is before the change.
        show_tab(player, "roll")
        player.fill("#tray-f-pool", "3")
        player.click("#tray-roll")
        show_tab(player, "log")
        player.wait_for_selector("#log li.roll-entry")
        rolls = player.locator("#log li.roll-entry").count()
        player.evaluate("window.socketBefore = window.d6room.socket.ws")
        assert len(player.sockets) == 1
        assert token(player, table["tenrec_token"]).count() == 1
        shot(player, "09-player-before-scene-change-phone")

        console.goto(f"{table['url']}/campaigns/{table['campaign']}/gm/")
        console.click("button:has-text('Activate Great Hall')")
        console.wait_for_selector("text=Great Hall is now on the table.")

        # The new map and its tokens, in place.
        player.wait_for_selector(f'[data-token-id="{hall["tokens"]["statue"]}"]')
        assert token(player, hall["tokens"]["scout"]).count() == 1
        assert token(player, table["tenrec_token"]).count() == 0
        assert player.evaluate(
            "[window.d6room.board.scene.name, window.d6room.board.scene.width]"
        ) == [
            "Great Hall",
            18,
        ]
        assert player.locator("#map .wall").count() == 1
        assert "Scene: Great Hall" in player.inner_text("#chat-log")
        # The same socket, never closed; the roll log as it was.
        assert player.evaluate("window.d6room.socket.ws === window.socketBefore")
        assert len(player.sockets) == 1
        assert player.get_attribute("#conn", "data-state") == "open"
        assert player.locator("#log li.roll-entry").count() == rolls
        # The hidden lurker: on the GM's map, dimmed; nowhere on the player's.
        gm.wait_for_selector(f'[data-token-id="{hall["tokens"]["lurker"]}"]')
        assert "hidden-token" in token(gm, hall["tokens"]["lurker"]).get_attribute("class")
        assert token(player, hall["tokens"]["lurker"]).count() == 0
        assert not any("Hidden Lurker" in str(f) for f in player.frames_in)
        shot(player, "09-player-after-scene-change-phone")
        shot(gm, "09-gm-after-scene-change-desk")

        # Moves after the change land on the new map, on both pages.
        gm.evaluate(
            "id => window.d6room.socket.send({type: 'token.move', token: id, x: 5, y: 5})",
            hall["tokens"]["statue"],
        )
        player.wait_for_function(
            "id => document.querySelector(`[data-token-id='${id}']`)"
            ".ariaLabel.endsWith('at column 5, row 5')",
            arg=hall["tokens"]["statue"],
        )
        player.evaluate("id => window.d6room.board.requestMove(id, 7, 8)", hall["tokens"]["scout"])
        gm.wait_for_function(
            "id => document.querySelector(`[data-token-id='${id}']`)"
            ".ariaLabel.endsWith('at column 7, row 8')",
            arg=hall["tokens"]["scout"],
        )
        frames = [json.loads(f) for f in player.frames_in]
        events = [f["event"] for f in frames if f["type"] == "event"]
        seqs = [e["seq"] for e in events]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
        assert len(player.sockets) == 1
        player.set_viewport_size(DESK)
        shot(player, "09-player-after-scene-change-desk")
        gm.set_viewport_size(PHONE)
        shot(gm, "09-gm-after-scene-change-phone")
    finally:
        for page in (gm, player):
            page.context.close()
