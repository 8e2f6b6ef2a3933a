"""A table night in each of the five games, in a real browser: the demo
campaigns (vtt/demo/, laid out by the demo's own builder), the GM
at a desk (1440 x 900) and the player on a touch phone (390 x 844), and a
watcher sitting in as an observer. Per game: both open the room with every
token in sight; the player rolls from the Sheet tab and both logs read it
as a sentence; the player rolls the game's example in the chat; whispers
the GM, and the watcher never gets it; drags their character next to an
NPC with a finger (the GM sees it land) and attacks it with real dice, the
GM applying the damage where the game's chain waits for it; both maps then
show the NPC's wound state. Screenshots go to tests/artifacts/ (50-52)."""

import json
import re
from dataclasses import dataclass

import pytest

from tests.browser.room import finger_drag, show_tab, square_centre, touch

from .conftest import seeded_server
from .test_log_words import DUMP, assert_in_view
from .test_room import DESK, PHONE, log_in
from .test_table import CLIPPED, settled

pytestmark = pytest.mark.browser

WATCHER = {"width": 1024, "height": 768}


@dataclass(frozen=True)
class Night:
    """What the player does in one game's demo campaign."""

    chat: tuple  # the game's `/r` examples (docs/web.md, "Dice from the chat")
    said: tuple  # what each of those reads as in the log's sentence (patterns)
    npc: str  # the NPC the player's character attacks
    to: tuple  # the square next to it the character is dragged to
    weapon: str  # the character's first weapon: the attack's default
    faces: tuple  # the attack's whole chain as real dice, in tape order
    state: str  # the NPC's wound state after it


# Tapes checked against the demo's sheets: each is a hit whose wound
# moves the NPC along its track (the GM applies the damage where the game
# waits for it: Xero Sum, Rd6 and Apocalyptia).
NIGHTS = {
    "artifice": Night(
        chat=("/r 4D vs 3D", "/r 3D diff 2"),
        said=(r"4D against 3D: \d+ succes", r"3D against Difficulty Moderate \(2\): \d+ succes"),
        npc="Zombie",
        to=(13, 8),
        weapon="Long sword",
        faces=(2, 6, 4, 5, 6, 2, 5, 4, 1, 1, 1, 3, 2, 4, 5),
        state="Hurt",
    ),
    "fgr": Night(
        chat=("/r 3 diff 2",),
        said=(r"Skill 3 against Difficulty Moderate \(2\): \d+ succes",),
        npc="Goblin cutthroat",
        to=(11, 9),
        weapon="Broadsword",
        faces=(1, 3, 3, 1, 6, 3, 6),
        state="Badly Wounded",
    ),
    "xerosum": Night(
        chat=("/r 2d6+2+1",),
        said=(r"2d6 \+ AMod 2 \+ SMod 1 \(Difficulty \d+",),
        npc="Scavenger",
        to=(13, 3),
        weapon="Needle pistol",
        faces=(6, 4),
        state="Wounded",
    ),
    "rd6": Night(
        chat=("/r 4D+2 diff 3",),
        said=(r"4D\+2 against Difficulty Difficult \(3 successes\): \d+",),
        npc="Dockside thug",
        to=(11, 8),
        weapon=".38 revolver",
        faces=(3, 5, 1, 5, 2, 1, 5, 6, 2, 1, 6, 5),
        state="Severely Wounded",
    ),
    "apocalyptia": Night(
        chat=("/r d6+3 vs 4",),
        said=(r"d6 \+ 3 = \d+ against Difficulty 4",),
        npc="Shambler",
        # Through the station's doorway, beside the Shambler: a player's
        # token goes in a straight line and no wall may cross it.
        to=(6, 6),
        weapon="Machete",
        faces=(4, 1, 2),
        state="Critical",
    ),
}


