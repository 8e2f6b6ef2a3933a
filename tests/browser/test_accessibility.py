"""axe-core in the real browser: zero violations, of any impact, on every
page a visitor, the GM and the player can open (the Content-Security-Policy
test's walk, tests/browser/test_csp.py, plus the room with each of its tabs,
the attack form, a phone's room, and the replay)."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in, show_tab

from .test_csp import campaign_pages
from .test_room import DESK, PHONE

pytestmark = pytest.mark.browser

# axe's default rules, and the experimental one a map token once failed: a
# control's accessible name holds the text it shows (WCAG 2.5.3, Label in
# Name), so a voice user can say what they see.
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options=OPTIONS)
    found = []
    for rule in results.response["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in rule["nodes"][:5]]
        found.append(f"{rule['id']} ({rule['impact']}): {rule['help']} at {targets}")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.csp_seed")


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


def test_a_visitor_s_pages(context_for, site):
    page = context_for(DESK)
    found = {}
    for path in ("/accounts/login/", "/accounts/signup/"):
        page.goto(site["url"] + path)
        found[path] = violations(page)
    assert {path: v for path, v in found.items() if v} == {}


@pytest.mark.parametrize("who", ["gm", "player"])
def test_every_page_of_a_member(context_for, site, who):
    page = context_for(DESK)
    log_in(page, site["url"], who, site["password"])
    c = site["campaign"]
    walk = [
        *campaign_pages(site, gm=who == "gm"),
        f"/campaigns/{c}/sessions/1/replay/",
    ]
    found = {}
    for path in walk:
        page.goto(site["url"] + path)
        page.wait_for_load_state("networkidle")
        found[path] = violations(page)
    assert {path: v for path, v in found.items() if v} == {}


@pytest.mark.parametrize("who, viewport", [("gm", DESK), ("player", DESK), ("player", PHONE)])
def test_the_room_and_its_tabs(context_for, site, who, viewport):
    page = context_for(viewport)
    log_in(page, site["url"], who, site["password"])
    found = {}
    for campaign in (site["campaign"], site["fight"]["campaign"], site["wasteland"]["campaign"]):
        page.goto(f"{site['url']}/campaigns/{campaign}/room/")
        page.wait_for_selector("#conn[data-state=open]")
        for tab in ("roll", "log", "chat", "sheet", *(["gm"] if who == "gm" else [])):
            show_tab(page, tab)
            found[f"room {campaign}, {tab} tab"] = violations(page)
        show_tab(page, "roll")
        page.click("#tab-attack")
        found[f"room {campaign}, attack"] = violations(page)
        # The drawing bar, open (the Draw button, for those who may draw).
        page.click("#tool-draw")
        page.wait_for_selector("#draw-bar:not([hidden])")
        found[f"room {campaign}, drawing bar"] = violations(page)
        page.click("#draw-done")
    assert {where: v for where, v in found.items() if v} == {}
