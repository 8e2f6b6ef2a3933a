"""The decisions queue in a real browser (docs/web.md, "Decisions"): the
player's hits wait for the GM; the GM, at a desk and on a touch phone, sees
a toast and "Decisions N" in the room bar, applies a hit once from the
queue, and finds an older hit stale (a later one applied since): its Apply
is off in the queue and the log, the server refuses it with its reason when
an old page sends it anyway, and the GM declines it. Screenshots go to
tests/artifacts/."""

import pytest

from tests.browser import room
from tests.browser.conftest import seeded_server
from tests.browser.room import show_tab

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

# Apocalyptia: a 4 on the attack die + Melee 6 against a 2 + Dodge 3; the
# machete's damage is 5 + 3.
HIT = [4, 2]
DAMAGE = 8


@pytest.fixture(scope="module")
def docks(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.decisions_seed")


@pytest.fixture(params=["desk", "phone"])
def pages(request, browser, docks):
    touch = request.param == "phone"
    gm = room.open_room(
        browser, docks, docks["campaign"], "gm", PHONE if touch else DESK, touch=touch
    )
    player = room.open_room(browser, docks, docks["campaign"], "player", DESK)
    yield request.param, gm, player
    for page in (gm, player):
        assert page.errors == []
        page.context.close()


def hit(player, docks) -> int:
    """The player's attack over their own socket; the attack's id."""
    ack = player.evaluate(
        "([a, t, faces]) => d6room.socket.send({type: 'attack', attacker_token: a,"
        " target_token: t, weapon: 'Machete', faces})",
        [docks["tokens"]["tenrec"], docks["tokens"]["thug"], HIT],
    )
    assert ack["attack"]["status"] == "awaiting_damage"
    return ack["attack"]["id"]


def heal(gm, docks) -> None:
    """The thug unhurt again (two hits kill him), for a test of its own."""
    status = gm.evaluate(
        """id => fetch(`/api/characters/${id}/`, {
            method: "PATCH",
            headers: {"Content-Type": "application/json",
                      "X-CSRFToken": document.cookie.match(/csrftoken=([^;]+)/)[1]},
            body: JSON.stringify({resources: {wounds: 0}}),
        }).then(r => r.status)""",
        docks["thug"],
    )
    assert status == 200


def thug_wounds(page, docks) -> int:
    return page.evaluate(
        "id => fetch(`/api/characters/${id}/`).then(r => r.json()).then(c => c.resources.wounds ?? 0)",
        docks["thug"],
    )


def count(page) -> str:
    return page.inner_text("#decisions-button .count")


def press(page, locator, touch):
    if touch:
        locator.tap()
    else:
        locator.click()


def test_a_hit_waits_in_the_gms_queue_and_applies_once(pages, docks, shot):
    where, gm, player = pages
    touch = where == "phone"
    heal(gm, docks)
    before = thug_wounds(gm, docks)
    attack_id = hit(player, docks)
    gm.wait_for_selector(".decision-toast:not([hidden])")
    assert "Tenrec → Thug" in gm.inner_text(".decision-toast")
    gm.wait_for_selector("#decisions-button:not([hidden])")
    assert count(gm) == "1"
    shot(gm, f"60-gm-decision-toast-{where}")
    press(gm, gm.locator("#decisions-button"), touch)
    entry = gm.locator(f'#decisions-panel .decision[data-attack="{attack_id}"]')
    assert f"{DAMAGE} damage" in entry.inner_text()
    shot(gm, f"61-gm-decision-queue-{where}")
    press(gm, entry.locator(".decision-apply"), touch)
    gm.wait_for_function(
        "() => document.querySelector('#decisions-button .count').textContent === '0'"
    )
    assert thug_wounds(gm, docks) == before + DAMAGE
    # The log's own buttons for it are gone on every page, live.
    for page in (gm, player):
        show_tab(page, "log")
        page.wait_for_selector(
            f'#log .attack-entry[data-attack-id="{attack_id}"][data-status=applied]'
        )
    assert gm.locator(f'#log [data-attack-id="{attack_id}"] .apply-damage').count() == 0
    # An old page's second click is refused: applied once.
    refused = gm.evaluate(
        "id => d6room.socket.send({type: 'attack.damage', attack: id}).then(() => null, e => e)",
        attack_id,
    )
    assert refused["code"] == "already_applied"
    assert thug_wounds(gm, docks) == before + DAMAGE
    shot(gm, f"62-gm-decision-applied-{where}")


def test_a_stale_hit_is_refused_with_its_reason_and_declined(pages, docks, shot):
    where, gm, player = pages
    touch = where == "phone"
    heal(gm, docks)
    old = hit(player, docks)
    newer = hit(player, docks)
    gm.wait_for_function(
        "() => document.querySelector('#decisions-button .count').textContent === '2'"
    )
    before = thug_wounds(gm, docks)
    press(gm, gm.locator("#decisions-button"), touch)
    press(gm, gm.locator(f'.decision[data-attack="{newer}"] .decision-apply'), touch)
    stale = gm.locator(f'.decision.stale[data-attack="{old}"]')
    stale.wait_for()
    assert "Cannot apply: a later attack on Thug" in stale.inner_text()
    assert stale.locator(".decision-apply").is_disabled()
    shot(gm, f"63-gm-decision-stale-{where}")
    gm.keyboard.press("Escape")
    show_tab(gm, "log")
    log_apply = gm.locator(f'#log [data-attack-id="{old}"] .apply-damage')
    gm.wait_for_function(
        "id => document.querySelector(`#log [data-attack-id='${id}'] .apply-damage`).disabled",
        arg=old,
    )
    assert "later attack" in log_apply.get_attribute("title")
    # Sent anyway (an old page): the server refuses it, the socket stays.
    refused = gm.evaluate(
        "id => d6room.socket.send({type: 'attack.damage', attack: id}).then(() => null, e => e)",
        old,
    )
    assert refused["code"] == "superseded"
    assert "has been applied since" in refused["message"]
    assert gm.get_attribute("#conn", "data-state") == "open"
    assert thug_wounds(gm, docks) == before + DAMAGE
    if gm.locator("#decisions-panel").is_hidden():
        press(gm, gm.locator("#decisions-button"), touch)
    press(gm, stale.locator(".decision-decline"), touch)
    gm.wait_for_function(
        "() => document.querySelector('#decisions-button .count').textContent === '0'"
    )
    assert thug_wounds(gm, docks) == before + DAMAGE
    for page in (gm, player):
        show_tab(page, "log")
        page.wait_for_selector(f'#log [data-attack-id="{old}"][data-status=declined]')
        assert "declined the damage" in page.inner_text("#log")
    shot(gm, f"64-gm-decision-declined-{where}")
