"""The room in a real browser: a GM at a desk-sized window and a player on a
phone-sized one share a table. Each step leaves a screenshot in
tests/artifacts/."""

import json
import re

import pytest

from tests.browser.room import log_in, log_in_by_form, show_tab, square_centre

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def enter_room(page, table):
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/room/")
    page.wait_for_selector("#conn[data-state=open]")


@pytest.fixture(scope="module")
def gm(browser, table):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    log_in_by_form(page, table["url"], "gm", table["password"])
    enter_room(page, table)
    yield page
    context.close()


@pytest.fixture(scope="module")
def player(browser, table):
    context = browser.new_context(viewport=PHONE, has_touch=False)
    page = context.new_page()
    page.frames_in = []  # every websocket frame the player's browser receives

    def watch(ws):
        ws.on("framereceived", lambda payload: page.frames_in.append(payload))

    page.on("websocket", watch)
    log_in(page, table["url"], "player", table["password"])
    enter_room(page, table)
    yield page
    context.close()


def token(page, token_id):
    return page.locator(f'[data-token-id="{token_id}"]')


def seqs(page, selector):
    return page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.dataset.seq)")


def test_gm_and_player_share_the_room(gm, player, table, shot):
    expect_online = re.compile(r"gm.*player|player.*gm", re.S)
    gm.wait_for_function("document.querySelectorAll('#online li').length === 2")
    assert expect_online.search(gm.inner_text("#online"))
    # The GM sees the hidden zombie, dimmed; the player's page never had it.
    assert "hidden-token" in token(gm, table["zombie_token"]).get_attribute("class")
    assert token(player, table["zombie_token"]).count() == 0
    assert not any("Zombie" in str(f) for f in player.frames_in)
    shot(gm, "01-gm-room-desk")
    shot(player, "01-player-room-phone")


def test_player_drags_a_token_and_the_gm_sees_it_land(gm, player, table, shot):
    tenrec = token(player, table["tenrec_token"])
    start = square_centre(player, 2, 3)
    end = square_centre(player, 4, 5)
    player.mouse.move(*start)
    player.mouse.down()
    for i in range(1, 6):
        player.mouse.move(
            start[0] + (end[0] - start[0]) * i / 5, start[1] + (end[1] - start[1]) * i / 5
        )
    shot(player, "02-player-dragging-phone")
    # While the drag lasts, the GM sees a preview (token.drag) where it would land.
    gm.wait_for_selector(f'[data-ghost-for="{table["tenrec_token"]}"]')
    shot(gm, "02-gm-sees-drag-preview-desk")
    player.mouse.up()
    gm_tenrec = token(gm, table["tenrec_token"])
    gm.wait_for_function(
        "id => document.querySelector(`[data-token-id='${id}']`).ariaLabel.endsWith('at column 4, row 5')",
        arg=table["tenrec_token"],
    )
    assert "column 4, row 5" in gm_tenrec.get_attribute("aria-label")
    assert "column 4, row 5" in tenrec.get_attribute("aria-label")
    shot(gm, "02-gm-sees-move-desk")


def test_a_refused_move_springs_back_with_the_reason(player, table, shot):
    # The player does not control the zombie and cannot see it; moving their own
    # token off the map is clamped, so ask the server for an impossible square.
    before = token(player, table["tenrec_token"]).get_attribute("aria-label")
    player.evaluate(
        "id => window.d6room.board.options.onMove({id, version: 1}, 4, 5).catch(() => {})",
        table["tenrec_token"],
    )
    player.evaluate("id => window.d6room.board.requestMove(id, 5, 5)", table["tenrec_token"])
    # A stale version: the server answers with the token where it really is.
    player.evaluate(
        """id => {
            const b = window.d6room.board;
            const t = {...b.tokens.get(id), version: 1};
            b.tokens.set(id, t);
            b.requestMove(id, 6, 6);
        }""",
        table["tenrec_token"],
    )
    player.wait_for_selector("#map-status.refused")
    assert "did not move" in player.inner_text("#map-status")
    after = token(player, table["tenrec_token"]).get_attribute("aria-label")
    assert not after.endswith("at column 6, row 6")
    assert before  # the token is still drawn
    shot(player, "03-player-move-refused-phone")


def test_hidden_roll_reaches_neither_the_players_page_nor_their_socket(gm, player, shot):
    frames_before = len(player.frames_in)
    show_tab(gm, "roll")
    gm.select_option("#tray-visibility", "gm")
    gm.fill("#tray-f-pool", "5")
    gm.click("#tray-roll")
    show_tab(gm, "log")
    gm.wait_for_selector("#log li.roll-entry")
    entry = gm.locator("#log li.roll-entry").last
    assert "GM only" in entry.inner_text()
    roll_id = entry.get_attribute("data-roll-id")
    shot(gm, "04-gm-hidden-roll-desk")
    # The player receives the sequence number, redacted, and nothing else of it.
    player.wait_for_function(
        "n => window.d6room.socket.lastSeq >= n",
        arg=int(gm.evaluate("window.d6room.socket.lastSeq")),
    )
    new_frames = [json.loads(f) for f in player.frames_in[frames_before:] if f.startswith("{")]
    events = [f["event"] for f in new_frames if f.get("type") == "event"]
    # The table's first roll opens its play session: that digest is everyone's.
    events = [e for e in events if e["type"] != "session.started"]
    assert events and all(e["type"] == "redacted" for e in events)
    assert not any(
        f'"roll_id": {roll_id}' in f or f'"roll_id":{roll_id}' in f for f in player.frames_in
    )
    assert player.locator("#log li.roll-entry").count() == 0
    show_tab(gm, "roll")
    assert gm.input_value("#tray-visibility") == "public"  # a hidden roll is a one-off


