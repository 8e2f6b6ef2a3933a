"""The roll and attack panels in the game's words, in a real browser, in
every demo campaign (vtt/demo/): the GM at a desk (1440 x 900) and
the player on a touch phone (390 x 844) go through every action of the dice
tray and an attack of their character on an NPC, odds drawn, and no
snake_case field name shows anywhere in the panel's visible text (the labels
come from each game's kit through the tray spec). On the phone the attack's
odds are not under the sticky Attack button. Screenshots go to
tests/artifacts/ (60)."""

import re

import pytest

from tests.browser.room import show_tab

from .conftest import seeded_server
from .test_room import DESK, PHONE, log_in
from .test_table_night import NIGHTS

pytestmark = pytest.mark.browser

GAMES = ("apocalyptia", "artifice", "fgr", "rd6", "xerosum")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


@pytest.fixture(scope="module")
def demo_table(tmp_path_factory, chromium_path):
    """{"url", "games": {game: {"campaign", "tokens", "pc", "npcs", ...}}, "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.night_seed")


def open_page(browser, demo_table, game, who, viewport, touch=False):
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, demo_table["url"], who, demo_table["password"])
    page.goto(f"{demo_table['url']}/campaigns/{demo_table['games'][game]['campaign']}/room/")
    page.wait_for_selector("#conn[data-state=open]")
    return page


def no_field_names(page, where: str):
    text = page.inner_text("#panel-roll")
    found = sorted(set(SNAKE.findall(text)))
    assert not found, f"{where}: {found} in {text!r}"


def roll_panel(page, game):
    show_tab(page, "roll")
    page.click("#tab-tray")
    spec = page.evaluate("JSON.parse(document.getElementById('tray-spec').textContent)")
    offered = page.eval_on_selector_all("#tray-action option", "os => os.map(o => o.value)")
    assert offered
    with_odds = {a["id"] for a in spec["actions"] if a.get("odds")}
    for action in offered:
        page.select_option("#tray-action", action)
        if action in with_odds:
            page.wait_for_function(
                """a => { const o = document.getElementById('odds');
                          return !o.hasAttribute('aria-busy')
                              && (o.dataset.action === a || o.textContent.includes('No odds')); }""",
                arg=action,
            )
        no_field_names(page, f"{game} tray, {action}")


def next_to_the_npc(page, table, game):
    """The character steps beside the NPC it attacks (the table night's square)."""
    plan = NIGHTS[game]
    pc = table["tokens"][table["pc"]]
    page.evaluate(
        "([id, x, y]) => window.d6room.socket.send({type: 'token.move', token: id, x, y})",
        [pc, *plan.to],
    )
    page.wait_for_function(
        "([id, x, y]) => { const t = window.d6room.board.tokens.get(id); return t.x === x && t.y === y; }",
        arg=[pc, *plan.to],
    )
    return table["tokens"][plan.npc]


def attack_panel(page, game, target_id, is_gm):
    show_tab(page, "roll")
    page.click("#tab-attack")
    page.select_option("#attack-target", str(target_id))
    page.wait_for_selector("#attack-odds .odds-bars li, #attack-odds .odds-dist")
    page.wait_for_function("!document.getElementById('attack-odds').hasAttribute('aria-busy')")
    if is_gm:
        page.click("#attack-gm summary")
        page.wait_for_selector("#attack-overrides .field")
    no_field_names(page, f"{game} attack")


@pytest.mark.parametrize("game", GAMES)
def test_the_gm_at_a_desk_reads_every_panel_in_the_games_words(browser, demo_table, game, shot):
    table = demo_table["games"][game]
    page = open_page(browser, demo_table, game, "gm", DESK)
    try:
        roll_panel(page, game)
        target = next_to_the_npc(page, table, game)
        show_tab(page, "roll")
        page.click("#tab-attack")
        page.select_option("#attack-attacker", str(table["tokens"][table["pc"]]))
        attack_panel(page, game, target, is_gm=True)
        shot(page, f"60-words-{game}-gm-desk")
        assert page.errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_player_on_a_phone_reads_them_and_sees_the_odds(browser, demo_table, game, shot):
    table = demo_table["games"][game]
    page = open_page(browser, demo_table, game, "player", PHONE, touch=True)
    try:
        roll_panel(page, game)
        target = next_to_the_npc(page, table, game)
        attack_panel(page, game, target, is_gm=False)
        assert page.input_value("#attack-attacker") == str(table["tokens"][table["pc"]])
        # The odds in sight, and nothing (the sticky button) over them.
        covered = page.evaluate(
            """() => {
                const odds = document.getElementById('attack-odds');
                const box = odds.getBoundingClientRect();
                const go = document.getElementById('attack-go').getBoundingClientRect();
                const out = [];
                if (box.height === 0) out.push('no odds drawn');
                if (box.top < 0 || box.bottom > innerHeight) out.push(`odds off the screen: ${box.top}-${box.bottom}`);
                if (box.bottom > go.top && box.top < go.bottom) out.push(`under the button: ${box.bottom} > ${go.top}`);
                for (const y of [box.top + 4, (box.top + box.bottom) / 2, box.bottom - 4]) {
                    const hit = document.elementFromPoint(box.left + box.width / 2, y);
                    if (!odds.contains(hit)) out.push(`at ${y}: ${hit?.id || hit?.tagName}`);
                }
                return out;
            }"""
        )
        assert covered == []
        shot(page, f"60-words-{game}-player-phone")
        assert page.errors == []
    finally:
        page.context.close()
