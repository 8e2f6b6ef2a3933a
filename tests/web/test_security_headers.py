"""Every answer carries the Content-Security-Policy and the other security
headers (vtt/web/headers.py), and no page has what the policy would block:
an inline script, an event handler attribute or a style attribute. Every
page of vtt/web/urls.py is walked, so a new page is checked the day it is
added."""

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests import factories
from vtt import dice
from vtt.spectators.services import link_create

pytestmark = pytest.mark.django_db

DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self' ws://testserver wss://testserver",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
OTHER_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def csp(response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy", "")
    return {
        name: value.strip()
        for name, _, value in (part.strip().partition(" ") for part in header.split(";"))
        if name
    }


def assert_headers(response, url, directives=DIRECTIVES):
    assert csp(response) == directives, url
    for name, value in OTHER_HEADERS.items():
        assert response.headers.get(name) == value, (url, name)
    permissions = response.headers.get("Permissions-Policy", "")
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions, (url, feature)


class InlineFinder(HTMLParser):
    """What a `script-src 'self'; style-src 'self'` page may not contain."""

    def __init__(self):
        super().__init__()
        self.found = []
        self.script_open = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name, _ in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
        if tag == "style":
            self.found.append("<style> element")
        if tag == "script":
            data = names.get("type") == "application/json"
            self.script_open = not names.get("src") and not data
        if any((value or "").strip().lower().startswith("javascript:") for _, value in attrs):
            self.found.append(f"<{tag}> with a javascript: URL")

    def handle_endtag(self, tag):
        if tag == "script":
            self.script_open = False

    def handle_data(self, data):
        if self.script_open and data.strip():
            self.found.append(f"inline script: {data.strip()[:60]!r}")


def inline_bits(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


@pytest.fixture
def table(users):
    gm, player = users["gm"], users["player"]
    campaign = factories.campaign(gm)
    factories.invited(campaign, gm, player)
    scene = factories.scene(campaign, gm, "Crypt", active=True, width=8, height=6)
    character = factories.character(campaign, gm, "Tenrec", owner_id=player.pk)
    token = factories.token(scene, gm, "Tenrec", 1, 1, color="#2266aa", character_id=character.pk)
    session = dice.session_start(campaign_id=campaign.pk, by=gm)
    for faces in ([6, 5, 2, 1], [3, 3, 4, 1]):
        dice.roll_adjudicate(
            campaign_id=campaign.pk,
            by=player,
            request={
                "system": "artifice",
                "action": "check",
                "pool": 4,
                "difficulty": 2,
                "faces": faces,
            },
        )
    dice.session_end(campaign_id=campaign.pk, by=gm)
    link, watch_token = link_create(campaign_id=campaign.pk, by=gm)
    return {
        "link_id": link.pk,
        "token": watch_token,
        "campaign_id": campaign.pk,
        "scene_id": scene.pk,
        "token_id": token.pk,
        "character_id": character.pk,
        "number": session.number,
    }


def web_pages(table) -> list[str]:
    """Every route of the site's pages, its parameters filled from the table."""
    urls = []

    def walk(patterns, prefix):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and entry.callback.__module__.startswith("vtt.web"):
                route = route.replace("<int:", "{").replace("<str:", "{").replace(">", "}")
                urls.append("/" + route.format(**table))

    walk(get_resolver().url_patterns, "")
    return urls


def test_every_page_carries_the_policy_and_has_nothing_it_blocks(users, table):
    pages = web_pages(table)
    assert len(pages) >= 25 and f"/campaigns/{table['campaign_id']}/gm/" in pages
    for who in ("gm", "player"):
        client = Client()
        client.force_login(users[who])
        for url in pages:
            response = client.get(url)
            assert_headers(response, url)
            if response.status_code == 200 and "html" in response["Content-Type"]:
                assert inline_bits(response.content.decode()) == [], (who, url)


def test_anonymous_pages_errors_and_the_api_carry_them(users):
    client = Client()
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/no-such-page/", "/healthz"):
        response = client.get(url)
        assert_headers(response, url)
        if response.status_code == 200 and "html" in response["Content-Type"]:
            assert inline_bits(response.content.decode()) == [], url
    assert_headers(client.get("/api/me/"), "/api/me/")
    assert_headers(client.post("/api/auth/token/", {}), "/api/auth/token/")
    # A Host not in ALLOWED_HOSTS is refused (400), and named nowhere in the policy.
    refused = client.get("/campaigns/1/room/", HTTP_HOST="evil.example")
    assert refused.status_code == 400
    assert_headers(refused, "bad host", {**DIRECTIVES, "connect-src": "'self'"})


def test_the_admin_carries_them(users):
    users["gm"].is_staff = users["gm"].is_superuser = True
    users["gm"].save()
    client = Client()
    client.force_login(users["gm"])
    user_page = f"/admin/auth/user/{users['gm'].pk}/change/"
    for url in ("/admin/", "/admin/accounts/joinfailure/", user_page):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_headers(response, url)


def test_the_api_docs_page_has_no_inline_script_and_its_own_style_rule(users):
    client = Client()
    client.force_login(users["gm"])
    page = client.get("/api/docs/")
    assert page.status_code == 200
    assert_headers(page, "/api/docs/", {**DIRECTIVES, "style-src": "'self' 'unsafe-inline'"})
    html = page.content.decode()
    scripts = [bit for bit in inline_bits(html) if bit.startswith("inline script")]
    assert scripts == []
    # The start-up script the page names is served, as JavaScript, under the page's rule.
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "javascript" in script["Content-Type"]
    assert "SwaggerUIBundle" in script.content.decode()


def test_pictures_from_a_bucket_are_allowed_as_images_only(users, settings):
    settings.MEDIA_ORIGINS = ["https://pictures.example"]
    response = Client().get("/accounts/login/")
    assert csp(response)["img-src"] == "'self' data: https://pictures.example"
    assert "pictures.example" not in csp(response)["script-src"]
