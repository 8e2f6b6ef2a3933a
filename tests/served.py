"""The site served as it is in production (`python -m vtt.serve`: daphne on
uvloop) in a subprocess, for the tests that need a real server: the
browser, two processes over Redis, a slow client, the command itself."""

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int, env: dict, stderr=subprocess.DEVNULL, **popen) -> subprocess.Popen:
    """Serve on 127.0.0.1:`port` from the repository, with `env` as the whole environment."""
    command = [sys.executable, "-m", "vtt.serve", "-b", "127.0.0.1", "-p", str(port)]
    return subprocess.Popen(
        [*command, "vtt.asgi:application"],
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


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
