"""Status markers in a real browser: the GM (1440x900) marks the bandit
Disadvantaged from the token's marker card and adds a GM-only free marker;
the player (390x844, touch) sees the condition's badge on the bandit and
nothing of the secret one, nor of the hidden assassin's marker; the player
marks their own Wren from the card, the badge reaches the GM, and the tray's
odds for Wren say the condition's die comes off; the words are in each
token's accessible name; taking a marker off removes its badge on both
pages; the session's replay shows each of them the markers they saw. Screenshots: /tmp/markers-*.png and tests/artifacts/."""

import pytest

from tests.browser import room
from tests.browser.conftest import seeded_server
from tests.browser.room import show_tab, square_centre

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

SECRET = "Marked for death"


@pytest.fixture(scope="module")
def table(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.markers_seed")


@pytest.fixture(scope="module")
def gm(browser, table):
    page = room.open_room(browser, table, table["campaign"], "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, table):
    page = room.open_room(browser, table, table["campaign"], "player", PHONE, touch=True)
    yield page
    page.context.close()


def badges(page, token_id) -> list[str]:
    """The titles of the badges drawn on that token."""
    return page.locator(
        f'.token[data-token-id="{token_id}"] .marker-badge title'
    ).all_text_contents()


def wait_badges(page, token_id, count):
    page.wait_for_function(
        """([id, n]) => document.querySelectorAll(
            `.token[data-token-id="${id}"] .marker-badge`).length === n""",
        arg=[token_id, count],
    )


def open_card(page, token_id):
    """Select the token as a person does and open its marker card from the toolbar."""
    page.evaluate("id => window.d6room.board.select(id)", token_id)
    toggle = page.locator("#tools-more-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.click("#token-markers")
    page.wait_for_selector("#marker-dialog[open]")


def test_the_gm_marks_the_bandit(gm, player, table):
    bandit = table["tokens"]["bandit"]
    gm.mouse.click(*square_centre(gm, 5, 3))  # the bandit, selected
    gm.wait_for_function(f"window.d6room.board.selected === {bandit}")
    open_card(gm, bandit)
    assert gm.locator("#marker-list").inner_text() == "No markers."
    gm.select_option("#marker-condition", "disadvantaged")
    gm.click("#marker-form button[type=submit]")
    gm.wait_for_selector("#marker-list .marker-item")
    # A free marker, kept secret.
    # The form starts afresh after each marker.
    assert gm.input_value("#marker-condition") == ""
    gm.select_option("#marker-icon", "skull")
    gm.fill("#marker-label", SECRET)
    gm.check("#marker-gm-only")
    gm.click("#marker-form button[type=submit]")
    gm.wait_for_function("document.querySelectorAll('#marker-list .marker-item').length === 2")
    assert "Disadvantaged (-1D)" in gm.locator("#marker-list").inner_text()
    gm.screenshot(path="/tmp/markers-card-1440.png")
    assert not gm.is_checked("#marker-gm-only")
    gm.click("#marker-close")
    # And one on the hidden assassin, through the same intent.
    gm.evaluate(
        """id => window.d6room.socket.send({type: "marker.add", token: id,
            icon: "eye", label: "Waits in the dark"})""",
        table["tokens"]["assassin"],
    )
    wait_badges(gm, bandit, 2)
    assert badges(gm, bandit) == ["Disadvantaged (-1D)", f"{SECRET} [GM only]"]
    label = gm.get_attribute(f'.token[data-token-id="{bandit}"]', "aria-label")
    assert "marked Disadvantaged (-1D)" in label and SECRET in label


def test_the_player_sees_the_condition_and_no_secret(gm, player, table):
    bandit = table["tokens"]["bandit"]
    wait_badges(player, bandit, 1)
    assert badges(player, bandit) == ["Disadvantaged (-1D)"]
    label = player.get_attribute(f'.token[data-token-id="{bandit}"]', "aria-label")
    assert "marked Disadvantaged (-1D)" in label
    page = player.content()
    state = player.evaluate("JSON.stringify(window.d6room.state())")
    for secret in (SECRET, "Waits in the dark", "Assassin"):
        assert secret not in page and secret not in state
    # A bandit's badges stay clear of its name, written under it.
    name = player.locator(f'.token[data-token-id="{bandit}"] text.label').bounding_box()
    for badge in player.locator(f'.token[data-token-id="{bandit}"] .marker-badge circle').all():
        box = badge.bounding_box()
        assert box["y"] + box["height"] <= name["y"] + 0.5


def test_the_player_marks_their_own_token_and_the_odds_say_it(gm, player, table):
    wren = table["tokens"]["wren"]
    open_card(player, wren)
    # A player is offered the game's conditions only: no free or secret marker.
    assert player.locator("#marker-free").count() == 0
    player.select_option("#marker-condition", "disadvantaged")
    player.click("#marker-form button[type=submit]")
    player.wait_for_selector("#marker-list .marker-item button")
    player.screenshot(path="/tmp/markers-card-390.png")
    player.click("#marker-close")
    wait_badges(gm, wren, 1)
    wait_badges(player, wren, 1)
    show_tab(player, "roll")
    player.wait_for_selector("#odds .odds-conditions")
    assert "Disadvantaged (-1D)" in player.inner_text("#odds .odds-conditions")
    player.locator("#odds").scroll_into_view_if_needed()
    player.screenshot(path="/tmp/markers-390x844.png")
    gm.screenshot(path="/tmp/markers-1440x900.png")


def test_a_marker_taken_off_leaves_both_maps(gm, player, table):
    wren = table["tokens"]["wren"]
    open_card(player, wren)
    player.click("#marker-list .marker-item button")
    player.wait_for_selector("#marker-list .note")
    player.click("#marker-close")
    wait_badges(gm, wren, 0)
    wait_badges(player, wren, 0)
    assert gm.errors == [] and player.errors == []


def test_the_replay_shows_the_markers_as_each_saw_them(browser, table):
    """The session's replay, played to the end: the GM's has the bandit's
    two markers, the player's (their own view) the condition alone."""
    bandit = table["tokens"]["bandit"]
    for who, shown in (("gm", 2), ("player", 1)):
        page = room.open_room(browser, table, table["campaign"], who, DESK)
        try:
            page.goto(f"{table['url']}/campaigns/{table['campaign']}/sessions/1/replay/")
            page.wait_for_selector("#replay[data-state=ready]")
            page.evaluate("window.d6replay.seek(1e9)")
            wait_badges(page, bandit, shown)
            assert (SECRET in page.content()) is (who == "gm")
        finally:
            page.context.close()


def test_a_new_map_brings_its_markers(gm, player, table):
    """The GM puts the table on the ford: its ferryman's badges come with
    the scene change itself (the player's: the condition alone), and
    neither page asks the server for markers."""
    ferryman = table["ferryman"]
    asked = []
    for page in (gm, player):
        page.on("request", lambda r: asked.append(r.url) if "/markers" in r.url else None)
    gm.evaluate(
        "id => window.d6room.socket.send({type: 'scene.activate', scene: id})", table["ford"]
    )
    wait_badges(gm, ferryman, 2)
    wait_badges(player, ferryman, 1)
    assert badges(gm, ferryman) == ["Disadvantaged (-1D)", "Takes a toll [GM only]"]
    assert badges(player, ferryman) == ["Disadvantaged (-1D)"]
    state = player.evaluate("JSON.stringify(window.d6room.state())")
    assert "Takes a toll" not in state and "Takes a toll" not in player.content()
    assert asked == []
    assert gm.errors == [] and player.errors == []


# The room's tools and tabs as laid out: the vertical middles of the
# toolbar's visible controls (one row: one middle), and the tabs the panel
# does not show whole.
LAYOUT = """() => {
  const bar = document.querySelector(".map-tools");
  const shown = [...bar.querySelectorAll("button, select, label")].filter((e) => e.offsetParent);
  const middles = shown.map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; });
  const tabs = document.querySelector(".side-tabs"), box = tabs.getBoundingClientRect();
  const cut = [...tabs.querySelectorAll("[role=tab]")].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5 || t.scrollWidth > t.clientWidth;
  });
  return {rows: Math.max(...middles) - Math.min(...middles) < 4 ? 1 : 2, shown: shown.length,
          cut: cut.map((t) => t.id), overflow: tabs.scrollWidth > tabs.clientWidth};
}"""


def test_the_gms_tools_are_one_row_and_every_tab_shows(gm, player):
    """At 1440x900 the GM's map tools (the most anyone has: pings, bands,
    the token's actions, the map's editing) keep one row, and every tab of
    the panel shows whole, the GM's included, even with counts of unread
    entries on two of them; the words a screen reader hears stay whole."""
    layout = gm.evaluate(LAYOUT)
    assert layout == {"rows": 1, "shown": layout["shown"], "cut": [], "overflow": False}
    assert layout["shown"] >= 14
    gm.evaluate(
        """() => { for (const id of ["log-unread", "handouts-unread"]) {
             const count = document.getElementById(id); count.hidden = false; count.textContent = "12"; } }"""
    )
    assert gm.evaluate(LAYOUT)["cut"] == []
    gm.screenshot(path="/tmp/markers-layout-1440x900.png")
    for name in ("Back to turn start", "Edit token", "Hide token", "Remove token"):
        assert gm.get_by_role("button", name=name).count() == 1, name
    assert gm.get_by_role("combobox", name="Range bands").count() == 1
    player.screenshot(path="/tmp/markers-layout-390x844.png")
    assert gm.errors == [] and player.errors == []
