"""The site served as it is in production (`python -m vtt.serve`: daphne on
uvloop) in a subprocess, for the tests that need a real server: the
browser, two processes over Redis, a slow client, the command itself, the
fault suite; and a redis-server of a test's own, to kill and restart."""

import atexit
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent


def python(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """This interpreter run at the repository's root, its output kept as text."""
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=60, **kwargs
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(
    port: int, env: dict, stderr=subprocess.DEVNULL, command=None, **popen
) -> subprocess.Popen:
    """Serve on 127.0.0.1:`port` from the repository, with `env` as the whole
    environment; `command` replaces the default `python -m vtt.serve` line."""
    return subprocess.Popen(
        command
        or [sys.executable, "-m", "vtt.serve", "-b", "127.0.0.1", "-p", str(port)]
        + ["vtt.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        **popen,
    )


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 30) -> None:
    """Return once `url` answers 2xx; fail if the server exits or takes too long."""
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, f"the server for {url} exited with {process.returncode}"
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            assert time.monotonic() < deadline, f"{url} did not answer in {seconds} s"
            time.sleep(0.1)


_migrated: Path | None = None


def migrated_sqlite(path: Path) -> None:
    """A freshly migrated SQLite database at `path`: a copy of one this
    process migrated the first time it was asked, since running every
    migration again for each served site costs seconds each time."""
    global _migrated
    if _migrated is None:
        folder = Path(tempfile.mkdtemp(prefix="vtt-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = folder / "migrated.sqlite3"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{template}",
            "DJANGO_SETTINGS_MODULE": "vtt.settings",
            "PYTHONPATH": str(ROOT),
        }
        env.pop("REDIS_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        _migrated = template
    shutil.copyfile(_migrated, path)


@contextlib.contextmanager
def seeded_site(tmp_path: Path, seeder: str, log: Path | None = None):
    """`python -m vtt.serve` over a SQLite file of its own (no Redis),
    migrated, then seeded by `seeder` ("module:function", run in a
    subprocess after django.setup(); it returns something JSON can hold).
    Yields the port and what the seeder returned; `log` keeps the server's
    stderr."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
    migrated_sqlite(tmp_path / "site.sqlite3")
    module, function = seeder.split(":")
    seeded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, django; django.setup()\n"
            f"from {module} import {function}\n"
            f"print(json.dumps({function}()))",
        ],
        timeout=120,
        **run,
    )
    port = free_port()
    if log is None:
        server = start(port, env)
    else:
        with log.open("w") as stderr:
            server = start(port, env, stderr)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/healthz", server)
        yield port, json.loads(seeded.stdout.strip().splitlines()[-1])
    finally:
        stop(server)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def database_url(settings_dict: dict) -> str:
    """The DATABASE_URL of a PostgreSQL connection's settings (for a served site)."""
    auth = quote(settings_dict["USER"] or "")
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"])
    host = settings_dict["HOST"] or "127.0.0.1"
    return f"postgres://{auth}@{host}:{settings_dict['PORT'] or 5432}/{settings_dict['NAME']}"


def kill_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def end(process: subprocess.Popen | None) -> None:
    """SIGTERM, then SIGKILL if it lingers."""
    if process is None or process.poll() is not None:
        return
    kill_group(process, signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        kill_group(process, signal.SIGKILL)
        process.wait(5)


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A redis-server of the suite's own: the shared one must not be killed."""

    def __init__(self, path: str, port: int, workdir: Path):
        self.path, self.port, self.workdir = path, port, workdir
        self.log_path = workdir / "redis.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, seconds: float = 10) -> None:
        command = [self.path, "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)]
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + seconds
        while not redis_answers(self.port):
            assert self.process.poll() is None, f"redis-server exited: {self.process.returncode}"
            assert time.monotonic() < deadline, f"redis-server did not answer in {seconds} s"
            time.sleep(0.02)

    def kill(self) -> None:
        kill_group(self.process, signal.SIGKILL)
        self.process.wait(5)

    def stop(self) -> None:
        end(self.process)
