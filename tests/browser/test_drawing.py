"""Drawing on the map in a real browser, in tests/browser/drawing_seed.py's
Vault (fog on, the player's Tenrec in the west room, a walled closet in
the east room no player sees): the GM at a desk (1440x900, a mouse), the
player on a phone (390x844, fingers). A stroke the player draws shows on
the GM's map while the finger is still down and stays after a reload; two
fingers still pinch in drawing mode; a GM-only drawing and a drawing in
the closet never reach the player's page nor its websocket; text goes by
a press and the keyboard; the GM moves a drawing; an armed ping's press
in drawing mode pings and draws nothing; Erase takes only the
player's own, Delete the GM's selection; Undo takes the
player's own stroke away; the GM clears all. Screenshots:
/tmp/drawing-desk.png and /tmp/drawing-phone.png (docs/img/drawing-*.jpg)."""

import re

import pytest

from tests.browser import room
from tests.browser.room import touch

from .conftest import seeded_server
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

RED, ORANGE, YELLOW, GREEN, BLUE, PURPLE, WHITE = (
    "#e53935",
    "#fb8c00",
    "#fdd835",
    "#43a047",
    "#1e88e5",
    "#8e24aa",
    "#ffffff",
)
GM_LAYER = re.compile(r'"layer":\s*"gm"')
CLOSET = ((12.3, 5.4), (13.7, 7.6))  # inside the walled closet: no player sees it


@pytest.fixture(scope="module")
def vault(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.drawing_seed")


@pytest.fixture(scope="module")
def gm(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "gm", DESK, accept=True)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def player(browser, vault):
    page = room.open_room(browser, vault, vault["campaign"], "player", PHONE, touch=True)
    page.cdp = page.context.new_cdp_session(page)
    yield page
    page.context.close()


# ---- helpers


def point(page, x, y):
    """Client coordinates of the map point (x, y), in squares."""
    return page.evaluate(
        """([x, y]) => {
            const v = window.d6room.board.view, r = v.screenBox();
            return [r.left + v.tx + x * v.scale, r.top + v.ty + y * v.scale];
        }""",
        [x, y],
    )


def drawings(page):
    """The drawings the page holds, as the server sent them."""
    return page.evaluate("() => [...window.d6room.drawing.layer.stored.values()]")


def wait_drawing(page, colour, present=True):
    """Wait until the page holds (or no longer holds) a drawing of `colour`."""
    page.wait_for_function(
        """([c, present]) => [...window.d6room.drawing.layer.stored.values()]
              .some((d) => d.color === c) === present""",
        arg=[colour, present],
    )
    return [d for d in drawings(page) if d["color"] == colour]


def start_drawing(page, mode="pen", colour=None, width=None, layer=None):
    """The Draw button, then the bar's choices."""
    if page.get_attribute("#tool-draw", "aria-pressed") != "true":
        page.click("#tool-draw")
    page.wait_for_selector("#draw-bar:not([hidden])")
    page.check(f'input[name="draw-mode"][value="{mode}"]')
    if colour:
        page.check(f'input[name="draw-colour"][value="{colour}"]')
    if width:
        page.select_option("#draw-width", str(width))
    if layer:
        page.set_checked("#draw-gm", layer == "gm")


def mouse_drag(page, start, end, steps=6):
    page.mouse.move(*point(page, *start))
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(
            *point(
                page,
                start[0] + (end[0] - start[0]) * i / steps,
                start[1] + (end[1] - start[1]) * i / steps,
            )
        )
    page.mouse.up()


def watch_frames(page):
    """Record every websocket frame the page receives from its next socket
    on (the page is reloaded for it): the snapshot, events, previews."""
    page.frames_in = []
    if not getattr(page, "watching", False):
        page.watching = True
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_in.append(f)))
    page.reload()
    page.wait_for_selector("#conn[data-state=open]")


def frames_text(page):
    return "\n".join(str(f) for f in page.frames_in)


# ---- the steps


