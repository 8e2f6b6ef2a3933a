"""The Log and Chat tabs as a table uses them, at a desk (1440 x 900) and
on a phone (390 x 844, touch): the log opened late shows its newest entry,
stays there as entries arrive, and says "N new" when the reader has
scrolled up; a hidden roll's pop-up says so; a roll typed in the chat shows
in the chat, for the member's character, and pops up for its roller.
Screenshots go to tests/artifacts/."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import open_room, show_tab

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

SCREENS = [pytest.param(DESK, False, id="desk"), pytest.param(PHONE, True, id="phone")]
CHECK = {"system": "artifice", "action": "check", "pool": 4, "difficulty": 2}


@pytest.fixture(scope="module")
def talk(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.table_talk_seed")


@pytest.fixture(scope="module")
def gm(browser, talk):
    page = open_room(browser, talk, talk["campaign"], "gm", DESK)
    yield page
    page.context.close()


def gm_rolls(gm, count: int, visibility: str = "public") -> None:
    """The GM's page sends `count` rolls, one after another, each acknowledged."""
    gm.evaluate(
        """async ([count, request, visibility]) => {
            for (let i = 0; i < count; i++)
                await window.d6room.socket.send({ type: "roll", visibility, request });
        }""",
        [count, CHECK, visibility],
    )


def entries(page) -> int:
    return page.locator("#log > li").count()


