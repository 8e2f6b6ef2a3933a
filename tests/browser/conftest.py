"""A live daphne for the browser tests, on a free port over its own SQLite
file (the test process's database is in memory and pytest-django's
live_server speaks no websockets), and a Chromium from the system."""

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests import served
from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_path():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        need("Chromium", "REQUIRE_BROWSER", f"{CHROMIUM} is missing")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        need("Playwright", "REQUIRE_BROWSER", "the playwright package is not installed")
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


@pytest.fixture(scope="module")
def table(tmp_path_factory, chromium_path):
    """{"url", "campaign", "tenrec_token", "zombie_token", "password"}"""
    yield from seeded_server(tmp_path_factory, "tests.browser.room_seed")


def seeded_server(tmp_path_factory, seed_module: str, *seed_args: str):
    """Copy a freshly migrated SQLite file, seed it with `seed_module`'s
    `seed(*seed_args)` and serve it, both in one process
    (tests/browser/seeded_serve.py), and yield {"url", **what the seed
    returned} until the module ends."""
    folder = tmp_path_factory.mktemp("browser")
    db = folder / "table.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DJANGO_SETTINGS_MODULE": "tests.site_settings",
        "DEBUG": "1",
        "PYTHONPATH": str(ROOT),
        # Uploads go to a temporary folder, never into the repository.
        "MEDIA_ROOT": str(tmp_path_factory.mktemp("media")),
        # Every page of every test is one more person on 127.0.0.1: the
        # per-address connect limit is for a client in a loop, and is
        # tested in tests/live/test_limits.py and tests/faults.
        "LIVE_CONNECT_BURST_PER_ADDRESS": "1000",
    }
    env.pop("REDIS_URL", None)  # one process: the in-memory layer will do
    served.migrated_sqlite(db)
    port = served.free_port()
    seeded = folder / "seeded.json"
    command = [sys.executable, "-m", "tests.browser.seeded_serve", seed_module, str(seeded)]
    command += [*seed_args, "--", "-b", "127.0.0.1", "-p", str(port), "vtt.asgi:application"]
    log = folder / "server.log"
    with log.open("w") as stderr:
        proc = served.start(port, env, stderr, command=command)
    try:
        url = f"http://127.0.0.1:{port}"
        try:
            # It answers once seeded: a big seed takes a while.
            served.wait_until_up(url + "/accounts/login/", proc, seconds=150)
        except AssertionError as failed:
            raise AssertionError(f"{failed}\n{log.read_text()[-3000:]}") from None
        yield {"url": url, **json.loads(seeded.read_text())}
    finally:
        served.stop(proc)


class PlaywrightBrowser:
    """Chromium whose pages leave the site's Content-Security-Policy aside:
    Playwright runs a string given to wait_for_function with eval inside
    the page, which the policy (no 'unsafe-eval') refuses. The policy
    itself is tested with it in force (`strict_browser`, test_csp.py)."""

    def __init__(self, browser):
        self.browser = browser

    def new_context(self, **options):
        return self.browser.new_context(**{"bypass_csp": True, **options})

    def new_page(self, **options):
        return self.browser.new_page(**{"bypass_csp": True, **options})

    def __getattr__(self, name):
        return getattr(self.browser, name)


@pytest.fixture(scope="module")
def strict_browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser(strict_browser):
    return PlaywrightBrowser(strict_browser)


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take
