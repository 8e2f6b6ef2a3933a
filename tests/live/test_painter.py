"""The fog drawings' geometry worked out in a process of its own
(vtt.live.painter): the same drawing as here, and a dead drawing process
costs no drawing."""

import os
import signal

import pytest

from vtt.live import painter
from vtt.rules import fog_paint, sight

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