def test_a_players_stroke_shows_on_the_gms_map_while_drawn(gm, player):
    start_drawing(player, "pen", colour=GREEN, width=5)
    path = [(2.0, 2.0), (2.6, 2.4), (3.2, 3.1), (3.8, 3.3), (4.4, 4.2), (5.0, 5.0)]
    touch(player, "touchStart", [point(player, *path[0])])
    for at in path[1:]:
        touch(player, "touchMove", [point(player, *at)])
    # The finger is still down: the GM watches the stroke being drawn.
    preview = gm.wait_for_selector(".drawings-live .drawing.preview.shape-pen")
    assert preview.evaluate("n => n.style.getPropertyValue('--ink')") == GREEN
    assert not wait_drawing(gm, GREEN, present=False)
    touch(player, "touchEnd", [])
    [stored] = wait_drawing(gm, GREEN)
    assert stored["shape"] == "pen" and stored["layer"] == "shared"
    assert stored["by"]["id"] == player.evaluate("() => window.d6room.drawing.me.id")
    assert stored["width"] == 5 and len(stored["points"]) >= 2
    assert stored["points"][0] == [2.0, 2.0]
    # Stored, its preview gives way to it on both pages.
    gm.wait_for_selector(".drawings-live .drawing", state="detached")
    player.wait_for_selector(".drawings-live .drawing", state="detached")
    assert gm.locator(f'.drawings-stored [data-drawing-id="{stored["id"]}"]').count() == 1
    assert not gm.errors and not player.errors


def test_the_stroke_stays_after_a_reload(gm, player):
    for page in (gm, player):
        page.reload()
        page.wait_for_selector("#conn[data-state=open]")
        [kept] = wait_drawing(page, GREEN)
        assert kept["shape"] == "pen"
        assert page.locator(f'[data-drawing-id="{kept["id"]}"] .ink').count() == 1


def test_two_fingers_still_pinch_in_drawing_mode(player):
    start_drawing(player, "pen", colour=RED)
    before = player.evaluate("() => window.d6room.board.view.scale")
    held = len(drawings(player))
    a, b = point(player, 3, 3), point(player, 4, 4)
    touch(player, "touchStart", [a, b])
    for i in range(1, 6):
        spread = 12 * i
        touch(
            player,
            "touchMove",
            [(a[0] - spread, a[1] - spread), (b[0] + spread, b[1] + spread)],
        )
    touch(player, "touchEnd", [])
    player.wait_for_function("(s) => window.d6room.board.view.scale > s * 1.2", arg=before)
    # Nothing was drawn: the second finger gave the first one's stroke up.
    assert player.locator(".drawings-live .drawing").count() == 0
    assert len(drawings(player)) == held
    player.evaluate("() => window.d6room.board.view.fit()")


def test_a_gm_only_drawing_never_reaches_the_player(gm, player):
    watch_frames(player)
    start_drawing(gm, "rect", colour=PURPLE, width=3, layer="gm")
    mouse_drag(gm, (1.2, 1.2), (4.5, 6.5))
    [secret] = wait_drawing(gm, PURPLE)
    assert secret["layer"] == "gm"
    assert gm.locator(f'[data-drawing-id="{secret["id"]}"].gm-layer').count() == 1
    # Then one for everyone: once the player has it, the other would have come.
    start_drawing(gm, "line", colour=WHITE, layer="shared")
    mouse_drag(gm, (1.5, 6.5), (5.5, 6.5))
    wait_drawing(player, WHITE)
    assert not wait_drawing(player, PURPLE, present=False)
    text = frames_text(player)
    assert PURPLE not in text and not GM_LAYER.search(text)
    assert not any(d["layer"] == "gm" for d in drawings(player))
    # A fresh snapshot does not carry it either.
    watch_frames(player)
    wait_drawing(player, WHITE)
    assert PURPLE not in frames_text(player)


