"""A game the room page has never seen, drawn from its kit alone: Strain
Sixes (tests/games/sixes.py) declares a wound track of a kind no other game
has (Strain past fixed marks) and a resource a defender spends against a
hit (Grit). No script knows either (tests/games/test_browser_names_no_game.py):
the badges, the fallen mark and the resource panel under a waiting attack
come from the declaration in the tray spec, and the panel takes the kit's
reaction through the table's one reaction intent."""

import pytest

from tests.browser import room
from tests.browser.conftest import seeded_server

from .test_room import DESK

pytestmark = pytest.mark.browser

TWO_HITS = [6, 6]  # Fight 2: two dice, both hit; a club adds nothing


@pytest.fixture(scope="module")
def pit(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.strain_seed")


@pytest.fixture(scope="module")
def pages(browser, pit):
    gm = room.open_room(browser, pit, pit["campaign"], "gm", DESK)
    player = room.open_room(browser, pit, pit["campaign"], "player", DESK)
    yield gm, player
    for page in (gm, player):
        assert page.errors == []
        page.context.close()


def attack(page, pit, attacker, target) -> dict:
    return page.evaluate(
        "([a, t, faces]) => d6room.socket.send({type: 'attack', attacker_token: a,"
        " target_token: t, weapon: 'Club', faces}).then(ack => ack.attack, e => ({error: e?.message || JSON.stringify(e)}))",
        [pit["tokens"][attacker], pit["tokens"][target], TWO_HITS],
    )


def badge_is(page, pit, key, text):
    page.wait_for_function(
        "([id, text]) => document.querySelector(`[data-print-for='${id}'] .badge`)?.textContent"
        " === text",
        arg=[pit["tokens"][key], text],
    )


def test_the_resource_panel_is_drawn_from_the_kit(pages, pit, shot):
    gm, player = pages
    made = attack(gm, pit, "brute", "vex")
    assert made.get("status") == "awaiting_defender" and made["damage"] == 2, made
    for page in (player, gm):
        room.show_tab(page, "log")
        entry = page.locator(f'#log .attack-entry[data-attack-id="{made["id"]}"]')
        entry.wait_for()
        status = entry.locator(".attack-status").inner_text()
        assert status == "Vex takes 2 damage; their player may spend Grit first, each taking 1 off."
        controls = entry.locator(".attack-controls")
        assert controls.locator("label").first.inner_text() == "Grit to spend (you have 3)"
        assert controls.locator("input.amount").get_attribute("max") == "2"
        assert controls.locator(".take-damage").is_enabled()
    shot(player, "strain-player-grit-panel")
    # The player spends both points through the declared reaction: nothing
    # lands, and both pages say so in the kit's words.
    entry = player.locator(f'#log .attack-entry[data-attack-id="{made["id"]}"]')
    entry.locator(".attack-controls input.amount").fill("2")
    entry.locator(".take-damage").click()
    for page in (player, gm):
        page.locator("#log", has_text="Vex takes 0 damage after 2 Grit.").wait_for()
        entry = page.locator(f'#log .attack-entry[data-attack-id="{made["id"]}"]')
        assert entry.locator(".attack-status").inner_text() == "Applied."
        assert entry.locator(".take-damage").count() == 0


def test_the_new_wound_track_is_read_by_the_page(pages, pit, shot):
    gm, player = pages
    # Strain 1, below the first mark: the GM's badge says the resource. The
    # player knows the NPC only from the attacks on it, whose changes the
    # page reads through the declared track.
    badge_is(gm, pit, "brute", "Strain 1")
    for page in (gm, player):
        assert page.locator(f'[data-print-for="{pit["tokens"]["vex"]}"] .badge').count() == 0
    for expected in ("Shaken", "Reeling", "Broken"):
        made = attack(player, pit, "vex", "brute")
        assert made.get("status") == "applied", made
        for page in (gm, player):
            badge_is(page, pit, "brute", expected)
    for page in (gm, player):
        brute = page.locator(f'[data-token-id="{pit["tokens"]["brute"]}"]')
        assert "fallen" in brute.get_attribute("class")  # Broken is out of the fight
        assert "dead" not in brute.get_attribute("class").split()  # and never dead
    shot(gm, "strain-gm-broken")
