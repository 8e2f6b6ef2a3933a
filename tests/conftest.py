"""Shared fixtures. Tests that need PostgreSQL, Redis or Chromium skip with the
reason when the service is missing, unless REQUIRE_SERVICES=1 /
REQUIRE_BROWSER=1 (as on CI), when they fail instead."""

import os
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

# ------------------------------------------------------------ parallel runs
# `make test` runs the suite on pytest-xdist workers (docs/testing.md). Each
# worker has a test database of its own (pytest-django names it after the
# worker); what is shared besides must be kept apart here.


FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"


def pytest_configure(config):
    """Passwords are hashed by Django's fast MD5 hasher, as Django advises
    for tests: the default one costs most of a second of CPU a password by
    design, and the suite makes and checks hundreds (no test tests the
    hasher itself). Sites served for the tests do the same
    (tests/site_settings.py).

    A worker's rooms publish under a prefix of their own: the channel
    layer's prefix is named after the site's database, which is the same
    name in every worker's settings, and Redis pub/sub channels are shared
    by the whole server, so two workers' campaign 1 would hear each other.

    WhiteNoise looks a static file up when it is asked for, instead of
    listing the collected ones when its middleware is made: every test
    client makes the middleware again, and after `make run` had collected
    the static files that listing cost some 50 ms a client, 46 s of the
    permission matrix alone. Only tests/web/test_static_files.py asks a
    test client for static files, from the sources (the browser tests'
    sites serve them as production does)."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = [FAST_HASHER]
    settings.WHITENOISE_AUTOREFRESH = True
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    from vtt.settings import redis_channel_layer

    if settings.REDIS_URL:
        name = f"{settings.DATABASES['default']['NAME']}_{worker}"
        settings.CHANNEL_LAYERS = {"default": redis_channel_layer(settings.REDIS_URL, name)}


def _shared_params(item) -> tuple:
    """The parameters of the wider-than-a-test fixtures `item` runs under
    (a file's site laid once per game, say)."""
    spec = getattr(item, "callspec", None)
    scopes = getattr(spec, "_arg2scope", {})
    return tuple(
        sorted(
            (name, spec.indices[name])
            for name, scope in scopes.items()
            if scope.value != "function"
        )
    )


# Tests a -k or -m left out, by node id: a browser step may need them.
_deselected: dict = {}


def pytest_deselected(items):
    _deselected.update((item.nodeid, item) for item in items)


def _written(item) -> tuple:
    """Where a test is written in its file (its line, then its parameters)."""
    spec = getattr(item, "callspec", None)
    return item.location[1], tuple(sorted(getattr(spec, "indices", {}).items()))


def _in_steps(chosen: list, config) -> list:
    """`chosen` (some browser tests of one file) with the tests they stand
    on, in the order they are written: every test written before a chosen
    one under the same parameter of the file's shared site is a step of the
    table the file plays through, so a step asked for alone runs after the
    steps it needs. Those a -k left out are taken back; a file named with
    `::` is collected again, and then all its tests come from that
    collection, so that they share its fixtures (one site)."""
    path = chosen[0].path
    named = any("::" in arg and Path(arg.split("::")[0]).resolve() == path for arg in config.args)
    if named:
        module = chosen[0].getparent(pytest.Module)
        pool = [node for node in module.collect() if isinstance(node, pytest.Function)]
    else:
        pool = [*chosen]
        pool += [
            item
            for item in _deselected.values()
            if item.path == path and item.get_closest_marker("browser")
        ]
    pool.sort(key=_written)
    wanted = {item.nodeid for item in chosen}
    needed = set(wanted)
    for n, step in enumerate(pool):
        if step.nodeid in wanted:
            needed.update(b.nodeid for b in pool[:n] if _shared_params(b) == _shared_params(step))
    if needed == wanted:
        written = sorted(chosen, key=_written)
    else:
        written = [step for step in pool if step.nodeid in needed]
    groups = list(dict.fromkeys(_shared_params(item) for item in written))
    return sorted(written, key=lambda item: groups.index(_shared_params(item)))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A browser file's tests keep the order they are written in, whatever
    order the files run in (pytest-randomly's shuffle, on CI): each file
    plays one table through in steps on a site of its own (docs/testing.md,
    "Order"), so its files, not its tests, are what may be shuffled. A step
    asked for without the steps before it gets them first, so any browser
    test passes alone. As pytest does unshuffled, the tests under one
    parameter of a file's shared fixture run together, so that each site is
    laid once. The other tests keep the shuffled order."""
    files = defaultdict(list)
    first_slot = {}
    for slot, item in enumerate(items):
        if item.get_closest_marker("browser"):
            files[item.path].append(item)
            first_slot.setdefault(item.path, slot)
    if not files:
        return
    placed = {path: _in_steps(chosen, config) for path, chosen in files.items()}
    ordered = []
    for slot, item in enumerate(items):
        path = item.path if item.get_closest_marker("browser") else None
        if path is None:
            ordered.append(item)
        elif first_slot[path] == slot:
            ordered.extend(placed[path])
    items[:] = ordered


def need(what: str, env_flag: str, reason: str):
    """Skip, or fail when the environment says the thing must be there."""
    if os.environ.get(env_flag) == "1":
        pytest.fail(f"{what} is required ({env_flag}=1) but {reason}")
    pytest.skip(f"{what} not available: {reason}")


@pytest.fixture
def redis_url():
    url = os.environ.get("REDIS_URL")
    if not url:
        need("Redis", "REQUIRE_SERVICES", "REDIS_URL is not set")
    return url


@pytest.fixture
def postgres(settings):
    from django.db import connection

    if connection.vendor != "postgresql":
        need("PostgreSQL", "REQUIRE_SERVICES", "DATABASE_URL does not name a PostgreSQL database")
    return connection


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of the test's own, to kill and start again."""
    path = shutil.which("redis-server")
    if path is None:
        need("redis-server", "REQUIRE_SERVICES", "no redis-server on PATH")
    from tests import served

    server = served.RedisServer(path, served.free_port(), tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def table(db):
    """The small campaign at the table of tests/tabletop/table.py, for any
    folder; a folder or module that lays its own `table` overrides it."""
    from tests.tabletop.table import make_table

    return make_table()


@pytest.fixture(autouse=True)
def _rooms_forgotten():
    """Each test starts with no kept sight, no drawing owed and no ping
    limit spent: a flushed test database numbers its rooms and events from
    the start again, and what the process kept of an earlier test's room
    would pass for the new one's."""
    yield
    from vtt.fog import fog_drawing, sight_cache
    from vtt.live import drawing_strokes, pings

    sight_cache.forget_all()
    fog_drawing.forget_all()
    pings.forget_all()
    drawing_strokes.forget_all()