def test_a_drawing_in_the_unseen_closet_never_reaches_the_player(gm, player):
    watch_frames(player)
    start_drawing(gm, "ellipse", colour=ORANGE, width=8)
    mouse_drag(gm, *CLOSET)
    [hidden] = wait_drawing(gm, ORANGE)
    assert hidden["layer"] == "shared"
    start_drawing(gm, "arrow", colour=YELLOW, width=5)
    mouse_drag(gm, (1.0, 4.5), (4.0, 3.2))
    wait_drawing(player, YELLOW)
    assert not wait_drawing(player, ORANGE, present=False)
    assert ORANGE not in frames_text(player)
    watch_frames(player)
    wait_drawing(player, YELLOW)
    assert ORANGE not in frames_text(player)


def test_text_by_a_press_and_by_the_keyboard(gm, player):
    start_drawing(gm, "text", colour=BLUE, width=3)
    gm.mouse.click(*point(gm, 1.2, 0.4))
    box = gm.wait_for_selector("input.draw-text")
    box.type("Here be ghouls")
    box.press("Enter")
    [written] = wait_drawing(player, BLUE)
    assert (written["shape"], written["text"]) == ("text", "Here be ghouls")
    assert player.locator(f'[data-drawing-id="{written["id"]}"] text').text_content() == (
        "Here be ghouls"
    )
    # The keyboard alone: the Draw button, the bar's choices, Enter on the map.
    gm.click("#draw-done")
    gm.wait_for_selector("#draw-bar", state="hidden")
    gm.focus("#tool-draw")
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#draw-bar:not([hidden])")
    gm.focus('input[name="draw-mode"]:checked')
    gm.keyboard.press("ArrowRight")  # text -> select: a radio group moves by arrows
    assert gm.eval_on_selector('input[name="draw-mode"]:checked', "n => n.value") == "select"
    gm.keyboard.press("ArrowLeft")
    gm.focus("#map")
    gm.keyboard.press("Enter")
    box = gm.wait_for_selector("input.draw-text")
    box.type("Mid")
    box.press("Enter")
    gm.wait_for_function(
        """() => [...window.d6room.drawing.layer.stored.values()].some((d) => d.text === "Mid")"""
    )


def test_the_gm_moves_a_drawing(gm, player):
    [arrow] = wait_drawing(player, YELLOW)
    start_drawing(gm, "select")
    # Press on the arrow's shaft and drag it a square right.
    mouse_drag(gm, (2.5, 3.85), (3.5, 3.85))
    player.wait_for_function(
        """([id, x]) => window.d6room.drawing.layer.stored.get(id)?.points[0][0] > x + 0.5""",
        arg=[arrow["id"], arrow["points"][0][0]],
    )
    # And by the keyboard alone: N picks the GM's drawings one by one (the
    # GM may change any), an arrow key moves the one picked a square down.
    gm.focus("#map")
    gm.keyboard.press("Escape")
    assert gm.evaluate("() => window.d6room.drawing.layer.selected") is None
    for _ in drawings(gm):
        gm.keyboard.press("n")
        if gm.evaluate("() => window.d6room.drawing.layer.selected") == arrow["id"]:
            break
    assert gm.locator(f'[data-drawing-id="{arrow["id"]}"].selected').count() == 1
    gm.keyboard.press("ArrowDown")
    player.wait_for_function(
        """([id, y]) => Math.abs(window.d6room.drawing.layer.stored.get(id)?.points[0][1] - (y + 1)) < 0.01""",
        arg=[arrow["id"], arrow["points"][0][1]],
    )


def test_screenshots(gm, player):
    """Pictures for docs/web.md: both pages while the player's finger is
    still drawing (the GM sees it grow), the bars open."""
    start_drawing(gm, "pen", colour=RED)
    start_drawing(player, "pen", colour=GREEN, width=8)
    player.evaluate("() => window.d6room.board.view.zoomAt(1.5)")
    # Zoomed about the middle, the phone shows columns 2 to 12.
    path = [(2.6, 5.2), (3.0, 5.7), (3.7, 6.0), (4.4, 5.8), (5.0, 5.3), (5.4, 4.7)]
    touch(player, "touchStart", [point(player, *path[0])])
    for at in path[1:]:
        touch(player, "touchMove", [point(player, *at)])
    gm.wait_for_function(
        """() => [...document.querySelectorAll('.drawings-live .drawing polyline')]
              .some((n) => n.getAttribute('points').split(' ').length === 6)"""
    )
    for page in (gm, player):
        page.wait_for_selector("svg.map:not(.moving)")  # drawn sharp once the view rests
    gm.screenshot(path="/tmp/drawing-desk.png")
    player.screenshot(path="/tmp/drawing-phone.png")
    touch(player, "touchEnd", [])
    gm.wait_for_selector(".drawings-live .drawing", state="detached")
    player.evaluate("() => window.d6room.board.view.fit()")


