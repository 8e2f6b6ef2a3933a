"""`python -m vtt.serve`: daphne, started on uvloop."""

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_daphne_makes_its_loop_with_uvloop():
    pytest.importorskip("uvloop")
    done = run_python(
        "from vtt.serve import use_uvloop\n"
        "print(use_uvloop())\n"
        "import daphne.server\n"
        "print(type(daphne.server.twisted_loop).__module__)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "uvloop"]


def test_too_late_to_choose_the_loop_is_an_error():
    done = run_python("import daphne.server\nfrom vtt.serve import main\nmain()\n")
    assert done.returncode == 1
    assert "daphne made its event loop before uvloop could be chosen" in done.stderr


def test_it_serves_and_stops_on_ctrl_c(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PATH": "/usr/bin:/bin"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "vtt.serve",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "vtt.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        status = None
        deadline = time.monotonic() + 30
        while status is None and time.monotonic() < deadline:
            assert server.poll() is None, server.stderr.read()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as reply:
                    status = reply.status
            except OSError:
                time.sleep(0.1)
        assert status == 200
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=15) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
