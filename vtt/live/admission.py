"""Admitting sockets to the rooms without letting a few clients stop it
(docs/realtime.md, "Admission").

- Connects per client address are rate-limited per process: a client that
  reconnects in a loop is closed with 4429 before any database work.
- Snapshot reads take turns: a few at once per process and per room. A
  read runs in a database thread that a cancelled task cannot stop, so a
  turn ends when the thread's work does, not when the socket that asked
  goes; and a socket that left while waiting for its turn never starts one.
- Every socket waiting for its snapshot or catch-up is counted with when it
  came, so /healthz can say that a process has stopped admitting."""

import asyncio
import time

from django.conf import settings

from . import db
from .limits import TokenBucket

PRUNE_AT = 10_000  # addresses remembered before the full buckets are dropped


class Gone(Exception):
    """The socket closed before its turn came."""


class ConnectLimits:
    """One bucket of connects per client address."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str) -> bool:
        rate = settings.LIVE_CONNECTS_PER_SECOND_PER_ADDRESS
        if rate <= 0 or not address:  # no address: a server in the tests' own process
            return True
        burst = max(settings.LIVE_CONNECT_BURST_PER_ADDRESS, 1)
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= PRUNE_AT:
                self.prune()
            bucket = self.buckets[address] = TokenBucket(rate, burst, self.clock)
        return bucket.take()

    def prune(self) -> None:
        """Forget the addresses whose bucket has filled up again."""
        now = self.clock()
        for address, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[address]


connect_limits = ConnectLimits()


# ------------------------------------------------------------ waiting sockets

_waiting: dict[str, float] = {}  # socket -> when it came (monotonic)


def waiting(conn_id: str) -> None:
    _waiting.setdefault(conn_id, time.monotonic())


def admitted(conn_id: str) -> None:
    _waiting.pop(conn_id, None)


def longest_wait() -> float:
    """Seconds the socket waiting longest for its snapshot has waited (0: none)."""
    if not _waiting:
        return 0.0
    return time.monotonic() - min(_waiting.values())


def stalled() -> str | None:
    """Why this process cannot admit sockets now, or None."""
    bound = settings.LIVE_ADMISSION_STALL_SECONDS
    longest = longest_wait()
    if bound > 0 and longest > bound:
        return (
            f"a socket has waited {longest:.0f} s for its snapshot ({len(_waiting)} waiting; "
            f"LIVE_ADMISSION_STALL_SECONDS={bound})"
        )
    return None


# ------------------------------------------------------------ snapshot turns


class Turns:
    """The snapshot reads of one event loop: at most LIVE_SNAPSHOTS_PER_WORKER
    at once, and LIVE_SNAPSHOTS_PER_ROOM of one room."""

    def __init__(self):
        self.worker = asyncio.Semaphore(max(settings.LIVE_SNAPSHOTS_PER_WORKER, 1))
        self.rooms: dict[int, list] = {}  # room -> [semaphore, sockets using it]

    async def run(self, room: int, still_wanted, func, *args):
        """`func(*args)` on a database thread in its turn; raises Gone
        instead when `still_wanted()` is false by then."""
        entry = self.rooms.get(room)
        if entry is None:
            entry = self.rooms[room] = [
                asyncio.Semaphore(max(settings.LIVE_SNAPSHOTS_PER_ROOM, 1)),
                0,
            ]
        entry[1] += 1  # sockets waiting for or holding one of the room's turns
        try:
            await entry[0].acquire()
        except BaseException:
            self._leave(room, entry)
            raise
        try:
            await self.worker.acquire()
        except BaseException:
            entry[0].release()
            self._leave(room, entry)
            raise
        if not still_wanted():
            self._release(room, entry)
            raise Gone()
        work = asyncio.ensure_future(db.run(func, *args))
        work.add_done_callback(lambda done: self._done(done, room, entry))
        # Shielded: a socket that goes stops waiting, the thread finishes and
        # its turn ends then.
        return await asyncio.shield(work)

    def _done(self, work: asyncio.Future, room: int, entry: list) -> None:
        if not work.cancelled():
            work.exception()  # retrieved: whoever still waits re-raises it
        self._release(room, entry)

    def _release(self, room: int, entry: list) -> None:
        self.worker.release()
        entry[0].release()
        self._leave(room, entry)

    def _leave(self, room: int, entry: list) -> None:
        entry[1] -= 1
        if entry[1] == 0 and self.rooms.get(room) is entry:
            del self.rooms[room]


_turns: dict[asyncio.AbstractEventLoop, Turns] = {}


def turns() -> Turns:
    loop = asyncio.get_running_loop()
    found = _turns.get(loop)
    if found is None:
        for old in [old for old in _turns if old.is_closed()]:
            del _turns[old]
        found = _turns[loop] = Turns()
    return found
