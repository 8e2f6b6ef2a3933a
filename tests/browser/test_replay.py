"""A play session replayed in a real browser (docs/replay.md): the GM plays
it and watches Tenrec walk, jumps to a roll, looks through the player's
eyes; the player's own replay never holds the hidden Lurker nor the GM's
secret roll. On a desk and on a phone."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in

from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def played(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.replay_seed")


def replay_page(browser, played, who, viewport, query=""):
    page = browser.new_context(viewport=viewport).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, played["url"], who, played["password"])
    page.goto(f"{played['url']}/campaigns/{played['campaign']}/sessions/1/replay/{query}")
    page.wait_for_selector("#replay[data-state=ready]")
    return page


def token_at(page, token_id):
    """Where the replay's map draws the token (None: not on it), from the DOM."""
    return page.evaluate(
        """(id) => {
            const t = window.d6replay.board.tokens.get(id);
            const node = document.querySelector(`#map [data-token-id="${id}"]`);
            return t && node ? [t.x, t.y] : null;
        }""",
        token_id,
    )


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_gm_plays_the_session_and_jumps_to_a_roll(browser, played, viewport, shot):
    page = replay_page(browser, played, "gm", viewport)
    name = "desk" if viewport is DESK else "phone"
    # The map as the session started: Tenrec where the move before it left him.
    assert token_at(page, played["tenrec"]) == [2, 2]
    assert token_at(page, played["lurker"]) == [10, 6]  # the GM sees the hidden one
    shot(page, f"replay-01-gm-start-{name}")
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector("#replay[data-state=ended]", timeout=20000)
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) == [9, 5]
    log = page.locator("#replay-log").inner_text()
    assert "Session 1 ended" in log and "Tenrec moved to (6, 5)" in log
    shot(page, f"replay-02-gm-end-{name}")

    rolls = page.locator("#replay-rolls button")
    assert rolls.count() == 2
    rolls.nth(0).click()
    assert page.get_attribute("#replay", "data-seq") == str(played["public_seq"])
    # Tenrec had walked to (6, 2) when the player rolled, and not further.
    assert token_at(page, played["tenrec"]) == [6, 2]
    assert rolls.nth(0).get_attribute("aria-current") == "true"
    # The scrubber goes back to the start exactly.
    page.locator("#replay-scrub").fill("0")
    assert token_at(page, played["tenrec"]) == [2, 2]
    # No wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_players_replay_has_nothing_hidden_from_them(browser, played, viewport, shot):
    page = replay_page(browser, played, "player", viewport)
    name = "desk" if viewport is DESK else "phone"
    assert page.locator("#replay-as").count() == 0  # no one else's view for a player
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector("#replay[data-state=ended]", timeout=20000)
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) is None
    assert page.locator("#replay-rolls button").count() == 1
    html = page.content()
    assert "Lurker" not in html
    everything = page.evaluate("JSON.stringify(window.d6replay.state())")
    assert "Lurker" not in everything
    shot(page, f"replay-03-player-{name}")
    assert page.errors == []
    page.context.close()


def test_the_gm_sees_through_the_players_eyes(browser, played):
    page = replay_page(browser, played, "gm", DESK)
    page.select_option("#replay-as", str(played["users"]["player"]))
    page.wait_for_url(f"**/replay/?as={played['users']['player']}")
    page.wait_for_selector("#replay[data-state=ready]")
    assert "player" in page.locator("#replay-whose").inner_text()
    page.locator("#replay-scrub").fill(page.get_attribute("#replay-scrub", "max"))
    assert token_at(page, played["tenrec"]) == [6, 5]
    assert token_at(page, played["lurker"]) is None
    assert page.locator("#replay-rolls button").count() == 1
    page.context.close()


# ------------------------------------------------------------------ fog of war


@pytest.fixture(scope="module")
def fogged(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.replay_fog_seed")


def fog_at(page, x, y):
    """What the replay's fog makes of the middle of square (x, y)."""
    return page.evaluate("([x, y]) => window.d6replay.board.fog.sees(x + 0.5, y + 0.5)", [x, y])


def fog_of_every_square(page, width=14, height=8):
    return page.evaluate(
        """([w, h]) => {
            const out = {};
            for (let x = 0; x < w; x += 1)
                for (let y = 0; y < h; y += 1)
                    out[`${x},${y}`] = window.d6replay.board.fog.sees(x + 0.5, y + 0.5);
            return out;
        }""",
        [width, height],
    )


def scrub_to(page, n):
    page.locator("#replay-scrub").fill(str(n))
    page.wait_for_function(f"document.getElementById('replay').dataset.pos === '{n}'")


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["desk", "phone"])
def test_the_players_replay_draws_their_fog_and_the_room_walked_into(
    browser, fogged, viewport, shot
):
    page = replay_page(browser, fogged, "player", viewport)
    name = "desk" if viewport is DESK else "phone"
    assert page.locator(".layer-fog.fog-on").count() == 1
    # As the session started: Tenrec's west room in view, the east room
    # behind the closed door never seen, its ghoul not on the page.
    assert fog_at(page, 4, 3) == "view"
    assert fog_at(page, 11, 2) == "unexplored"
    assert fog_at(page, 13, 6) == "unexplored"  # the closet
    assert token_at(page, fogged["ghoul"]) is None
    assert page.get_attribute('.door[data-wall="4"]', "class").find("unseen") == -1
    shot(page, f"replay-10-player-fog-start-{name}")

    # The GM opens the door: the east room comes into view through it.
    scrub_to(page, 2)
    assert fog_at(page, 9, 3) == "view"
    # Tenrec walks in and the door shuts behind him: the west room stays
    # explored (dimmed), the east room is in view, the closet never seen.
    end = int(page.get_attribute("#replay-scrub", "max"))
    scrub_to(page, end)
    assert token_at(page, fogged["tenrec"]) == [9, 2]
    assert token_at(page, fogged["ghoul"]) == [11, 2]
    assert token_at(page, fogged["wraith"]) is None
    assert fog_at(page, 11, 2) == "view"
    assert fog_at(page, 2, 2) == "explored"
    assert fog_at(page, 13, 6) == "unexplored"
    # Square by square, the fog the server kept for the party at the end.
    assert fog_of_every_square(page) == fogged["fog_at_end"]
    shot(page, f"replay-11-player-fog-end-{name}")

    # Back to the start: what was explored later is unknown again.
    scrub_to(page, 0)
    assert fog_at(page, 11, 2) == "unexplored" and fog_at(page, 2, 2) == "view"
    assert "Wraith" not in page.evaluate("JSON.stringify(window.d6replay.state())")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    assert page.errors == []
    page.context.close()


