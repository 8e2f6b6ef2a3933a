"""A big map in the browser (tests/browser/big_seed.py: 100 x 100 squares,
1,000 tokens here): "Fit" shows it whole, names and initials are not drawn
where they could not be read, a move touches the moved token's node alone
on another page, a selection restyles two tokens, the attack's lists follow
the map when they come into sight, and a player's page never holds a
hidden token. Also the rule of which names are written (map/labels.js),
run in Chromium against the plain rule it replaced."""

import random
from pathlib import Path

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in, show_tab

pytestmark = pytest.mark.browser

TOKENS = 1000
DESK = {"width": 1440, "height": 900}
LABELS_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "map" / "labels.js"

# The tokens whose nodes (or anything inside them) changed, on the page.
WATCH_TOKENS = """() => {
  window.touched = new Set();
  const layer = document.querySelector("#map .layer-tokens");
  window.tokenWatch = new MutationObserver((records) => {
    for (const r of records) {
      const node = (r.target.nodeType === 1 ? r.target : r.target.parentNode).closest("[data-token-id]");
      if (node) window.touched.add(Number(node.dataset.tokenId));
    }
  });
  window.tokenWatch.observe(layer, { attributes: true, childList: true, subtree: true, characterData: true });
}"""
TOUCHED = "() => [...window.touched].sort((a, b) => a - b)"


@pytest.fixture(scope="module")
def big(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.big_seed", str(TOKENS))


def open_big(browser, big, who):
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, big["url"], who, big["password"])
    page.goto(f"{big['url']}/campaigns/{big['campaign']}/room/")
    page.wait_for_selector("#conn[data-state=open]")
    page.wait_for_function("window.d6room.board.tokens.size > 0")
    return page


