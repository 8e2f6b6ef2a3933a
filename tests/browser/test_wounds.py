"""Wound states in a real browser, in Xero Sum: the player's Kira lies
Dying (0 Wound Points). Her token is marked fallen with a Dying badge on
both pages; the turn order strikes her through and the GM's Next turn
passes over her; the player spends every Insight Die from the turn order
panel and both pages see her Wounded and back in the fight."""

import pytest

from tests.browser.room import show_tab

from .test_combat import open_room

pytestmark = pytest.mark.browser


def room(browser, table, who):
    wasteland = {"fight": {"campaign": table["wasteland"]["campaign"]}}
    return open_room(browser, {**table, **wasteland}, who, {"width": 1280, "height": 860})


@pytest.fixture(scope="module")
def pages(browser, table):
    gm, player = room(browser, table, "gm"), room(browser, table, "player")
    yield gm, player
    gm.context.close()
    player.context.close()


def token(page, table, key):
    return page.locator(f'[data-token-id="{table["wasteland"]["tokens"][key]}"]')


def plate_words(page, table, key):
    """The token's plate's words, printed just after its button."""
    return page.locator(f'[data-print-for="{table["wasteland"]["tokens"][key]}"] .badge')


def test_a_dying_character_is_marked_skipped_and_saved(pages, table, shot):
    gm, player = pages
    for page in (gm, player):
        kira = token(page, table, "kira")
        assert plate_words(page, table, "kira").text_content() == "Dying"
        assert "fallen" in kira.get_attribute("class")
        assert plate_words(page, table, "raider").count() == 0
    show_tab(gm, "gm")
    gm.click("#encounter-start")
    player.wait_for_selector("#turns[data-state=running]")
    for page in (gm, player):
        page.wait_for_selector("#turn-list li[data-fallen=out]")
        struck = page.locator("#turn-list li[data-fallen=out] .name")
        assert struck.inner_text() == "Kira"
    # Kira joined first; the first turn passes over her to the raider.
    gm.click("#turn-next")
    player.wait_for_function("() => document.querySelector('#turns').dataset.turns === '1'")
    assert player.inner_text("#turn-list li[aria-current=step] .name") == "Raider"
    button = player.locator("#turns-dying button")
    assert "Spend every Insight Die (2)" in button.inner_text()
    shot(player, "30-player-kira-dying")
    button.click()
    for page in (player, gm):
        page.wait_for_function(
            "id => document.querySelector(`[data-print-for='${id}'] .badge`)?.textContent"
            " === 'Wounded'",
            arg=table["wasteland"]["tokens"]["kira"],
        )
        assert "fallen" not in token(page, table, "kira").get_attribute("class")
        assert page.locator("#turn-list li[data-fallen]").count() == 0
        assert page.locator("#turns-dying").is_hidden()
        assert page.locator("#turn-list li", has_text="Kira").locator(".state").inner_text() == (
            "Wounded (WP 2)"
        )
    assert not gm.errors and not player.errors
    shot(gm, "31-gm-kira-saved")