def wait_for_entries(page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log > li').length >= n", arg=count)


def newest_in_view(page) -> bool:
    """Whether the log's last entry is inside its tab's visible box."""
    return page.evaluate(
        """() => {
            const box = document.getElementById("panel-log").getBoundingClientRect();
            const last = document.querySelector("#log > li:last-child").getBoundingClientRect();
            return box.height > 0 && last.bottom <= box.bottom + 1 && last.bottom > box.top;
        }"""
    )


def settle(page) -> None:
    """Two frames: the scroll events and the resize observers have run."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("viewport, touch", SCREENS)
def test_the_log_opens_at_its_newest_entry_and_counts_what_arrives_above(
    browser, talk, gm, viewport, touch, shot
):
    size = "phone" if touch else "desk"
    player = open_room(browser, talk, talk["campaign"], "player", viewport, touch=touch)
    try:
        before = entries(player)
        # Rolls arrive while the player looks at the Roll tab.
        show_tab(player, "roll")
        gm_rolls(gm, 20)
        wait_for_entries(player, before + 20)
        show_tab(player, "log")
        settle(player)
        tall = player.evaluate("document.getElementById('panel-log').scrollHeight")
        assert tall > 2 * viewport["height"] * 0.5, f"the log is only {tall} px tall"
        assert player.evaluate("document.getElementById('panel-log').scrollTop") > 0
        assert newest_in_view(player), "the log opened away from its newest entry"
        assert player.locator("#log-new").is_hidden()
        shot(player, f"log-01-opened-late-{size}")

        # The reader scrolls up to an old entry: new ones are counted, not shown.
        player.evaluate("document.getElementById('panel-log').scrollTop = 0")
        settle(player)
        gm_rolls(gm, 2)
        wait_for_entries(player, before + 22)
        jump = player.locator("#log-new")
        jump.wait_for()
        assert jump.inner_text().startswith("2 new")
        assert player.evaluate("document.getElementById('panel-log').scrollTop") == 0
        assert not newest_in_view(player)
        shot(player, f"log-02-scrolled-up-two-new-{size}")

        jump.click()
        settle(player)
        assert newest_in_view(player)
        assert jump.is_hidden()

        # At the newest entry, the log stays pinned there as rolls arrive.
        gm_rolls(gm, 3)
        wait_for_entries(player, before + 25)
        settle(player)
        assert newest_in_view(player), "a new entry arrived below the fold"
        assert jump.is_hidden()
        shot(player, f"log-03-pinned-{size}")
        assert player.errors == []
    finally:
        player.context.close()


def tray_roll(page, visibility: str) -> None:
    show_tab(page, "roll")
    page.select_option("#tray-action", "check")
    page.fill("#tray-f-pool", "3")
    page.fill("#tray-f-difficulty", "2")
    page.select_option("#tray-visibility", visibility)
    page.wait_for_selector("#odds li[data-outcome=success]")
    page.click("#tray-roll")


@pytest.mark.parametrize("viewport, touch", SCREENS)
def test_a_gm_only_roll_pops_up_saying_it_is_hidden(browser, talk, viewport, touch, shot):
    size = "phone" if touch else "desk"
    gm = open_room(browser, talk, talk["campaign"], "gm", viewport, touch=touch)
    player = open_room(browser, talk, talk["campaign"], "player", viewport, touch=touch)
    try:
        tray_roll(gm, "gm")
        toast = gm.locator(".roll-toast[data-visibility=gm]")
        toast.wait_for()
        assert "Hidden roll: GM only. The players do not see it." in toast.inner_text()
        assert toast.locator(".toast-dice li").count() == 3  # the GM sees the dice
        box = toast.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot(gm, f"toast-01-gm-only-{size}")

        # The player's own GM-only roll never comes back: the card says where it went.
        tray_roll(player, "gm")
        toast = player.locator(".roll-toast[data-visibility=gm]")
        toast.wait_for()
        assert "Your roll went to the GM." in toast.inner_text()
        assert "The players do not see it." in toast.inner_text()
        assert toast.locator(".toast-dice").count() == 0
        shot(player, f"toast-02-player-gm-only-{size}")

        # An ordinary roll's card says nothing of the kind.
        tray_roll(gm, "public")
        toast = gm.locator(".roll-toast[data-visibility=public]")
        toast.wait_for()
        assert "Hidden" not in toast.inner_text()
        assert gm.errors == [] and player.errors == []
    finally:
        gm.context.close()
        player.context.close()


def chat_line(page, text: str) -> None:
    show_tab(page, "chat")
    page.fill("#chat-input", text)
    page.click("#chat-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")


@pytest.mark.parametrize("viewport, touch", SCREENS)
def test_a_chat_roll_shows_in_the_chat_for_the_character_and_pops_up(
    browser, talk, gm, viewport, touch, shot
):
    size = "phone" if touch else "desk"
    player = open_room(browser, talk, talk["campaign"], "player", viewport, touch=touch)
    try:
        seen = gm.locator("#chat-log li.chat-roll").count()
        before = player.locator("#chat-log li.chat-roll").count()
        chat_line(player, "/r 3D diff 2")
        wait_for_cards(player, before + 1)
        card = player.locator("#chat-log li.chat-roll").last
        assert card.locator(".who").inner_text() == "player for Tenrec"
        assert card.locator(".sentence").inner_text().startswith("Tenrec ")
        assert card.locator(".chat-dice li").count() == 3
        toast = player.locator(".roll-toast")
        toast.wait_for()
        assert toast.locator(".toast-sentence").inner_text().startswith("Tenrec ")
        # The same roll in the log, credited alike.
        roll_id = card.get_attribute("data-roll-id")
        logged = player.locator(f'#log li.roll-entry[data-roll-id="{roll_id}"]')
        assert logged.locator(".who").inner_text() == "player for Tenrec"
        shot(player, f"chat-01-roll-in-chat-{size}")
        # Everyone's chat shows it; it pops up for its roller alone.
        gm.wait_for_function(
            "n => document.querySelectorAll('#chat-log li.chat-roll').length > n", arg=seen
        )
        assert gm.locator("#chat-log li.chat-roll").last.get_attribute("data-roll-id") == roll_id
        assert gm.locator(".roll-toast-region .roll-toast").count() == 0

        # A player's GM-only roll: not in their chat, a pop-up says where it went.
        cards = player.locator("#chat-log li.chat-roll").count()
        chat_line(player, "/gr 3D")
        toast = player.locator(".roll-toast[data-visibility=gm]")
        toast.wait_for()
        assert "Your roll went to the GM." in toast.inner_text()
        hidden = gm.locator("#chat-log li.chat-roll[data-visibility=gm]").last
        hidden.wait_for(state="attached")  # the GM's Chat tab is not the one shown
        assert "GM only" in hidden.text_content() and "player for Tenrec" in hidden.text_content()
        assert player.locator("#chat-log li.chat-roll").count() == cards
        shot(player, f"chat-02-gm-only-from-chat-{size}")
        assert player.errors == []
    finally:
        player.context.close()


def wait_for_cards(page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#chat-log li.chat-roll').length >= n", arg=count
    )


@pytest.mark.parametrize("viewport, touch", SCREENS)
def test_of_two_characters_a_chat_roll_is_for_the_one_the_tray_has(
    browser, talk, viewport, touch, shot
):
    size = "phone" if touch else "desk"
    player = open_room(browser, talk, talk["two_hands"], "player", viewport, touch=touch)
    try:
        show_tab(player, "roll")
        player.select_option("#tray-character", label="Bram")
        before = player.locator("#chat-log li.chat-roll").count()
        cards = player.locator("#chat-log li.chat-roll")
        chat_line(player, "/r 2D")
        wait_for_cards(player, before + 1)
        assert cards.last.locator(".who").inner_text() == "player for Bram"
        show_tab(player, "roll")
        player.select_option("#tray-character", label="Ash")
        chat_line(player, "/r 2D")
        wait_for_cards(player, before + 2)
        assert cards.last.locator(".who").inner_text() == "player for Ash"
        shot(player, f"chat-03-two-characters-{size}")
        assert player.errors == []
    finally:
        player.context.close()