def rested(page):
    """The view has rested (map/view.js) and the names are placed."""
    page.wait_for_function("!window.d6room.board.svg.classList.contains('moving')")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_fit_shows_the_whole_map_and_far_names_are_not_drawn(browser, big, shot):
    page = open_big(browser, big, "player")
    try:
        rested(page)
        fitted = page.evaluate(
            """() => {
              const { board } = window.d6room;
              const box = board.view.screenBox();
              const v = board.view;
              return { scale: v.scale, left: v.tx, top: v.ty, right: v.tx + 100 * v.scale,
                       bottom: v.ty + 100 * v.scale, width: box.width, height: box.height };
            }"""
        )
        # 900 px tall less the bars: a 100-square map needs under 8 px a square.
        assert fitted["scale"] < 8
        assert fitted["left"] >= 0 and fitted["top"] >= 0
        assert fitted["right"] <= fitted["width"] + 0.5
        assert fitted["bottom"] <= fitted["height"] + 0.5
        # Zooming out further stops at the fitted zoom; in and out comes back to it.
        page.evaluate("() => window.d6room.board.view.zoomAt(0.5)")
        assert page.evaluate("window.d6room.board.view.scale") == pytest.approx(fitted["scale"])

        # At this zoom no name and no initials are drawn, but the selected token's name.
        hero = big["hero"]
        drawn = """() => [...document.querySelectorAll('#map g.token')].filter(
            g => getComputedStyle(g.querySelector('text.label')).display !== 'none').map(
            g => Number(g.dataset.tokenId))"""
        rested(page)
        assert page.evaluate(drawn) == []
        initials = page.evaluate(
            """() => [...document.querySelectorAll('#map text.initials')].filter(
                t => getComputedStyle(t).display !== 'none').length"""
        )
        assert initials == 0
        page.evaluate("id => window.d6room.board.select(id)", hero)
        assert page.evaluate(drawn) == [hero]
        shot(page, "60-player-big-map-fitted-desk")

        # Zoomed in to 40 px a square, names are placed again, without overlaps.
        page.evaluate("() => window.d6room.board.view.zoomAt(40 / window.d6room.board.view.scale)")
        rested(page)
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('#map g.token:not(.label-crowded) text.label')]
                .map(t => t.getBoundingClientRect()).filter(r => r.width > 0)
                .map(r => [r.left, r.top, r.right, r.bottom])"""
        )
        assert len(boxes) > 10
        overlapping = [
            (a, b)
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
            if a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5
        ]
        assert overlapping == []
        assert (
            page.evaluate("getComputedStyle(document.querySelector('#map text.initials')).display")
            != "none"
        )
        shot(page, "61-player-big-map-zoomed-desk")
        assert page.errors == []
    finally:
        page.context.close()


def test_a_move_touches_the_moved_token_alone_on_the_other_page(browser, big):
    gm = open_big(browser, big, "gm")
    player = open_big(browser, big, "player")
    try:
        runner, hero = big["runner"], big["hero"]
        rested(gm)
        rested(player)
        player.evaluate(WATCH_TOKENS)
        gm.evaluate(WATCH_TOKENS)
        x, y = big["middle"] + 3, big["middle"]
        # A drop, as the GM's drag ends it: the token selected and its move sent.
        gm.evaluate(
            "([id, x, y]) => { window.d6room.board.select(id); window.d6room.board.requestMove(id, x, y); }",
            [runner, x, y],
        )
        player.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id)?.x === x", arg=[runner, x]
        )
        player.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        assert player.evaluate(TOUCHED) == [runner]
        # On the GM's page, the selection and the move restyled that token alone.
        gm.wait_for_function(
            "id => !document.querySelector(`[data-token-id='${id}']`).classList.contains('pending')",
            arg=runner,
        )
        assert gm.evaluate(TOUCHED) == [runner]

        # Selecting another token restyles two: the one left and the one taken.
        gm.evaluate("() => window.touched.clear()")
        gm.evaluate("id => window.d6room.board.select(id)", hero)
        gm.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert gm.evaluate(TOUCHED) == sorted([runner, hero])
        assert gm.errors == [] and player.errors == []
    finally:
        gm.context.close()
        player.context.close()


def test_the_attack_lists_catch_up_when_shown_and_hold_no_hidden_token(browser, big):
    gm = open_big(browser, big, "gm")
    player = open_big(browser, big, "player")
    try:
        runner, hero = big["runner"], big["hero"]
        # The player's page holds only what players may see.
        held = player.evaluate("window.d6room.board.tokens.size")
        assert held == big["visible"]
        assert (
            player.evaluate(
                "ids => ids.filter(id => document.querySelector(`[data-token-id='${id}']`))",
                big["hidden_sample"],
            )
            == []
        )
        # The runner moves while the player's attack is out of sight...
        version = gm.evaluate("id => window.d6room.board.tokens.get(id).version", runner)
        gm.evaluate(
            "([id, v, x, y]) => window.d6room.socket.send({type: 'token.move', token: id, x, y, version: v})",
            [runner, version, big["middle"] + 5, big["middle"]],
        )
        player.wait_for_function(
            "([id, x]) => window.d6room.board.tokens.get(id)?.x === x",
            arg=[runner, big["middle"] + 5],
        )
        # ... and the lists show where it is now once the attack is opened.
        show_tab(player, "roll")
        player.click("#tab-attack")
        assert player.input_value("#attack-attacker") == str(hero)
        text = player.locator(f"#attack-target option[value='{runner}']").inner_text()
        assert text == "Runner (25 ft)"
        # Nearest first: "Choose a target", then every other token the player sees.
        feet = player.eval_on_selector_all(
            "#attack-target option",
            "os => os.slice(1).map(o => Number(/\\((\\d+) ft\\)$/.exec(o.textContent)[1]))",
        )
        assert len(feet) == big["visible"] - 1
        assert feet == sorted(feet)
        assert gm.errors == [] and player.errors == []
    finally:
        gm.context.close()
        player.context.close()


def reference_labels(items, first=None):
    """The rule as written before (every box against every other)."""

    def overlaps(a, b):
        return (
            a["x"] < b["x"] + b["w"]
            and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"]
            and b["y"] < a["y"] + a["h"]
        )

    order = sorted(items, key=lambda i: (i["id"] != first, i["id"]))
    shown, placed = set(), []
    for item in order:
        if not any(overlaps(box, item["box"]) for box in placed) and not any(
            o["id"] != item["id"] and overlaps(o["disc"], item["box"]) for o in items
        ):
            shown.add(item["id"])
            placed.append(item["box"])
    return shown


def test_names_placed_by_cells_are_the_names_the_plain_rule_places(browser):
    page = browser.new_page()
    source = LABELS_JS.read_text()
    rng = random.Random(7)
    try:
        for case in range(6):
            items = []
            for i in range(400):
                x, y, s = rng.randrange(40), rng.randrange(40), rng.choice([1, 1, 1, 2, 3])
                w = rng.uniform(0.5, 9 if case % 2 else 3)
                items.append(
                    {
                        "id": i + 1,
                        "box": {"x": x + s / 2 - w / 2, "y": y + s, "w": w, "h": 0.36},
                        "disc": {"x": x + s * 0.1, "y": y + s * 0.1, "w": s * 0.8, "h": s * 0.8},
                    }
                )
            first = rng.choice([None, 17, 250])
            shown = page.evaluate(
                """async ([source, items, first]) => {
                  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
                  const { shownLabels } = await import(url);
                  return [...shownLabels(items, first)].sort((a, b) => a - b);
                }""",
                [source, items, first],
            )
            expected = reference_labels(items, first)
            assert set(shown) == expected
            assert 0 < len(expected) < len(items)
    finally:
        page.close()