@pytest.fixture(scope="module")
def demo_table(tmp_path_factory, chromium_path):
    """{"url", "games": {game: {"campaign", "tokens", "pc", "npcs", ...}}, "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.night_seed")


class Seat:
    """One person's page in the room, with what their browser received."""

    def __init__(self, browser, url, username, password, room, viewport, touch=False):
        self.context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        self.page = page = self.context.new_page()
        self.errors = []
        self.frames = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: self.frames.append(f)))
        log_in(page, url, username, password)
        page.goto(f"{url}/campaigns/{room}/room/")
        page.wait_for_selector("#conn[data-state=open]")


@pytest.fixture(scope="module", params=list(NIGHTS))
def night(request, browser, demo_table):
    """The GM, the player and the watcher in one game's demo room."""
    game = request.param
    table = demo_table["games"][game]
    seat = lambda who, viewport, touch=False: Seat(  # noqa: E731
        browser, demo_table["url"], who, demo_table["password"], table["campaign"], viewport, touch
    )
    seats = {
        "gm": seat("gm", DESK),
        "player": seat("player", PHONE, touch=True),
        "watcher": seat("watcher", WATCHER),
    }
    yield {"game": game, "plan": NIGHTS[game], "table": table, **seats}
    for one in seats.values():
        one.context.close()


def every_token_in_sight(page, when: str):
    settled(page)
    assert page.evaluate("window.d6room.board.tokens.size") > 0
    if page.viewport_size["width"] < 900 and page.evaluate("window.d6room.board.view.fitted"):
        # A phone's fit keeps a square at 24 px (docs/web.md): the demo's
        # maps are then wider than the screen; the player sees their own.
        assert page.evaluate("window.d6room.board.view.scale") >= 24
        own = "[...window.d6room.board.tokens.values()].filter(t => t.controllers?.length)"
        clipped = page.evaluate(
            f"(() => {{ const out = ({CLIPPED})(); return {own}.filter(t => out.includes(t.id)); }})()"
        )
        assert clipped == [], f"the player's token clipped after {when}"
        return
    assert page.evaluate(CLIPPED) == [], f"tokens clipped after {when}"
    # Names written under tokens stay on the map, even a token's at its edge.
    cut = page.evaluate(
        """() => {
            const map = document.getElementById('map-wrap').getBoundingClientRect();
            const svg = window.d6room.board.view.screenBox();
            const view = window.d6room.board.view, side = window.d6room.board.scene.width;
            const left = Math.max(map.left, svg.left + view.tx), right = Math.min(map.right, svg.left + view.tx + side * view.scale);
            return [...document.querySelectorAll('#map g.token:not(.label-crowded) text.label')]
                .filter(t => { const r = t.getBoundingClientRect(); return r.left < left - 1 || r.right > right + 1; })
                .map(t => t.textContent);
        }"""
    )
    assert cut == [], f"names cut at the map's edge after {when}"


def whole_map_in_sight(page):
    """Zoom out as a player does until every token is on screen (a phone's
    fit is at 24 px a square at least, and the demo's maps are wider)."""
    for _ in range(8):
        if not page.evaluate(CLIPPED):
            return
        page.tap("#zoom-out")
        settled(page)
    assert page.evaluate(CLIPPED) == []


def new_entry(page, selector: str, before: int):
    page.wait_for_function(
        "([s, n]) => document.querySelectorAll(s).length > n", arg=[selector, before]
    )
    return page.locator(selector).last


def assert_a_sentence(entry, *names):
    text = entry.inner_text()
    sentence = entry.locator(".sentence").inner_text()
    assert "_" not in text, text
    assert not DUMP.search(sentence), sentence
    assert sentence.rstrip().endswith("."), sentence
    for name in names:
        assert name in sentence, (name, sentence)
    return sentence


def shoot(shot, night, step: str):
    shot(night["gm"].page, f"{step}-night-{night['game']}-gm-desk")
    shot(night["player"].page, f"{step}-night-{night['game']}-player-phone")


