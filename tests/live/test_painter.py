"""The fog drawings' geometry worked out in a process of its own
(vtt.live.painter): the same drawing as here, a dead drawing process costs
no drawing, and a dead server leaves no drawing process behind."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vtt.live import painter
from vtt.rules import fog_paint, sight

ROOT = Path(__file__).resolve().parents[2]
WALLS = fog_paint.Walls(((10, 0, 10, 8), (10, 10, 10, 20)), 20, 20)
PARTY = {"party": fog_paint.Group((sight.Eye(2.5, 2.5),), (sight.Eye(9.5, 9),), "", "")}


@pytest.fixture
def fresh_painter():
    painter.stop()
    yield
    painter.stop()


def drawing_pid() -> int:
    return next(iter(painter._pool._processes))


def test_the_drawing_process_draws_what_this_one_would(fresh_painter):
    drawn = painter.paint(WALLS, True, (), PARTY)
    assert drawn == fog_paint.paint(WALLS, True, (), PARTY)
    assert drawing_pid() != os.getpid()


def test_a_killed_drawing_process_is_replaced_and_no_drawing_is_lost(fresh_painter):
    expected = fog_paint.paint(WALLS, True, (), PARTY)
    painter.paint(WALLS, True, (), PARTY)
    killed = drawing_pid()
    os.kill(killed, signal.SIGKILL)
    assert painter.paint(WALLS, True, (), PARTY) == expected  # drawn here meanwhile
    assert painter.paint(WALLS, True, (), PARTY) == expected
    assert drawing_pid() != killed


def test_the_drawing_process_ends_with_a_server_killed_outright():
    started = subprocess.Popen(
        [sys.executable, "-c", SERVER_THAT_DRAWS],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        drawing = int(started.stdout.readline())
        assert alive(drawing)
    finally:
        started.kill()
        started.wait()
    deadline = time.monotonic() + 5 * painter.PARENT_CHECK + 5
    while alive(drawing) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(drawing)


SERVER_THAT_DRAWS = """
import time
from vtt.live import painter
from tests.live.test_painter import PARTY, WALLS
painter.paint(WALLS, True, (), PARTY)
print(next(iter(painter._pool._processes)), flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaping is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