def test_the_gms_replay_has_fog_only_through_a_players_eyes(browser, fogged):
    page = replay_page(browser, fogged, "gm", DESK)
    assert page.locator(".layer-fog.fog-on").count() == 0
    assert fog_at(page, 11, 2) is None
    assert token_at(page, fogged["wraith"]) == [13, 6]
    page.goto(page.url + f"?as={fogged['users']['player']}")
    page.wait_for_selector("#replay[data-state=ready]")
    assert page.locator(".layer-fog.fog-on").count() == 1
    scrub_to(page, int(page.get_attribute("#replay-scrub", "max")))
    assert fog_of_every_square(page) == fogged["fog_at_end"]
    assert token_at(page, fogged["wraith"]) is None
    assert page.errors == []
    page.context.close()


def test_a_dark_scenes_lit_places_are_remembered_as_explored(browser, fogged):
    """The replay's fog on a dark map (its own module, on the replay page's
    board): an eye with no sight of its own sees only where a carried light
    shines; where the light was stays explored after it moves on."""
    page = replay_page(browser, fogged, "player", DESK)
    page.evaluate(
        """async () => {
            const { FogMemory } = await import("/static/js/replay/fog.js");
            const scene = { id: 99, width: 14, height: 8, walls: [[7, 0, 7, 3]], fog: true, lit: false };
            const me = { id: 1, x: 1, y: 1, size: 1, sight_ft: 0, light_ft: 0, controllers: [5] };
            const lantern = { id: 2, x: 10, y: 4, size: 1, sight_ft: 0, light_ft: 10, controllers: [] };
            const memory = new FogMemory({ shared: "party", own: "u5" }, {});
            const board = window.d6replay.board;
            board.setScene(scene);
            window.darkStep = (x) => {
                const room = { scene, tokens: { 1: me, 2: { ...lantern, x } } };
                memory.follow(room, null);
                board.fog.set(memory.vision(room));
            };
            window.darkStep(10);
        }"""
    )
    assert fog_at(page, 10, 4) == "view"  # lit, and in Tenrec's line of sight
    assert fog_at(page, 1, 1) == "unexplored"  # his own square is dark
    assert fog_at(page, 5, 4) == "unexplored"
    page.evaluate("window.darkStep(4)")
    assert fog_at(page, 4, 4) == "view"
    assert fog_at(page, 10, 4) == "explored"  # lit before, dark now
    assert page.errors == []
    page.context.close()


def test_a_dark_scenes_torch_is_tinted_where_the_eyes_see_it(browser, fogged):
    """The replay draws a carried light's area as the room does (a torch's
    colour, under the fog), cut to where the viewer's eyes see: a spot the
    torch reaches behind a wall from the eye is not tinted."""
    page = replay_page(browser, fogged, "player", DESK)
    page.evaluate(
        """async () => {
            const { FogMemory } = await import("/static/js/replay/fog.js");
            const scene = { id: 98, width: 14, height: 8, walls: [[7, 0, 7, 3]], fog: true, lit: false };
            const me = { id: 1, x: 1, y: 1, size: 1, sight_ft: 0, light_ft: 0, controllers: [5] };
            const lantern = { id: 2, x: 10, y: 4, size: 1, sight_ft: 0, light_ft: 10, controllers: [] };
            const memory = new FogMemory({ shared: "party", own: "u5" }, {});
            const { board, vision } = window.d6replay;
            board.setScene(scene);
            const room = { scene, tokens: { 1: me, 2: lantern } };
            memory.follow(room, null);
            vision.set(memory.vision(room));
        }"""
    )
    page.screenshot(path="/tmp/replay-torch-desk.png")
    lit = page.locator(".layer-lit .lit-clipped .lit-area path")
    assert lit.count() == 2 and lit.first.get_attribute("fill") == "#ffb347"
    tinted = """([x, y]) => {
        const layer = document.querySelector(".layer-lit");
        const clip = layer.querySelector("clipPath path");
        const area = layer.querySelector(".lit-area .lit-dim");
        const p = new DOMPoint(x, y);
        return area.isPointInFill(p) && clip.isPointInFill(p);
    }"""
    assert page.evaluate(tinted, [10.5, 4.5])  # the lantern's square, in sight
    # In the torch's reach, but the wall hides it from the eye at (1.5, 1.5).
    assert not page.evaluate(tinted, [9.5, 3.0])
    assert page.evaluate(
        "([x, y]) => document.querySelector('.layer-lit .lit-dim').isPointInFill(new DOMPoint(x, y))",
        [9.5, 3.0],
    )
    assert page.errors == []
    page.context.close()