def test_both_see_every_token_and_still_do_with_the_sheet_open(night, shot):
    gm, player = night["gm"].page, night["player"].page
    for page in (gm, player):
        # The demo's scene with its painted background and every figure on it.
        assert page.evaluate(
            "window.d6room.board.layers.background.querySelector('image').getAttribute('href')"
        )
        assert page.evaluate("window.d6room.board.tokens.size") == len(night["table"]["tokens"])
        every_token_in_sight(page, "entering the room")
    shoot(shot, night, "50")
    show_tab(player, "sheet")
    assert player.locator("#sheet-character option:checked").inner_text() == night["table"]["pc"]
    player.wait_for_selector("#sheet-view .sheet-entries button")
    for page in (player, gm):
        every_token_in_sight(page, "the player opened the Sheet tab")


def test_the_player_rolls_from_the_sheet_and_both_logs_say_it(night, shot):
    gm, player = night["gm"].page, night["player"].page
    pc = night["table"]["pc"]
    show_tab(player, "sheet")
    before = {page: page.locator("#log > li.roll-entry").count() for page in (gm, player)}
    first = player.locator("#sheet-view .sheet-entries button").first
    assert pc in first.get_attribute("aria-label")
    first.click()
    player.wait_for_selector("#panel-roll:not([hidden])")
    player.wait_for_function(
        "() => document.querySelector('#odds li[data-outcome], #odds .odds-dist, #odds .odds-certain')"
        " && !document.querySelector('#odds[aria-busy]')"
    )
    assert player.locator("#tray-character option:checked").inner_text() == pc
    player.click("#tray-roll")
    toast = player.locator(".roll-toast-region .roll-toast").last
    toast.wait_for()
    assert_in_view(player, toast)
    show_tab(player, "log")
    show_tab(gm, "log")
    mine = new_entry(player, "#log > li.roll-entry", before[player])
    theirs = new_entry(gm, "#log > li.roll-entry", before[gm])
    assert mine.get_attribute("data-seq") == theirs.get_attribute("data-seq")
    said = assert_a_sentence(mine, pc)
    assert assert_a_sentence(theirs, pc) == said
    shoot(shot, night, "51")


def test_the_games_chat_roll_reaches_both_logs(night):
    gm, player = night["gm"].page, night["player"].page
    plan = night["plan"]
    show_tab(player, "chat")
    show_tab(gm, "log")
    for command, words in zip(plan.chat, plan.said, strict=True):
        before = {page: page.locator("#log > li.roll-entry").count() for page in (gm, player)}
        player.fill("#chat-input", command)
        player.press("#chat-input", "Enter")
        theirs = new_entry(gm, "#log > li.roll-entry", before[gm])
        mine = new_entry(player, "#log > li.roll-entry", before[player])
        # The box empties on the command's ack, which may come after its entry.
        player.wait_for_function(
            "document.querySelector('#chat-input').value === '' "
            "|| document.querySelector('#chat-note').textContent !== ''",
            timeout=10_000,
        )
        assert player.input_value("#chat-input") == "", player.inner_text("#chat-note")
        assert mine.get_attribute("data-seq") == theirs.get_attribute("data-seq")
        # For the player's one character, as the tray's rolls are.
        said = assert_a_sentence(theirs, night["table"]["pc"])
        assert re.search(words, said), (command, said)
        assert assert_a_sentence(mine, night["table"]["pc"]) == said


