"""The rules kept at the table, in a real browser: the Artifice demo with
its Zombie Incapacitated and an encounter on Kobor's turn (rules_seed). The
player on a touch phone (390 x 844) is refused an attack out of turn, with
the reason; the GM at a desk (1440 x 900) is refused the Zombie's attack and
a roll for it, with its state, acts for the Skeleton archer out of turn, and
overrules for Tenrec. Screenshots go to tests/artifacts/ (61)."""

import pytest

from tests.browser.room import show_tab

from .conftest import seeded_server
from .test_room import DESK, PHONE, log_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tomb(tmp_path_factory, chromium_path):
    """{"url", "campaign", "tokens": {name: id}, "zombie", "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.rules_seed")


def open_page(browser, tomb, who, viewport, touch=False):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, tomb["url"], who, tomb["password"])
    page.goto(f"{tomb['url']}/campaigns/{tomb['campaign']}/room/")
    page.wait_for_selector("#conn[data-state=open]")
    return page


@pytest.fixture
def gm(browser, tomb):
    page = open_page(browser, tomb, "gm", DESK)
    yield page
    assert page.errors == []
    page.context.close()


@pytest.fixture
def player(browser, tomb):
    page = open_page(browser, tomb, "player", PHONE, touch=True)
    yield page
    assert page.errors == []
    page.context.close()


def aim(page, tomb, attacker, target):
    show_tab(page, "roll")
    page.click("#tab-attack")
    page.select_option("#attack-attacker", str(tomb["tokens"][attacker]))
    page.select_option("#attack-target", str(tomb["tokens"][target]))


def refusal(page, text):
    page.wait_for_function(
        "t => document.getElementById('attack-error').textContent.includes(t)", arg=text
    )
    assert "No odds" in page.inner_text("#attack-odds")


def attacked(page):
    page.click("#attack-go")
    page.wait_for_function("document.getElementById('attack-result').textContent.length > 0")
    assert page.inner_text("#attack-error") == ""
    return page.inner_text("#attack-result")


def test_the_player_is_refused_an_attack_out_of_turn_with_the_reason(player, tomb, shot):
    aim(player, tomb, "Tenrec", "Kobor")
    refusal(player, "it is Kobor's turn: Tenrec cannot attack now")
    player.click("#attack-go")
    refusal(player, "it is Kobor's turn: Tenrec cannot attack now")
    assert player.inner_text("#attack-result") == ""
    # The reason is read in full: not under the sticky Attack button.
    assert player.evaluate(
        """() => {
            const reason = document.getElementById('attack-error').getBoundingClientRect();
            const go = document.getElementById('attack-go').getBoundingClientRect();
            return reason.height > 0 && reason.top >= 0 && reason.bottom <= go.top + 1;
        }"""
    )
    shot(player, "61-rules-out-of-turn-player-phone")


def test_the_incapacitated_zombie_neither_attacks_nor_is_rolled_for(gm, tomb, shot):
    aim(gm, tomb, "Zombie", "Tenrec")
    refusal(gm, "Zombie is Incapacitated and cannot act")
    gm.click("#attack-go")
    refusal(gm, "Zombie is Incapacitated and cannot act")
    shot(gm, "61-rules-incapacitated-gm-desk")
    gm.click("#tab-tray")
    gm.select_option("#tray-character", str(tomb["zombie"]))
    gm.click("#tray-roll")
    gm.wait_for_function(
        "document.getElementById('tray-error').textContent.includes("
        "'Zombie is Incapacitated and cannot act')"
    )


def test_the_gm_acts_for_an_npc_out_of_turn_and_overrules_for_a_player(gm, tomb, shot):
    aim(gm, tomb, "Skeleton archer", "Kobor")
    gm.wait_for_selector("#attack-odds .odds-bars li, #attack-odds .odds-dist")
    assert "Skeleton archer attacked Kobor" in attacked(gm)
    aim(gm, tomb, "Tenrec", "Kobor")
    refusal(gm, "it is Kobor's turn: Tenrec cannot attack now")
    gm.click("#attack-gm summary")
    gm.check("#attack-overrule")
    gm.wait_for_selector("#attack-odds .odds-bars li, #attack-odds .odds-dist")
    assert "Tenrec attacked Kobor" in attacked(gm)
    shot(gm, "61-rules-overruled-gm-desk")
