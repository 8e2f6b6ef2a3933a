"""What the live-room benchmarks share: the bench database, the `vtt.serve`
processes they start and stop, and how a load client opens a room socket.

Used by bench/ws_fanout.py (one room, many clients) and bench/table_night.py
(many small rooms)."""

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_REDIS = "redis://127.0.0.1:6379/0"

# How the Django targets are served: as the site is (daphne on uvloop), or
# by daphne's own command, on asyncio's default loop, to compare.
SERVE = [sys.executable, "-m", "vtt.serve"]
PLAIN_DAPHNE = [str(Path(sys.executable).with_name("daphne"))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def use_uvloop() -> str:
    try:
        import uvloop
    except ImportError:
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def django_env(database_url: str, redis_url: str | None) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "vtt.settings"}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    env["PYTHONPATH"] = str(ROOT)
    env["LOG_LEVEL"] = "ERROR"
    # As a deployment runs: DEBUG off, database connections from the pool.
    env.update(DEBUG="0", SECRET_KEY="bench-only-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1,localhost")
    # Every socket of a bench's load comes from the one loopback address,
    # which a deployment's admission would let open 10 at once, then 1 a second.
    env.update(
        LIVE_CONNECTS_PER_SECOND_PER_ADDRESS="100000", LIVE_CONNECT_BURST_PER_ADDRESS="100000"
    )
    return env


def _admin_url(database_url: str) -> tuple[str, str]:
    """The server's maintenance database and the bench database's name."""
    base = database_url.partition("?")[0]
    return base.rsplit("/", 1)[0] + "/postgres", base.rsplit("/", 1)[1]


def prepare_database(database_url: str, fresh: bool = False) -> None:
    """Create the bench database if need be (anew with `fresh`) and migrate it."""
    import psycopg

    admin, name = _admin_url(database_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=django_env(database_url, None),
        check=True,
    )


def drop_database(database_url: str) -> None:
    import psycopg

    admin, name = _admin_url(database_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far, its threads and the
    processes it started (a room's fog drawing process) included."""
    total = 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    total += cpu_seconds(int(child))
    return total


def start_daphne(port: int, env: dict, command=SERVE, logs: Path | None = None) -> subprocess.Popen:
    """One server process on `port`; with `logs`, its output (log level INFO)
    is kept in logs/daphne-PORT.log."""
    out = subprocess.DEVNULL
    if logs is not None:
        out = open(logs / f"daphne-{port}.log", "a")  # noqa: SIM115
        env = {**env, "LOG_LEVEL": "INFO"}
    return subprocess.Popen(
        [*command, "-b", "127.0.0.1", "-p", str(port), "vtt.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out,
        start_new_session=True,
    )


def wait_for_http(port: int, path: str = "/healthz", timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered on port {port}")


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def start_servers(count: int, env: dict, command=SERVE, logs: Path | None = None):
    """`count` server processes on free ports, each answering /healthz."""
    ports = [free_port() for _ in range(count)]
    processes = [start_daphne(port, env, command, logs) for port in ports]
    try:
        for port in ports:
            wait_for_http(port)
    except Exception:
        stop(processes)
        raise
    return ports, processes


def stop(processes) -> None:
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


async def open_client(url: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    return await connect(
        url,
        origin=origin,
        additional_headers=headers,
        compression=None,
        max_queue=None,
        open_timeout=30,
        ping_interval=None,
    )
