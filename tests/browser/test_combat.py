"""Combat in a real browser: the GM at a desk and the player on a phone share
the seed's zombie fight. The player's Tenrec attacks the adjacent zombie
with physical dice giving the seed's chain (Combat Test 3 vs 1, cascade 2;
Wound Test 4 vs 1: Condition down three steps), both pages show the
zombie Wounded, the GM undoes it and both show it Healthy again; the turn
order passes on both pages; a move leaves a trail, an attack from too far
is refused with the server's reason, and the token goes back to where its
turn began. Screenshots go to tests/artifacts/."""

import pytest

from tests.browser import room
from tests.browser.room import show_tab
from tests.combat.battle import ZOMBIE_FIGHT

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


def open_room(browser, table, who, viewport):
    return room.open_room(browser, table, table["fight"]["campaign"], who, viewport)


@pytest.fixture(scope="module")
def gm(browser, table):
    page = open_room(browser, table, "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, table):
    page = open_room(browser, table, "player", PHONE)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def ids(table):
    return table["fight"]["tokens"]


def token_label(page, token_id):
    return page.get_attribute(f'[data-token-id="{token_id}"]', "aria-label")


def wait_turns(page, turns):
    page.wait_for_function(
        "n => document.querySelector('#turns').dataset.turns === String(n)", arg=turns
    )


def current_combatant(page):
    return page.inner_text("#turn-list li[aria-current=step] .name")


def test_the_gm_starts_the_encounter_and_both_pages_follow_the_turns(gm, player, shot):
    show_tab(gm, "gm")
    gm.click("#encounter-start")
    player.wait_for_selector("#turns[data-state=running]")
    gm.click("#turn-roll-all")
    show_tab(gm, "log")
    show_tab(player, "log")
    gm.wait_for_selector("#log .initiative-entry")
    player.wait_for_selector("#log .initiative-entry")
    gm.click("#turn-next")
    for page in (gm, player):
        wait_turns(page, 1)
        assert "Round 1" in page.inner_text("#turns-status")
    # The game clock is the desk's; a phone's strip says only whose turn it is.
    assert "game time 0:00" in gm.inner_text("#turns-status")
    assert current_combatant(gm) == current_combatant(player)
    names = player.eval_on_selector_all("#turn-list .name", "ns => ns.map(n => n.textContent)")
    assert sorted(names) == ["Tenrec", "Zombie"]
    shot(gm, "20-gm-turn-order-desk")


def test_the_player_attacks_with_physical_dice_and_both_pages_see_the_wound(gm, player, ids, shot):
    show_tab(player, "roll")
    player.click("#tab-attack")
    assert player.input_value("#attack-attacker") == str(ids["tenrec"])
    player.select_option("#attack-target", str(ids["zombie"]))
    assert player.input_value("#attack-weapon") == "Long sword"
    player.wait_for_selector("#attack-odds li[data-outcome=hit]")
    assert "5 ft · adjacent" in player.inner_text("#attack-measure")
    assert "Finesse, Might against Agility, Toughness" in player.inner_text("#attack-pools")
    shot(player, "21-player-attack-preview-phone")
    player.check("#attack-physical")
    player.fill("#attack-faces", " ".join(map(str, ZOMBIE_FIGHT)))
    player.click("#attack-go")
    for page in (player, gm):
        show_tab(page, "log")
        page.wait_for_selector("#log .attack-entry[data-status=applied]")
        page.wait_for_function(
            "id => document.querySelector(`[data-token-id='${id}']`)"
            ".getAttribute('aria-label').includes('Wounded')",
            arg=ids["zombie"],
        )
        assert page.text_content(f'[data-print-for="{ids["zombie"]}"] .badge') == "Wounded"
        entry = page.locator("#log .attack-entry").last
        faces = entry.locator(".die").evaluate_all("ds => ds.map(d => Number(d.dataset.face))")
        roles = entry.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.role)")
        assert faces == ZOMBIE_FIGHT
        # Each pool ends with its Wild Die: 4 + 2 Combat Test dice, 6 + 3 Wound Test dice.
        assert [i for i, role in enumerate(roles) if role == "wild"] == [3, 5, 11, 14]
        text = entry.inner_text()
        assert "Zombie: condition Healthy → Wounded" in text
        assert "cascade 2" in text and "Zombie is Wounded." in text
        # Every number of the step, on demand, in words.
        details = entry.locator("details.entry-details").first
        details.locator("summary").click()
        assert "Condition steps\n3" in details.inner_text()
        assert "physical dice" in text
    shot(player, "22-player-zombie-wounded-phone")
    shot(gm, "22-gm-zombie-wounded-desk")


