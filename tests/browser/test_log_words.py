"""The roll log reads as words in all five games, in a real browser on a
phone-sized screen: each roll's entry is a sentence that names the roller
(and the Difficulty of a check), shows its time and dice, keeps every field
behind "Every number", and the roller sees the result at once in a toast
inside the screen. Screenshots go to tests/artifacts/."""

import re

import pytest

from tests.browser.room import show_tab

from .conftest import ARTIFACTS
from .test_room import DESK, PHONE, log_in

pytestmark = pytest.mark.browser

# The check of each game (a roll against a Difficulty), and a numeric roll.
CHECKS = {
    "artifice": "check",
    "fgr": "roll",
    "xerosum": "check",
    "rd6": "roll",
    "apocalyptia": "roll",
}
# A field dump: "critical failure yes", "automatic false", "kind standard".
# Lower case only: a game's own term may start with a capital ("True
# Critical Failure" in Rd6) where a dumped value never does.
DUMP = re.compile(r"\b(yes|true|false|none|null|undefined)\b|\bkind |\bactor\b|\bopponent\b")


@pytest.fixture(scope="module")
def phone(browser, table):
    # Reduced motion asked for: the dice must not move at all.
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, table["url"], "gm", table["password"])
    yield page
    context.close()


def open_room(page, table, game):
    page.goto(f"{table['url']}/campaigns/{table['games'][game]}/room/")
    page.wait_for_selector("#conn[data-state=open]")


def roll(page, action) -> tuple:
    """Roll `action` from the tray; the new log entry and the toast."""
    show_tab(page, "roll")
    page.select_option("#tray-action", action)
    page.wait_for_function(
        "() => document.querySelector('#odds li[data-outcome], #odds .odds-dist, #odds .odds-certain')"
        " && !document.querySelector('#odds[aria-busy]')"
    )
    before = page.locator("#log > li.roll-entry").count()
    page.click("#tray-roll")
    page.wait_for_function(
        "n => document.querySelectorAll('#log > li.roll-entry').length > n", arg=before
    )
    page.wait_for_selector(".roll-toast-region .roll-toast")
    # The toast is where the roller looks; the entry is read in the Log tab.
    show_tab(page, "log")
    return page.locator("#log > li.roll-entry").last, page.locator(".roll-toast")


def assert_reads_as_a_sentence(entry, who: str, check: bool):
    text = entry.inner_text()
    sentence = entry.locator(".sentence").inner_text()
    assert "_" not in text, text
    assert not DUMP.search(text), text
    assert who in sentence, sentence
    assert sentence.rstrip().endswith("."), sentence
    if check:
        assert "Difficulty" in sentence, sentence
    # The key numbers are bold, and they are the sentence's own.
    bold = entry.locator(".sentence strong").all_inner_texts()
    assert bold and all(b in sentence for b in bold), (bold, sentence)
    return sentence


def assert_time_and_details(entry):
    time = entry.locator(".head time")
    assert time.count() == 1
    assert re.fullmatch(r"\d{2}:\d{2}", time.inner_text()), time.inner_text()
    assert re.match(r"\d{4}-\d{2}-\d{2}T", time.get_attribute("datetime"))
    details = entry.locator("details.entry-details")
    assert details.get_attribute("open") is None
    labels = details.locator("dt")
    assert not labels.first.is_visible()  # closed: the fields stay out of the way
    details.locator("summary").click()
    assert details.get_attribute("open") is not None
    assert labels.first.is_visible()
    shown = details.inner_text()
    assert "_" not in shown and not re.search(r"\de-\d", shown), shown
    values = details.locator("dd").all_inner_texts()
    assert not [v for v in values if v.lower() in ("true", "false", "null", "undefined")], values
    # Every die has its words for a screen reader.
    dice = entry.locator(".dice .die")
    if dice.count():
        said = dice.first.locator(".visually-hidden").inner_text()
        assert re.match(r"[A-Z][\w\- ]*: \d", said), said


def assert_in_view(page, toast):
    box = toast.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    region = page.locator(".roll-toast-region")
    assert (region.get_attribute("role"), region.get_attribute("aria-live")) == ("status", "polite")


@pytest.mark.parametrize("game", list(CHECKS))
def test_a_check_in_every_game_reads_as_a_sentence(phone, table, game):
    open_room(phone, table, game)
    entry, toast = roll(phone, CHECKS[game])
    sentence = assert_reads_as_a_sentence(entry, "gm", check=True)
    assert_in_view(phone, toast)
    # The toast says what the log says, and its dice do not move (reduced motion).
    assert toast.locator(".toast-sentence").inner_text() == sentence
    for die in toast.locator(".toast-dice .die").all():
        assert die.evaluate("d => getComputedStyle(d).animationName") == "none"
    phone.screenshot(path=str(ARTIFACTS / f"21-log-words-{game}-phone.png"))
    assert_time_and_details(entry)
    assert phone.errors == []


def test_a_numeric_roll_has_no_certain_outcome_bar_and_reads_as_words(phone, table):
    open_room(phone, table, "fgr")
    show_tab(phone, "roll")
    phone.select_option("#tray-action", "numeric")
    phone.wait_for_selector("#odds[data-action=numeric]:not([aria-busy]) .odds-dist")
    assert phone.locator("#odds li[data-outcome]").count() == 0
    assert "100%" not in phone.inner_text("#odds")
    entry, toast = roll(phone, "numeric")
    sentence = assert_reads_as_a_sentence(entry, "gm", check=False)
    assert re.fullmatch(r"gm rolls \d+ dic?e?: \d+\.", sentence), sentence
    assert_in_view(phone, toast)


def test_the_odds_of_exploding_dice_are_in_words(phone, table):
    open_room(phone, table, "artifice")
    show_tab(phone, "roll")
    phone.select_option("#tray-action", "check")
    phone.wait_for_selector("#odds li[data-outcome]")
    notes = " ".join(phone.locator("#odds .note").all_inner_texts())
    assert not re.search(r"\de-\d|_", notes), notes
    bars = " ".join(phone.locator("#odds .name").all_inner_texts())
    assert "_" not in bars, bars


def test_the_dice_tumble_where_motion_is_welcome(browser, table):
    context = browser.new_context(viewport=DESK, reduced_motion="no-preference")
    page = context.new_page()
    log_in(page, table["url"], "gm", table["password"])
    open_room(page, table, "rd6")
    _, toast = roll(page, "roll")
    die = toast.locator(".toast-dice .die").first
    assert die.evaluate("d => getComputedStyle(d).animationName") == "die-tumble"
    seconds = die.evaluate(
        "d => parseFloat(getComputedStyle(d).animationDuration)"
        " + parseFloat(getComputedStyle(d).animationDelay)"
    )
    assert seconds <= 0.6
    page.screenshot(path=str(ARTIFACTS / "21-log-words-desk.png"))
    context.close()
