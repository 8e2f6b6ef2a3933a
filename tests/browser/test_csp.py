"""Every page under the Content-Security-Policy in real Chromium: the
browser reports no violation (a `securitypolicyviolation` event, a
"Refused to ..." console line) and no page error, for a visitor, the GM,
the player and the admin, the room's socket opens, and static files carry
the headers too (vtt/web/headers.py)."""

import pytest

from tests.browser.conftest import seeded_server
from tests.browser.room import log_in, show_tab

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}

# Collects what the browser refused, from before any script of the page runs.
WATCH = """
window.__refused = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__refused.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    yield from seeded_server(tmp_path_factory, "tests.browser.csp_seed")


@pytest.fixture
def visit(strict_browser):
    """A page of its own for `who` (None: a visitor); `go(url)` loads a page
    and returns everything refused or broken on it."""
    contexts = []

    def make(site, who):
        context = strict_browser.new_context(viewport=DESK)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(WATCH)
        problems = []
        page.on(
            "console",
            lambda m: (
                problems.append(f"console: {m.text}")
                if "Refused to" in m.text or "Content Security Policy" in m.text
                else None
            ),
        )
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        if who is not None:
            log_in(page, site["url"], who, site["password"])

        def go(path, ready=None):
            problems.clear()
            response = page.goto(site["url"] + path)
            assert response.status == 200, path
            assert "script-src 'self'" in response.headers["content-security-policy"], path
            if ready:
                page.wait_for_selector(ready)
            page.wait_for_load_state("networkidle")
            return problems + page.evaluate("window.__refused")

        page.go = go
        return page

    yield make
    for context in contexts:
        context.close()


def campaign_pages(site, gm: bool) -> list[str]:
    c = site["campaign"]
    pages = [
        "/",
        "/join/?code=abc",
        f"/campaigns/{c}/characters/",
        f"/campaigns/{c}/characters/{site['tenrec']}/",
        f"/campaigns/{c}/sessions/",
        f"/campaigns/{c}/sessions/1/",
        f"/campaigns/{c}/sessions/1/journal/",
        f"/campaigns/{c}/dice/",
        f"/campaigns/{site['muster']['campaign']}/characters/",
    ]
    if gm:
        hall = site["hall"]
        pages += [
            f"/campaigns/{c}/characters/new/",
            f"/campaigns/{c}/gm/",
            f"/campaigns/{c}/gm/scenes/{hall['scene']}/",
            f"/campaigns/{c}/gm/scenes/{hall['scene']}/tokens/{hall['tokens']['statue']}/remove/",
        ]
    return pages


def test_a_visitor_s_pages(visit, site):
    page = visit(site, None)
    for path in ("/", "/accounts/login/", "/accounts/signup/"):
        assert page.go(path) == [], path


@pytest.mark.parametrize("who", ["gm", "player"])
def test_every_page_of_a_member(visit, site, who):
    page = visit(site, who)
    for path in campaign_pages(site, gm=who == "gm"):
        assert page.go(path) == [], path


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_room_opens_its_socket_and_draws_everything(visit, site, who):
    page = visit(site, who)
    for campaign in (site["campaign"], site["fight"]["campaign"], site["wasteland"]["campaign"]):
        refused = page.go(f"/campaigns/{campaign}/room/", ready="#conn[data-state=open]")
        for tab in ("roll", "log", "chat", "sheet", *(["gm"] if who == "gm" else [])):
            show_tab(page, tab)
        page.wait_for_timeout(300)
        refused += page.evaluate("window.__refused")
        assert refused == [], campaign


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_replay(visit, site, who):
    page = visit(site, who)
    path = f"/campaigns/{site['campaign']}/sessions/1/replay/"
    refused = page.go(path)
    page.wait_for_timeout(500)
    assert refused + page.evaluate("window.__refused") == []


def test_the_api_docs_and_the_admin(visit, site):
    page = visit(site, "admin")
    refused = page.go("/api/docs/", ready=".swagger-ui .info")
    assert refused == [], "/api/docs/"
    for path in ("/admin/", "/admin/accounts/loginfailure/", "/admin/auth/user/1/change/"):
        assert page.go(path) == [], path


def test_static_files_carry_the_headers(visit, site):
    page = visit(site, None)
    for path in ("/static/js/room/socket.js", "/static/css/site.css"):
        response = page.request.get(site["url"] + path)
        assert response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"], path
        assert response.headers["x-content-type-options"] == "nosniff", path
