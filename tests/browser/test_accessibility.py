"""axe-core in the real browser: no serious or critical violation on the
log-in, lobby, room (GM and player, desk and phone), sheet and GM console
pages."""

import pytest

from tests.browser.room import show_tab

from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser

SERIOUS = {"serious", "critical"}


def violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for rule in results.response["violations"]:
        if rule["impact"] in SERIOUS:
            targets = [" ".join(map(str, node["target"])) for node in rule["nodes"][:5]]
            found.append(f"{rule['id']} ({rule['impact']}): {rule['help']} at {targets}")
    return found


@pytest.fixture
def context_for(browser):
    made = []

    def make(viewport):
        context = browser.new_context(viewport=viewport)
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()


def test_the_log_in_page(context_for, table):
    page = context_for(DESK)
    page.goto(table["url"] + "/accounts/login/")
    assert violations(page) == []


@pytest.mark.parametrize("who, viewport", [("gm", DESK), ("player", PHONE)])
def test_the_lobby_room_and_sheet(context_for, table, who, viewport):
    page = context_for(viewport)
    log_in(page, table["url"], who, table["password"])
    assert violations(page) == [], "lobby"
    enter_room(page, table)
    for tab in ("roll", "log", "chat", "sheet", *(["gm"] if who == "gm" else [])):
        show_tab(page, tab)
        assert violations(page) == [], f"room, {tab} tab"
    show_tab(page, "roll")
    page.click("#tab-attack")
    assert violations(page) == [], "room, attack"
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/characters/")
    assert violations(page) == [], "characters"
    page.click("main a[href*='/characters/']:not([href$='/new/'])")
    page.wait_for_load_state()
    assert violations(page) == [], "sheet"


def test_the_gm_console(context_for, table):
    page = context_for(DESK)
    log_in(page, table["url"], "gm", table["password"])
    page.goto(f"{table['url']}/campaigns/{table['campaign']}/gm/")
    assert violations(page) == []