def test_the_gm_undoes_the_attack_and_both_pages_show_the_zombie_healthy(gm, player, ids, shot):
    show_tab(gm, "gm")
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.click("#gm-undo")
    gm.wait_for_selector("#gm-undo-what:has-text('Undone')")
    assert "attack on Zombie" in gm.inner_text("#gm-undo-what")
    for page in (gm, player):
        show_tab(page, "log")
        page.wait_for_selector("#log .attack-entry[data-status=undone]")
        page.wait_for_function(
            "id => !document.querySelector(`[data-token-id='${id}']`)"
            ".getAttribute('aria-label').includes('Wounded')",
            arg=ids["zombie"],
        )
        assert page.locator(f'[data-print-for="{ids["zombie"]}"] .badge').count() == 0
        zombie = page.locator("#turn-list li", has_text="Zombie")
        assert zombie.locator(".state").inner_text() == "Healthy"
        assert "Undone: an attack" in page.inner_text("#log")
    shot(player, "23-player-undone-phone")
    shot(gm, "23-gm-undone-desk")


def test_the_turn_passes_on_both_pages(gm, player, shot):
    before = current_combatant(player)
    gm.click("#turn-next")
    for page in (gm, player):
        wait_turns(page, 2)
        assert current_combatant(page) != before
    assert current_combatant(gm) == current_combatant(player)
    shot(player, "24-player-next-turn-phone")


def test_a_move_leaves_a_trail_too_far_is_refused_and_reset_brings_it_back(gm, player, ids, shot):
    tenrec = player.locator(f'[data-token-id="{ids["tenrec"]}"]')
    tenrec.focus()
    for x in (2, 1, 0):
        player.keyboard.press("ArrowLeft")
        player.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id).x === x", arg=[ids["tenrec"], x]
        )
    for page in (player, gm):
        page.wait_for_selector(f'.trail[data-trail-for="{ids["tenrec"]}"][data-steps="3"]')
    show_tab(player, "roll")
    player.click("#tab-attack")
    player.select_option("#attack-target", str(ids["zombie"]))
    player.wait_for_function("document.querySelector('#attack-error').textContent !== ''")
    assert "out of range" in player.inner_text("#attack-error")
    player.uncheck("#attack-physical")
    player.click("#attack-go")
    player.wait_for_function(
        "document.querySelector('#attack-error').textContent.includes('no attack can be made')"
    )
    shot(player, "25-player-out-of-range-phone")
    shot(gm, "25-gm-sees-trail-desk")
    # The arrow keys selected the token they moved: its reset is offered
    # (under "More tools" on a phone).
    player.click("#tools-more-toggle")
    player.click("#token-reset")
    for page in (player, gm):
        page.wait_for_function(
            "id => window.d6room.board.tokens.get(id).x === 3", arg=ids["tenrec"]
        )
        page.wait_for_function(
            "id => !document.querySelector(`.trail[data-trail-for='${id}']`)", arg=ids["tenrec"]
        )
    shot(player, "26-player-back-at-turn-start-phone")
    assert gm.errors == [] and player.errors == []
    # The attack panel and the turn order fit both screens: nothing scrolls sideways.
    for page, size in ((player, PHONE), (gm, DESK)):
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_the_gms_attack_odds_follow_a_pool_as_it_is_typed(gm, ids):
    show_tab(gm, "roll")
    gm.click("#tab-attack")
    gm.select_option("#attack-attacker", str(ids["tenrec"]))
    gm.select_option("#attack-target", str(ids["zombie"]))
    gm.wait_for_selector("#attack-odds li[data-outcome=hit]")
    gm.click("#attack-gm summary")
    pool = gm.locator("#attack-overrides input[type=number]").first
    pool.wait_for()
    before = gm.inner_text("#attack-odds")
    # Typed, not committed: no blur, no Enter. The odds still follow.
    pool.click()
    gm.keyboard.press("Control+A")
    gm.keyboard.type("9")
    gm.wait_for_function(
        "before => !document.querySelector('#attack-odds[aria-busy]')"
        " && document.querySelector('#attack-odds').innerText !== before",
        arg=before,
    )
    assert gm.evaluate("document.activeElement.type") == "number"  # still typing


