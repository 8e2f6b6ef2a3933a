"""The fault suite's stage: its own redis-server, two `vtt.serve` workers
started the way docker-compose.yml starts them, and nginx in front of them
with deploy/nginx.conf itself. A worker or Redis can be killed with SIGKILL
and started again on the same port. Without PostgreSQL, nginx or
redis-server the suite skips, or fails with REQUIRE_SERVICES=1."""

import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests import served
from tests.conftest import need

ROOT = served.ROOT
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
COMPOSE = ROOT / "docker-compose.yml"

# The environment variable that tells a worker which proxies to trust for
# the client's address (X-Forwarded-For). docker-compose.yml names the
# proxy's own address there; here the stage's nginx has one of its own on
# loopback, so that the test, from 127.0.0.1, can reach a worker as a
# stranger would.
TRUST_PROXY_VARIABLE = "TRUSTED_PROXIES"
NGINX_ADDRESS = "127.0.0.2"

LOG_TAIL = 4000  # characters of each log shown when a test fails


# ------------------------------------------------------------ programs


def program(name: str) -> str | None:
    """The program's path; nginx lives in /usr/sbin, not always on PATH."""
    found = shutil.which(name)
    if found:
        return found
    candidate = Path("/usr/sbin") / name
    return str(candidate) if os.access(candidate, os.X_OK) else None


def require_services() -> tuple[str, str]:
    """nginx and redis-server, or a skip (a failure with REQUIRE_SERVICES=1)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        need("PostgreSQL", "REQUIRE_SERVICES", "DATABASE_URL does not name a PostgreSQL database")
    nginx, redis = program("nginx"), program("redis-server")
    if nginx is None:
        need("nginx", "REQUIRE_SERVICES", "no nginx on PATH or in /usr/sbin")
    if redis is None:
        need("redis-server", "REQUIRE_SERVICES", "no redis-server on PATH")
    return nginx, redis


# ------------------------------------------------------------ workers


def compose_web() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]["web1"]


def _set_option(args: list[str], names: tuple[str, ...], value: str) -> None:
    for i, arg in enumerate(args[:-1]):
        if arg in names:
            args[i + 1] = value
            return
    pytest.fail(f"docker-compose.yml: web1's command has no {names[0]} option to replace")


def worker_command(port: int) -> list[str]:
    """web1's command from docker-compose.yml (its daphne flags, such as
    --proxy-headers, included) bound to 127.0.0.1:`port`."""
    command = [str(part) for part in compose_web()["command"]]
    if command[:3] != ["python", "-m", "vtt.serve"]:
        pytest.fail(f"docker-compose.yml: web1's command is not `python -m vtt.serve`: {command}")
    args = command[3:]
    _set_option(args, ("--bind", "-b"), "127.0.0.1")
    _set_option(args, ("--port", "-p"), str(port))
    return [sys.executable, "-m", "vtt.serve", *args]


def compose_value(name: str, default: str) -> str:
    """A web variable of docker-compose.yml; `${X:-d}` gives `d`."""
    value = str(compose_web().get("environment", {}).get(name, default))
    interpolated = re.fullmatch(r"\$\{[^}:]+:-([^}]*)\}", value)
    return interpolated.group(1) if interpolated else value


# The database variables a worker takes from docker-compose.yml as they are
# there: set there, the value; not set, the default of vtt/settings.py.
DATABASE_VARIABLES = ("DB_CONN_MAX_AGE", "DB_POOL_SIZE")
# What the workers' connections call themselves in pg_stat_activity (libpq
# reads PGAPPNAME), so a test can count them apart from its own.
WORKER_APPLICATION_NAME = "vtt-faults-worker"


def worker_env(database: str, redis_url: str) -> dict:
    env = {
        **{k: v for k, v in os.environ.items() if k not in DATABASE_VARIABLES},
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "PYTHONPATH": str(ROOT),
        "PGAPPNAME": WORKER_APPLICATION_NAME,
        # As in production: the one proxy trusted.
        TRUST_PROXY_VARIABLE: NGINX_ADDRESS,
    }
    for name in DATABASE_VARIABLES:
        value = compose_value(name, "")
        if value:
            env[name] = value
    return env


class Worker:
    def __init__(self, name: str, port: int, env: dict, workdir: Path):
        self.name, self.port, self.env = name, port, env
        self.log_path = workdir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "a") as log:
            self.process = served.start(
                self.port,
                self.env,
                log,
                command=worker_command(self.port),
                start_new_session=True,
            )

    def wait_up(self, seconds: float = 30) -> None:
        served.wait_until_up(f"http://127.0.0.1:{self.port}/healthz", self.process, seconds)

    def kill(self) -> None:
        served.kill_group(self.process, signal.SIGKILL)
        self.process.wait(5)

    def stop(self) -> None:
        served.end(self.process)


# ------------------------------------------------------------ nginx


def substitute(text: str, pattern: str, value: str, what: str, expected: int = 1) -> str:
    """Replace the `expected` matches of `pattern` (keeping its first group, if any)."""
    matches = len(re.findall(pattern, text, flags=re.S))
    if matches != expected:
        pytest.fail(
            f"deploy/nginx.conf: expected {expected} {what} to point at the test's servers, "
            f"found {matches} (pattern {pattern!r}); update tests/faults/conftest.py"
        )

    def keep_prefix(match: re.Match) -> str:
        return (match.group(1) if match.re.groups else "") + value

    return re.sub(pattern, keep_prefix, text, flags=re.S)


def nginx_site(worker_ports: list[int], port: int, media: Path) -> str:
    """deploy/nginx.conf with its upstreams, its port and its media folder
    pointed at the test's own."""
    text = NGINX_CONF.read_text()
    upstreams = len(re.findall(r"^\s*upstream\s", text, flags=re.M))
    for n, worker_port in enumerate(worker_ports, 1):
        text = substitute(
            text,
            rf"(\bserver\s+)web{n}:8000\b",
            f"127.0.0.1:{worker_port}",
            f"`server web{n}:8000 ...;` lines (one an upstream)",
            expected=upstreams,
        )
    text = substitute(text, r"\blisten\s+80\s*;", f"listen 127.0.0.1:{port};", "`listen 80;`")
    text = substitute(
        text,
        r"(location\s+/media/\s*\{[^}]*?\balias\s+)[^;]+;",
        f"{media}/;",
        "`alias` in `location /media/`",
    )
    return text