def test_a_whisper_reaches_the_gm_and_not_the_watcher(night):
    gm, player, watcher = (night[who].page for who in ("gm", "player", "watcher"))
    secret = f"I pocket the {night['game']} key"
    after = f"Shall we go on? ({night['game']})"
    show_tab(gm, "chat")
    show_tab(watcher, "chat")
    show_tab(player, "chat")
    player.fill("#chat-input", f"/w gm {secret}")
    player.press("#chat-input", "Enter")
    whisper = gm.locator("#chat-log li.whisper", has_text=secret)
    whisper.wait_for()
    assert whisper.locator(".who").inner_text() == "player whispers:"
    player.locator("#chat-log li.whisper", has_text=secret).wait_for()
    # A public line after it: once the watcher has that, the whisper would
    # have come before it on the same socket.
    player.fill("#chat-input", after)
    player.press("#chat-input", "Enter")
    watcher.locator("#chat-log li.chat-line", has_text=after).wait_for()
    assert secret not in watcher.inner_text("#chat-log")
    assert not [f for f in night["watcher"].frames if secret in str(f)]
    assert watcher.locator("#chat-log li.whisper").count() == 0


def test_the_player_drags_their_character_next_to_the_npc_by_touch(night):
    gm, player = night["gm"].page, night["player"].page
    plan, tokens = night["plan"], night["table"]["tokens"]
    pc = tokens[night["table"]["pc"]]
    player.cdp = player.context.new_cdp_session(player)  # touch() sends through it
    show_tab(player, "sheet")  # the bottom sheet open: the map is at its smallest
    settled(player)
    whole_map_in_sight(player)  # as the player zooms out to reach the NPC
    start = finger_on(player, pc)
    x, y = token_square(player, pc)
    # The finger keeps its place on the token: the token lands where the
    # square under it does.
    offset = (start[0] - square_centre(player, x, y)[0], start[1] - square_centre(player, x, y)[1])
    end = [a + b for a, b in zip(square_centre(player, *plan.to), offset, strict=True)]
    finger_drag(player, start, end, steps=12)
    at = "([id, x, y]) => { const t = window.d6room.board.tokens.get(id); return t.x === x && t.y === y; }"
    player.wait_for_function(at, arg=[pc, *plan.to])
    gm.wait_for_function(at, arg=[pc, *plan.to])
    where = f"at column {plan.to[0]}, row {plan.to[1]}"
    assert where in gm.get_attribute(f'[data-token-id="{pc}"]', "aria-label")
    for page in (gm, player):
        every_token_in_sight(page, "the drag")


def test_the_player_attacks_the_npc_and_both_maps_show_its_wound(night, shot):
    gm, player = night["gm"].page, night["player"].page
    plan, table = night["plan"], night["table"]
    pc, npc = table["tokens"][table["pc"]], table["tokens"][plan.npc]
    before = {page: page.locator("#log .attack-entry").count() for page in (gm, player)}
    show_tab(player, "roll")
    player.click("#tab-attack")
    assert player.input_value("#attack-attacker") == str(pc)
    player.select_option("#attack-target", str(npc))
    assert player.input_value("#attack-weapon") == plan.weapon
    player.wait_for_function(
        "document.querySelector('#attack-measure').textContent.includes('adjacent')"
    )
    player.check("#attack-physical")
    player.fill("#attack-faces", " ".join(map(str, plan.faces)))
    player.click("#attack-go")
    # The attacker sees the blow at once in the toast, and a tap puts it away.
    toast = player.locator(".roll-toast-region .roll-toast", has_text=plan.npc)
    toast.wait_for()
    assert_in_view(player, toast)
    player.tap(".roll-toast-region .toast-close")
    toast.wait_for(state="detached")
    show_tab(gm, "log")
    seq = new_entry(gm, "#log .attack-entry", before[gm]).get_attribute("data-seq")
    entry = f'#log .attack-entry[data-seq="{seq}"]'
    gm.wait_for_selector(f"{entry}:is([data-status=applied], [data-status=awaiting_damage])")
    if gm.get_attribute(entry, "data-status") == "awaiting_damage":
        # The game's chain waits for the GM: one click in the log entry.
        gm.click(f"{entry} button.apply-damage")
    show_tab(player, "log")
    assert new_entry(player, "#log .attack-entry", before[player]).get_attribute("data-seq") == seq
    for page in (gm, player):
        attack = page.locator(f"{entry}[data-status=applied]")
        attack.wait_for()
        # The sentence says the blow and, once the damage is in, what it did.
        assert plan.state in assert_a_sentence(attack, table["pc"], plan.npc)
        assert "physical dice" in attack.inner_text()
        page.wait_for_function(
            "([id, state]) => document.querySelector(`[data-token-id='${id}']`)"
            ".getAttribute('aria-label').includes(state)",
            arg=[npc, plan.state],
        )
        assert page.text_content(f'[data-print-for="{npc}"] .badge') == plan.state
    shoot(shot, night, "52")
    assert night["gm"].errors == [] and night["player"].errors == []
    assert night["watcher"].errors == []