def test_a_ping_in_drawing_mode_draws_nothing(gm, player):
    before = len(drawings(gm))
    start_drawing(gm, "pen", colour=BLUE)
    gm.click("#tool-ping")
    mouse_drag(gm, (2.2, 1.5), (4.0, 2.5))  # the press pings; the drag draws nothing
    player.wait_for_selector(".layer-pings .ping")
    assert gm.get_attribute("#tool-draw", "aria-pressed") == "true"
    # Then a line: once it is stored, a stroke from the drag would be too.
    start_drawing(gm, "line", colour=BLUE)
    mouse_drag(gm, (8.5, 1.0), (11.0, 1.5))
    gm.wait_for_function(
        """() => [...window.d6room.drawing.layer.stored.values()]
              .some((d) => d.shape === "line" && d.color === "#1e88e5")"""
    )
    assert len(drawings(gm)) == before + 1


def tap(page, at):
    touch(page, "touchStart", [at])
    touch(page, "touchEnd", [])


def test_erase_takes_only_ones_own_and_delete_the_selected(gm, player):
    [arrow] = wait_drawing(gm, YELLOW)
    greens = wait_drawing(gm, GREEN)
    heavy = next(d for d in greens if d["width"] == 8)
    start_drawing(player, "erase")
    # A tap on the GM's arrow (it is under the finger) takes nothing: it is
    # not the player's.
    on_arrow = point(player, 3.5, 4.85)
    under = player.evaluate(
        """([x, y]) => document.elementFromPoint(x, y)
              ?.closest('[data-drawing-id]')?.dataset.drawingId""",
        on_arrow,
    )
    assert under == str(arrow["id"])
    tap(player, on_arrow)
    # A finger dragged across the player's own heavy stroke takes it away.
    a, b = point(player, 3.7, 5.5), point(player, 3.7, 6.5)
    touch(player, "touchStart", [a])
    for i in range(1, 5):
        touch(player, "touchMove", [(a[0], a[1] + (b[1] - a[1]) * i / 4)])
    touch(player, "touchEnd", [])
    gm.wait_for_function("(id) => !window.d6room.drawing.layer.stored.has(id)", arg=heavy["id"])
    # Events come in order: had the arrow gone, the GM would know by now.
    assert gm.evaluate("(id) => window.d6room.drawing.layer.stored.has(id)", arrow["id"])
    assert len(wait_drawing(gm, GREEN)) == len(greens) - 1
    # The GM selects the white line and Delete takes it away.
    start_drawing(gm, "select")
    gm.mouse.click(*point(gm, 3.5, 6.5))
    assert gm.is_enabled("#draw-delete")
    gm.focus("#map")
    gm.keyboard.press("Delete")
    wait_drawing(player, WHITE, present=False)
    wait_drawing(gm, WHITE, present=False)


def test_undo_takes_away_the_players_own_stroke(gm, player):
    start_drawing(player, "line", colour=RED, width=8)
    a, b = point(player, 1.5, 1.0), point(player, 5.5, 1.5)
    touch(player, "touchStart", [a])
    touch(player, "touchMove", [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)])
    touch(player, "touchMove", [b])
    touch(player, "touchEnd", [])
    [line] = wait_drawing(gm, RED)
    assert line["shape"] == "line" and len(line["points"]) == 2
    player.click("#draw-undo")
    wait_drawing(gm, RED, present=False)
    wait_drawing(player, RED, present=False)
    # The older stroke of the player's stays: undo took only the last.
    assert wait_drawing(gm, GREEN)