def test_a_token_the_gm_hides_is_no_longer_selected_on_the_players_page(gm, player, ids):
    zombie = ids["zombie"]
    player.evaluate("id => window.d6room.board.select(id)", zombie)
    assert "Zombie selected" in player.inner_text("#map-status")
    gm.evaluate(
        "id => window.d6room.socket.send({type: 'token.hide', token: id, hidden: true})", zombie
    )
    player.wait_for_function("id => !window.d6room.board.tokens.has(id)", arg=zombie)
    assert "Zombie" not in player.inner_text("#map-status")
    assert player.evaluate("window.d6room.board.selected") is None
    gm.evaluate(
        "id => window.d6room.socket.send({type: 'token.hide', token: id, hidden: false})", zombie
    )
    player.wait_for_function("id => window.d6room.board.tokens.has(id)", arg=zombie)


def test_the_gm_attacks_and_passes_the_turn_with_the_keyboard(gm, ids):
    show_tab(gm, "roll")
    gm.focus("#tab-tray")
    gm.keyboard.press("ArrowRight")  # the Dice | Attack switch, as tabs do
    assert gm.get_attribute("#tab-attack", "aria-selected") == "true"
    gm.focus("#attack-attacker")
    gm.select_option("#attack-attacker", str(ids["zombie"]))
    gm.select_option("#attack-target", str(ids["tenrec"]))
    gm.wait_for_selector("#attack-odds li[data-outcome]")
    attacks = gm.locator("#log .attack-entry").count()
    gm.focus("#attack-go")
    gm.keyboard.press("Enter")
    gm.wait_for_function(
        "n => document.querySelectorAll('#log .attack-entry').length > n", arg=attacks
    )
    turns = int(gm.get_attribute("#turns", "data-turns"))
    gm.focus("#turn-next")
    gm.keyboard.press("Enter")
    wait_turns(gm, turns + 1)


def test_outside_an_encounter_a_trail_shows_the_last_few_steps(gm, player, ids):
    """Once the fight ends, a token's trail is its last five moves, on the
    page that followed them live and in a fresh read of the server's."""
    gm.evaluate("() => window.d6room.socket.send({type: 'encounter.end'})")
    for page in (gm, player):
        page.wait_for_function("() => !document.querySelector('.trail')")
    tenrec = ids["tenrec"]
    for x in (2, 1, 0, 1, 2, 3, 2):
        player.evaluate(
            "([id, x]) => window.d6room.socket.send({type: 'token.move', token: id, x, y:"
            " window.d6room.board.tokens.get(id).y})",
            [tenrec, x],
        )
        player.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id).x === x", arg=[tenrec, x]
        )
    for page in (player, gm):
        page.wait_for_selector(f'.trail[data-trail-for="{tenrec}"][data-steps="5"]')
    gm.reload()
    gm.wait_for_selector(f'.trail[data-trail-for="{tenrec}"][data-steps="5"]')
    assert gm.errors == [] and player.errors == []
