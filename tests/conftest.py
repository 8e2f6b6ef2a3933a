"""Shared fixtures. Tests that need PostgreSQL, Redis or Chromium skip with the
reason when the service is missing, unless REQUIRE_SERVICES=1 /
REQUIRE_BROWSER=1 (as on CI), when they fail instead."""

import os
import shutil
from collections import defaultdict

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
    by the whole server, so two workers' campaign 1 would hear each other."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = [FAST_HASHER]
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    from vtt.settings import redis_channel_layer

    if settings.REDIS_URL:
        name = f"{settings.DATABASES['default']['NAME']}_{worker}"
        settings.CHANNEL_LAYERS = {"default": redis_channel_layer(settings.REDIS_URL, name)}


# Where each test stood in its file as collected, before any shuffle.
_written: dict[str, int] = {}


def pytest_itemcollected(item):
    _written[item.nodeid] = len(_written)


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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A browser file's tests keep the order they are written in, whatever
    order the files run in (pytest-randomly's shuffle, on CI): each file
    plays one table through in steps on a site of its own (docs/testing.md,
    "Order"), so its files, not its tests, are what may be shuffled. As
    pytest does unshuffled, the tests under one parameter of a file's shared
    fixture run together, so that each site is laid once. The other tests
    keep the shuffled order."""
    slots = defaultdict(list)
    for slot, item in enumerate(items):
        if item.get_closest_marker("browser"):
            slots[item.path].append(slot)
    for taken in slots.values():
        written = sorted((items[slot] for slot in taken), key=lambda item: _written[item.nodeid])
        groups = list(dict.fromkeys(_shared_params(item) for item in written))
        in_order = sorted(
            written, key=lambda item: (groups.index(_shared_params(item)), _written[item.nodeid])
        )
        for slot, item in zip(taken, in_order, strict=True):
            items[slot] = item


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
    from vtt.live import pings

    sight_cache.forget_all()
    fog_drawing.forget_all()
    pings.forget_all()