def nginx_main(site: str, prefix: Path) -> str:
    # Run as root, nginx's workers would become `nobody`, who cannot read the
    # test's private temporary folders: keep them as the current user.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix}/{kind}_temp;"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"# Made by tests/faults/conftest.py from deploy/nginx.conf.\n{user}"
        f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/nginx-error.log warn;\n"
        "events {}\n"
        f"http {{\n    access_log {prefix}/nginx-access.log;\n{temp}\n"
        # Test-only: every answer names the worker(s) nginx tried, so a test
        # can tell where a room's sockets went (deploy/nginx.conf sets no
        # add_header of its own, so its locations inherit this one).
        "    add_header X-Upstream-Addr $upstream_addr always;\n"
        # As the compose proxy's fixed address: the one the workers trust.
        f"    proxy_bind {NGINX_ADDRESS};\n"
        f"\n{site}\n}}\n"
    )


class Nginx:
    def __init__(self, path: str, port: int, worker_ports: list[int], prefix: Path):
        self.path, self.port, self.prefix = path, port, prefix
        media = prefix / "media"
        media.mkdir()
        self.conf = prefix / "nginx.conf"
        self.conf.write_text(nginx_main(nginx_site(worker_ports, port, media), prefix))
        self.log_path = prefix / "nginx.log"
        self.process: subprocess.Popen | None = None

    def command(self, *extra: str) -> list[str]:
        error_log = str(self.prefix / "nginx-error.log")
        return [self.path, "-c", str(self.conf), "-p", str(self.prefix), "-e", error_log, *extra]

    def start(self) -> None:
        test = subprocess.run(self.command("-t"), capture_output=True, text=True)
        if test.returncode != 0:
            pytest.fail(f"nginx refuses the generated {self.conf}:\n{test.stderr}")
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        served.wait_until_up(f"http://127.0.0.1:{self.port}/healthz", self.process, 15)

    def stop(self) -> None:
        served.end(self.process)


# ------------------------------------------------------------ the stage


