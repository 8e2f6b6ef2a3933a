"""Pings in a real browser, in tests/browser/fog_seed.py's Vault (fog on,
the player's Tenrec in the west room, the east room unseen by the party):
the GM at a desk Alt+clicks and the pulse shows on the player's phone with
the GM's name and colour; a ping in the unseen east room never shows there;
the player's long press shows on the GM's map; P on a focused token pings
its middle; the GM's "Pull view" pans
the player's map to the point; under prefers-reduced-motion the pulse
stands still. Screenshots: /tmp/pings-desk.png (1440x900) and
/tmp/pings-phone.png (390x844), /tmp/pings-phone-pulled.png after the
pull, and /tmp/pings-still-*.png under reduced motion."""

import pytest

from tests.browser import room
from tests.browser.room import square_centre, touch

from .conftest import seeded_server
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

WEST = (3, 5)  # open floor in the west room, which Tenrec sees
EAST = (10, 6)  # the east room: no player has seen it


@pytest.fixture(scope="module")
def vault(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.fog_seed")


@pytest.fixture(scope="module")
def gm(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "gm", DESK)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "player", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    yield page
    page.context.close()


def watch_pings(page):
    """Record every pulse the page draws from now on (they go after two
    seconds): the list starts again, the observer is set once."""
    page.evaluate(
        """() => {
            window.pingsSeen = [];
            if (window.pingsWatched) return;
            window.pingsWatched = true;
            const layer = document.querySelector('.layer-pings');
            new MutationObserver((changes) => {
                for (const change of changes) for (const node of change.addedNodes) {
                    window.pingsSeen.push({x: Number(node.dataset.x),
                                           y: Number(node.dataset.y),
                                           name: node.querySelector('text').textContent,
                                           colour: node.style.getPropertyValue('--ping').trim(),
                                           pull: node.classList.contains('pull')});
                }
            }).observe(layer, {childList: true});
        }"""
    )


def seen(page):
    return page.evaluate("() => window.pingsSeen")


def alt_click(page, square):
    x, y = square_centre(page, *square)
    page.keyboard.down("Alt")
    page.mouse.click(x, y)
    page.keyboard.up("Alt")


def ring_style(page) -> list[str]:
    """[animation, opacity] of a pulse's ring, read the moment one shows: a
    pulse lasts 2 s, and a newer one from the same person takes its place,
    so a ring found first and read later may be gone by then."""
    return page.wait_for_function(
        """() => {
          const ring = document.querySelector(".layer-pings .ping .ping-ring");
          if (!ring) return null;
          const style = getComputedStyle(ring);
          return [style.animationName, style.opacity];
        }"""
    ).json_value()


def test_a_gms_alt_click_pulses_on_the_players_phone(gm, player):
    watch_pings(gm)
    watch_pings(player)
    alt_click(gm, WEST)
    gm.wait_for_selector(".layer-pings .ping text:text('You')")
    pulse = player.wait_for_selector(".layer-pings .ping")
    assert pulse.query_selector("text").text_content() == "gm"
    gm.screenshot(path="/tmp/pings-desk.png")
    player.screenshot(path="/tmp/pings-phone.png")
    [arrived] = seen(player)
    assert (arrived["x"], arrived["y"]) == (WEST[0] + 0.5, WEST[1] + 0.5)
    # The pulse is the GM's colour, the one the GM's own page drew.
    assert arrived["colour"] == seen(gm)[0]["colour"] != ""
    assert "gm pinged column 3, row 5" in player.text_content("#map-status")
    # Gone after its two seconds.
    player.wait_for_selector(".layer-pings .ping", state="detached")


def test_a_ping_in_the_unseen_room_never_shows_on_the_phone(gm, player):
    watch_pings(player)
    alt_click(gm, EAST)
    gm.wait_for_function("() => window.pingsSeen.length === 2")
    alt_click(gm, (1, 1))  # then one the party sees: it arrives after the other would have
    player.wait_for_function("() => window.pingsSeen.length >= 1")
    assert [(p["x"], p["y"]) for p in seen(player)] == [(1.5, 1.5)]
    gm.wait_for_function("() => window.pingsSeen.length === 3")  # the GM's own, drawn too


def test_a_players_long_press_shows_on_the_gms_map(gm, player):
    watch_pings(gm)
    at = square_centre(player, 2, 6)
    touch(player, "touchStart", [at])
    # A finger held still until the ping shows under it, as a person holds
    # (a fixed hold could end before a busy page's timer had fired).
    player.wait_for_selector(".layer-pings .ping text:text('You')")
    touch(player, "touchEnd", [])
    # The GM's page may still draw its own last ping of the test before.
    gm.wait_for_function("() => window.pingsSeen.some((p) => p.name === 'player')")
    [arrived] = [p for p in seen(gm) if p["name"] != "You"]
    assert (arrived["name"], arrived["pull"]) == ("player", False)
    assert abs(arrived["x"] - 2.5) < 0.01 and abs(arrived["y"] - 6.5) < 0.01
    # The player's own page drew it too, and moved nothing.
    player.wait_for_selector(".layer-pings .ping text:text('You')")


def test_p_on_a_focused_token_pings_its_middle(gm, player, vault):
    watch_pings(player)
    gm.focus(f'[data-token-id="{vault["tenrec"]}"]')
    gm.keyboard.press("p")
    player.wait_for_function("() => window.pingsSeen.length === 1")
    [arrived] = seen(player)
    assert (arrived["x"], arrived["y"], arrived["pull"]) == (5.5, 3.5, False)


def test_the_gms_pull_pans_the_players_map_to_the_point(gm, player):
    # The player zooms in and looks at the map's far corner.
    player.evaluate(
        """() => { const v = window.d6room.board.view; v.zoomAt(3); v.pan(-2000, -2000); }"""
    )
    far = square_centre(player, *WEST)
    box = player.evaluate(
        "() => { const r = window.d6room.board.view.screenBox();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; }"
    )
    assert abs(far[0] - box[0]) > 100 or abs(far[1] - box[1]) > 100
    gm.click("#tool-pull")
    assert gm.get_attribute("#tool-pull", "aria-pressed") == "true"
    x, y = square_centre(gm, *WEST)
    gm.mouse.click(x, y)
    assert gm.get_attribute("#tool-pull", "aria-pressed") == "false"
    player.wait_for_selector(".layer-pings .ping.pull")
    player.wait_for_function(
        """([x, y]) => {
            const v = window.d6room.board.view, r = v.screenBox();
            const px = r.left + v.tx + x * v.scale, py = r.top + v.ty + y * v.scale;
            return Math.abs(px - (r.left + r.width / 2)) < 2 && Math.abs(py - (r.top + r.height / 2)) < 2;
        }""",
        arg=[WEST[0] + 0.5, WEST[1] + 0.5],
    )
    assert "gm pulled your view to column 3, row 5" in player.text_content("#map-status")
    player.screenshot(path="/tmp/pings-phone-pulled.png")
    # The player's "More tools" has Ping and no Pull view; the GM's has both.
    player.click("#tools-more-toggle")
    assert player.is_visible("#tool-ping") and not player.is_visible("#tool-pull")
    player.click("#tools-more-toggle")


def test_under_reduced_motion_the_pulse_stands_still(gm, player):
    player.evaluate("() => window.d6room.board.view.fit()")
    for page in (gm, player):
        page.emulate_media(reduced_motion="reduce")
    try:
        alt_click(gm, WEST)
        assert ring_style(player) == ["none", "1"]
        # Still pictures for docs/web.md: the GM's own pulse, the player's copy.
        gm.wait_for_selector(".layer-pings .ping text:text('You')")
        gm.screenshot(path="/tmp/pings-still-desk.png")
        player.screenshot(path="/tmp/pings-still-phone.png")
    finally:
        for page in (gm, player):
            page.emulate_media(reduced_motion="no-preference")
    alt_click(gm, (2, 2))
    assert ring_style(player)[0] == "ping-ring"