def set_drawing(gm, campaign, who):
    """The GM sets the campaign's `drawing` setting over REST."""
    return gm.evaluate(
        """async ([id, who]) => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const r = await fetch(`/api/campaigns/${id}/`, {method: "PATCH", credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                body: JSON.stringify({settings: {drawing: who}})});
            return r.status;
        }""",
        [campaign, who],
    )


def test_the_draw_button_follows_who_may_draw(gm, player, vault):
    start_drawing(player, "pen")
    assert set_drawing(gm, vault["campaign"], "gm") == 200
    # The player's bar closes and the button goes; the server refuses anyway.
    player.wait_for_selector("#tool-draw", state="hidden")
    player.wait_for_selector("#draw-bar", state="hidden")
    refusal = player.evaluate(
        """(scene) => window.d6room.socket
            .send({type: "drawing.add", scene, shape: "line", color: "#e53935", width: 2,
                   points: [[1, 1], [2, 2]]})
            .then(() => null, (e) => e.code)""",
        vault["scene"],
    )
    assert refusal == "forbidden"
    assert gm.is_visible("#tool-draw")  # the GM draws whatever the setting
    assert set_drawing(gm, vault["campaign"], "everyone") == 200
    player.wait_for_selector("#tool-draw:not([hidden])")


def replayed(browser, vault, who):
    """The drawings of the running session's replay at its end, as `who`'s
    replay draws them."""
    page = browser.new_context(viewport=DESK).new_page()
    try:
        room.log_in(page, vault["url"], who, vault["password"])
        page.goto(f"{vault['url']}/campaigns/{vault['campaign']}/sessions/1/replay/")
        page.wait_for_selector("#replay[data-state=ready]")
        page.evaluate(
            """() => { const s = document.getElementById('replay-scrub');
                       s.value = s.max; s.dispatchEvent(new Event('input')); }"""
        )
        return page.evaluate(
            """() => [...document.querySelectorAll('.drawings-stored [data-drawing-id]')]
                  .map((n) => n.style.getPropertyValue('--ink'))"""
        )
    finally:
        page.context.close()


def test_the_replay_draws_what_each_one_saw(browser, vault, gm, player):
    inks = {who: replayed(browser, vault, who) for who in ("gm", "player")}
    for who, page in (("gm", gm), ("player", player)):
        assert sorted(inks[who]) == sorted(d["color"] for d in drawings(page)), who
    assert PURPLE in inks["gm"] and ORANGE in inks["gm"]
    assert PURPLE not in inks["player"] and ORANGE not in inks["player"]


def test_a_map_switched_to_and_back_brings_its_drawings(gm, player, vault):
    held = sorted(d["id"] for d in drawings(player))
    assert held

    def activate(scene):
        gm.evaluate("(scene) => window.d6room.socket.send({type: 'scene.activate', scene})", scene)
        for page in (gm, player):
            page.wait_for_function("(id) => window.d6room.board.scene?.id === id", arg=scene)

    activate(vault["crypt"])
    player.wait_for_function("() => window.d6room.drawing.layer.stored.size === 0")
    assert player.locator(".drawings-stored .drawing").count() == 0
    activate(vault["scene"])
    # The scene change carries no drawings: the page reads the ones it sees.
    player.wait_for_function("(n) => window.d6room.drawing.layer.stored.size === n", arg=len(held))
    assert sorted(d["id"] for d in drawings(player)) == held
    assert (
        sorted(d["id"] for d in player.evaluate("() => window.d6room.state().scene.drawings"))
        == held
    )
    assert not wait_drawing(player, PURPLE, present=False)  # the GM layer's, never
    wait_drawing(gm, PURPLE)


def test_the_gm_clears_all(gm, player):
    assert drawings(player) and drawings(gm)
    start_drawing(gm, "pen")
    gm.click("#draw-clear")  # the page's confirmation is answered yes
    gm.wait_for_function("() => window.d6room.drawing.layer.stored.size === 0")
    player.wait_for_function("() => window.d6room.drawing.layer.stored.size === 0")
    assert gm.locator(".drawings-stored .drawing").count() == 0
    assert player.locator(".drawings-stored .drawing").count() == 0
    assert not gm.errors and not player.errors
