"""The scene editor's token list in a real browser: the GM on a phone opens
a token's card, moves it and removes another, and the player's room, open
all along, follows live. Screenshots go to tests/artifacts/."""

import pytest

from .test_accessibility import violations
from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def player(browser, table):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, table["url"], "player", table["password"])
    enter_room(page, table)
    yield page
    context.close()


def open_scene(page, table):
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/gm/")
    page.click("text=Crypt")
    page.wait_for_selector(".token-cards")


def test_the_gm_edits_a_token_on_a_phone_and_the_room_follows(browser, player, table, shot):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, table["url"], "gm", table["password"])
    open_scene(page, table)
    card = page.locator(f"#token-{table['tenrec_token']}")
    card.locator("summary").first.click()
    shot(page, "20-gm-scene-token-card-phone")
    # The open card fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    card.get_by_label("Column (x)").fill("6")
    card.get_by_label("Row (y)").fill("7")
    card.get_by_role("button", name="Save Tenrec").click()
    page.wait_for_selector("text=Token Tenrec saved.")
    assert "(6, 7)" in page.locator(f"#token-{table['tenrec_token']} summary").first.inner_text()
    player.wait_for_function(
        "id => document.querySelector(`[data-token-id='${id}']`)"
        "?.getAttribute('aria-label')?.includes('column 6, row 7')",
        arg=table["tenrec_token"],
    )

    zombie = page.locator(f"#token-{table['zombie_token']}")
    zombie.locator("summary").first.click()
    zombie.get_by_text("Remove Zombie…").click()
    shot(page, "20-gm-scene-remove-asks-phone")
    zombie.get_by_role("button", name="Yes, remove Zombie").click()
    page.wait_for_selector("text=Token Zombie removed.")
    assert page.locator(f"#token-{table['zombie_token']}").count() == 0
    context.close()


def test_the_scene_page_has_no_serious_violation(browser, table):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    log_in(page, table["url"], "gm", table["password"])
    open_scene(page, table)
    card = page.locator(".token-card").first
    card.locator("summary").first.click()
    card.locator(".token-remove summary").click()
    assert violations(page) == []
    context.close()