def test_player_enters_physical_dice_and_the_log_shows_the_faces(player, gm, shot):
    show_tab(player, "roll")
    player.select_option("#tray-action", "check")
    player.fill("#tray-f-pool", "3")
    player.fill("#tray-f-difficulty", "2")
    player.wait_for_selector("#odds li[data-outcome=success]")
    player.check("#tray-physical")
    player.fill("#tray-faces", "5 2 6")
    shot(player, "05-player-physical-dice-phone")
    player.click("#tray-roll")
    show_tab(player, "log")
    player.wait_for_selector("#log li.roll-entry[data-physical=true]")
    entry = player.locator("#log li.roll-entry[data-physical=true]").last
    faces = entry.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    roles = entry.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.role)")
    assert faces == ["5", "2", "6"]
    assert roles == ["regular", "regular", "wild"]
    assert "physical dice" in entry.inner_text()
    show_tab(gm, "log")
    gm.wait_for_selector("#log li.roll-entry[data-physical=true]")
    shot(player, "05-player-log-phone")
    shot(gm, "05-gm-log-desk")


def test_chat_with_markup_renders_as_text(gm, player, shot):
    text = "<script>window.pwned = 1</script><b>bold?</b>"
    show_tab(gm, "chat")
    show_tab(player, "chat")
    gm.fill("#chat-input", text)
    gm.click("#chat-form button")
    player.wait_for_selector("#chat-log li.chat-line")
    line = player.locator("#chat-log li.chat-line .text").last
    assert line.inner_text() == text
    assert player.locator("#chat-log script, #chat-log b").count() == 0
    assert player.evaluate("window.pwned === undefined")
    shot(player, "06-player-chat-phone")


def test_player_drops_offline_and_resyncs_without_duplicates(gm, player, table, shot):
    context = player.context
    context.set_offline(True)
    # Offline emulation may leave an open socket alone; drop it as a lost network would.
    player.evaluate("window.d6room.socket.ws && window.d6room.socket.ws.close(4000)")
    player.wait_for_selector("#conn[data-state=offline]")
    shot(player, "07-player-offline-phone")
    show_tab(gm, "chat")
    gm.fill("#chat-input", "While you were away")
    gm.click("#chat-form button")
    show_tab(gm, "roll")
    gm.select_option("#tray-visibility", "public")
    gm.fill("#tray-f-pool", "2")
    gm.click("#tray-roll")
    gm.wait_for_function("document.querySelectorAll('#log li.roll-entry').length >= 3")
    target = gm.evaluate("window.d6room.socket.lastSeq")
    context.set_offline(False)
    player.wait_for_selector("#conn[data-state=open]", timeout=20000)
    player.wait_for_function("n => window.d6room.socket.lastSeq >= n", arg=target)
    assert "While you were away" in player.inner_text("#chat-log")
    for selector in ("#log > li", "#chat-log > li[data-seq]"):
        numbers = seqs(player, selector)
        assert len(numbers) == len(set(numbers)), f"duplicate entries in {selector}: {numbers}"
    assert seqs(player, "#log > li") == seqs(gm, "#log > li:not(:has(.tag.hidden))")
    shot(player, "07-player-resynced-phone")


def test_a_roll_typed_in_the_chat_lands_in_the_log(gm, player, shot):
    before = {page: page.locator("#log li.roll-entry").count() for page in (gm, player)}
    show_tab(player, "chat")
    show_tab(gm, "chat")
    player.fill("#chat-input", "/r 3D diff 2")
    player.press("#chat-input", "Enter")
    player.wait_for_function(
        "n => document.querySelectorAll('#log li.roll-entry').length > n", arg=before[player]
    )
    entry = player.locator("#log li.roll-entry").last
    assert "against Difficulty Moderate (2)" in entry.inner_text()
    assert player.input_value("#chat-input") == ""
    gm.wait_for_function(
        "n => document.querySelectorAll('#log li.roll-entry').length > n", arg=before[gm]
    )
    assert "against Difficulty Moderate (2)" in gm.locator("#log li.roll-entry").last.inner_text()
    # A wrong command is explained under the box and the line stays to be mended.
    player.fill("#chat-input", "/r 3X")
    player.press("#chat-input", "Enter")
    player.wait_for_selector("#chat-note[data-kind=error]")
    assert "/r 3D+1 diff 2" in player.inner_text("#chat-note")
    assert player.input_value("#chat-input") == "/r 3X"
    # The help is the asker's alone, under the box.
    player.fill("#chat-input", "/help")
    player.press("#chat-input", "Enter")
    player.wait_for_selector("#chat-note[data-kind=help]")
    assert "Rolls in Artifice" in player.inner_text("#chat-note")
    assert "Rolls in Artifice" not in gm.inner_text("#room")
    # The roll shows in the Log tab, counted there while the chat is in sight.
    assert gm.inner_text("#log-unread") != ""
    shot(player, "08-player-chat-roll-phone")
    # A whisper to the GM, shown as one on both sides.
    player.fill("#chat-input", "/w gm I pocket the ring")
    player.press("#chat-input", "Enter")
    gm.wait_for_selector("#chat-log li.whisper")
    assert gm.inner_text("#chat-log li.whisper .who") == "player whispers:"
    assert gm.inner_text("#chat-log li.whisper .text") == "I pocket the ring"
    player.wait_for_selector("#chat-log li.whisper")
    assert player.inner_text("#chat-log li.whisper .who") == "Whisper to gm:"
    shot(gm, "08-gm-whisper-desk")
