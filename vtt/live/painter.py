"""The fog drawings' geometry (vtt.rules.fog_paint) in a process of its own.

A busy fog room owes a drawing four times a second, each tens of
milliseconds of polygon work. On the rooms' process that work holds the
interpreter the moves and the fan-out need; in a process beside it, it runs
on the machine's other core and the rooms' process only reads, writes and
sends. The process starts with the first drawing. If it dies, the drawing
it was doing is done here and the next one starts a new process; if this
process dies, it ends too.

It is spawned, so it imports the serving command's main module again: that
module must start nothing at import (vtt.serve and daphne's command keep
their work under `if __name__ == "__main__"`)."""

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from vtt.rules import fog_paint

PARENT_CHECK = 1.0  # seconds between the drawing process's looks at its parent

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # Spawned, not forked: a fork of this threaded process could copy
            # a lock some other thread holds.
            spawn = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                1, mp_context=spawn, initializer=_end_with, initargs=(os.getpid(),)
            )
        return _pool


def _end_with(parent: int) -> None:
    """In the drawing process: end once `parent` is gone. Its queue would
    not tell (it holds both ends of it), and a server killed outright must
    not leave it behind."""

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="vtt-painter-parent", daemon=True).start()


def paint(*args) -> dict:
    """fog_paint.paint(*args), worked out in the drawing process."""
    global _pool
    pool = _executor()
    try:
        return pool.submit(fog_paint.paint, *args).result()
    except BrokenProcessPool:
        with _lock:
            if _pool is pool:
                _pool = None
        return fog_paint.paint(*args)


def stop() -> None:
    """End the drawing process (tests; it also ends with this process)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(cancel_futures=True)
