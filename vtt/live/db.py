"""Where the live rooms' database work runs.

Channels' default puts every database call of a process on one thread. A
token move is about ten queries and a commit that waits for the disk (some
4 ms here), so one thread caps a whole process at about a hundred moves a
second. On PostgreSQL the rooms use a small pool of threads instead, each
with its own connection: different sockets' intents run side by side, and
the row locks of the services still serialise what must be (a token's
moves, a room's sequence numbers). One socket's intents stay in order
because its consumer awaits each before reading the next.

SQLite has one writer at a time whatever the threads, so there the rooms
keep Channels' single thread."""

import contextlib
import functools
import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.db import connection, connections

POOL_THREADS = 8

_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(POOL_THREADS, thread_name_prefix="vtt-live-db")
    return _pool


@functools.cache
def parallel() -> bool:
    """Whether the rooms' database work runs on a pool of threads."""
    return connection.vendor == "postgresql"


def run(func, *args, **kwargs):
    """Await `func(*args, **kwargs)` on a database thread."""
    if parallel():
        call = database_sync_to_async(func, thread_sensitive=False, executor=_executor())
    else:
        call = database_sync_to_async(func)
    return call(*args, **kwargs)


def close_connections() -> None:
    """Close the connection of every pool thread (tests, before the test
    database is dropped; a process shutting down)."""
    if _pool is None:
        return
    barrier = threading.Barrier(POOL_THREADS)

    def close():
        # The barrier makes every thread of the pool take one of these.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=2)
        connections.close_all()

    for future in [_pool.submit(close) for _ in range(POOL_THREADS)]:
        future.result()