@dataclass
class Stack:
    redis: served.RedisServer
    workers: list[Worker]
    nginx: Nginx
    logs: Path

    def port(self, target: str) -> int:
        """`nginx`, `worker1` or `worker2`."""
        if target == "nginx":
            return self.nginx.port
        return self.workers[int(target.removeprefix("worker")) - 1].port

    def worker_first(self, port: int) -> None:
        """Make the worker on `port` worker 1 (the one the scenario kills):
        the workers are alike, and nginx sends a room to one of them by the
        room's path, so the test picks which one it kills, not the room."""
        self.workers.sort(key=lambda w: w.port != port)

    def restart_worker(self, n: int) -> subprocess.Popen:
        """SIGKILL worker `n` (1 or 2) and start it again on its port."""
        worker = self.workers[n - 1]
        worker.kill()
        worker.start()
        return worker.process

    def log_tails(self) -> str:
        paths = [w.log_path for w in self.workers]
        paths += [self.redis.log_path, self.nginx.log_path, self.logs / "nginx-error.log"]
        parts = []
        for path in paths:
            text = path.read_text(errors="replace") if path.exists() else "(no log)"
            parts.append(f"--- {path.name}:\n{text[-LOG_TAIL:]}")
        return "\n".join(parts)


@pytest.fixture(scope="package")
def stack(request, tmp_path_factory):
    """Redis, two workers and nginx, for the whole suite."""
    nginx_path, redis_path = require_services()
    request.getfixturevalue("django_db_setup")
    from django.db import connection

    logs = tmp_path_factory.mktemp("faults")
    redis = served.RedisServer(redis_path, served.free_port(), logs)
    env = worker_env(served.database_url(connection.settings_dict), redis.url)
    workers = [Worker(f"worker{n}", served.free_port(), env, logs) for n in (1, 2)]
    nginx = Nginx(nginx_path, served.free_port(), [w.port for w in workers], logs)
    the_stack = Stack(redis, workers, nginx, logs)
    try:
        redis.start()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.wait_up()
        nginx.start()
        yield the_stack
    except BaseException:
        print(the_stack.log_tails())
        raise
    finally:
        nginx.stop()
        for worker in workers:
            worker.stop()
        redis.stop()


REPORTS = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    item.stash.setdefault(REPORTS, {})[report.when] = report
    return report


@pytest.fixture(autouse=True)
def logs_on_failure(request, stack):
    """The servers' logs, printed under a failed test."""
    yield
    reports = request.node.stash.get(REPORTS, {})
    if any(report.failed for report in reports.values()):
        print(stack.log_tails())


# ------------------------------------------------------------ the campaign


@dataclass
class BigRoom:
    campaign_id: int
    users: dict  # name -> {"id", "name", "role"}
    cookies: dict  # name -> session cookie
    tokens: dict  # name -> token id
    moves: dict  # user name -> the token ids that user moves


PLAYERS = 9


def make_big_room(prefix: str = "faults-") -> BigRoom:
    """A GM, PLAYERS players each with a token of their own, an observer, a
    visible NPC and a hidden one (the GM moves both), and a stranger who is
    not a member."""
    from django.contrib.auth import get_user_model

    from tests.live.conftest import session_cookie
    from vtt.tabletop.models import Membership, Role
    from vtt.tabletop.services import (
        campaign_create,
        scene_activate,
        scene_create,
        token_create,
    )

    User = get_user_model()
    names = ["gm", *(f"player{n}" for n in range(1, PLAYERS + 1)), "observer", "stranger"]
    users = {name: User.objects.create_user(prefix + name) for name in names}
    gm = users["gm"]
    campaign = campaign_create(owner=gm, name="Under faults", game="artifice")
    roles = {name: Role.PLAYER.value for name in names if name.startswith("player")}
    roles.update(gm=Role.GM.value, observer=Role.OBSERVER.value)
    for name, role in roles.items():
        if role != Role.GM:
            Membership.objects.create(campaign=campaign, user=users[name], role=role)
    scene = scene_create(campaign_id=campaign.pk, by=gm, name="Keep", width=20, height=20)
    scene_activate(scene_id=scene.pk, by=gm)
    tokens, moves = {}, {"gm": [], "observer": []}
    for n, name in enumerate(names[1 : PLAYERS + 1]):
        token = token_create(
            scene_id=scene.pk, by=gm, name=name, x=n, y=0, controllers=[users[name].pk]
        )
        tokens[name] = token.pk
        moves[name] = [token.pk]
    for name, hidden in (("npc", False), ("lurker", True)):
        tokens[name] = token_create(
            scene_id=scene.pk, by=gm, name=name, x=0, y=19, hidden=hidden
        ).pk
        moves["gm"].append(tokens[name])
    return BigRoom(
        campaign_id=campaign.pk,
        users={
            name: {"id": u.pk, "name": u.username, "role": roles.get(name)}
            for name, u in users.items()
        },
        cookies={name: session_cookie(u) for name, u in users.items()},
        tokens=tokens,
        moves=moves,
    )
