"""The fog drawings' geometry (vtt.rules.fog_paint) in a process of its own.

A busy fog room owes a drawing four times a second, each tens of
milliseconds of polygon work. On the rooms' process that work holds the
interpreter the moves and the fan-out need; in a process beside it, it runs
on the machine's other core and the rooms' process only reads, writes and
sends. The process starts with the first drawing. If it dies, the drawing
it was doing is done here and the next one starts a new process."""

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from vtt.rules import fog_paint

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # Spawned, not forked: a fork of this threaded process could copy
            # a lock some other thread holds.
            spawn = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(1, mp_context=spawn)
        return _pool


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