def token_square(page, token_id):
    return page.evaluate(
        "id => { const t = window.d6room.board.tokens.get(id); return [t.x, t.y]; }", token_id
    )


def finger_on(page, token_id):
    """A whole-pixel point that takes a finger for the token: its centre, or
    else the nearest point of its face or its 44 px touch disc that does;
    waited for while the map settles after a zoom (a loaded machine draws
    late)."""
    found = page.wait_for_function(
        """id => {
            const node = document.querySelector(`#map g.token[data-token-id="${id}"]`);
            const disc = document.querySelector(`#map circle.hit[data-hit-for="${id}"]`);
            const box = disc.getBoundingClientRect();
            const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
            for (const far of [0, 6, 12, 18]) for (let turn = 0; turn < 8; turn++) {
                const x = Math.round(cx + far * Math.cos(turn * Math.PI / 4));
                const y = Math.round(cy + far * Math.sin(turn * Math.PI / 4));
                const found = document.elementFromPoint(x, y);
                if (found?.closest('g.token') === node || found === disc) return [x, y];
                if (!far) break;
            }
            return null;
        }""",
        arg=token_id,
        timeout=10_000,
    )
    point = found.json_value()
    assert point, f"no point takes a finger for token {token_id}"
    return point


def test_the_frames_of_a_player_never_carry_the_gm_notes(night):
    """The demo's NPCs have GM notes; the player's socket never carries them."""
    frames = [json.loads(f) for f in night["player"].frames if str(f).startswith("{")]
    assert frames
    assert not re.search(r'"gm_notes"\s*:\s*"[^"]', json.dumps(frames))


def test_a_tap_on_a_tokens_own_face_takes_that_token(browser, demo_table):
    table = demo_table["games"]["artifice"]
    seat = Seat(
        browser,
        demo_table["url"],
        "player",
        demo_table["password"],
        table["campaign"],
        PHONE,
        touch=True,
    )
    page = seat.page
    page.cdp = page.context.new_cdp_session(page)
    try:
        tenrec = table["tokens"]["Tenrec"]
        # Tenrec back beside Kobor (the night's drag took him away), one
        # square up and right of him: Kobor's disc then reaches over his face.
        kx, ky = token_square(page, table["tokens"]["Kobor"])
        x, y = kx + 1, ky - 1
        page.evaluate(
            "([id, x, y]) => { const t = window.d6room.board.tokens.get(id);"
            " return window.d6room.socket.send({type: 'token.move', token: id, x, y, version: t.version}); }",
            [tenrec, x, y],
        )
        page.wait_for_function(
            "([id, x, y]) => { const t = window.d6room.board.tokens.get(id); return t.x === x && t.y === y; }",
            arg=[tenrec, x, y],
        )
        whole_map_in_sight(page)
        # A quarter of a square from its centre towards Kobor: Tenrec's face.
        at = square_centre(page, x - 0.25, y + 0.25)
        touch(page, "touchStart", [at])
        touch(page, "touchEnd", [])
        page.wait_for_function("window.d6room.board.selected !== null")
        assert page.evaluate("window.d6room.board.selected") == tenrec
    finally:
        seat.context.close()
