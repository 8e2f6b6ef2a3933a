"""Admitting sockets to the rooms without letting a few clients stop it
(docs/realtime.md, "Admission").

- Connects per client address are rate-limited per process: a client that
  reconnects in a loop is closed with 4429 before any database work.
- Snapshot reads take turns: a few at once per process and per room. A
  read runs in a database thread that a cancelled task cannot stop, so a
  turn ends when the thread's work does, not when the socket that asked
  goes; and a read whose sockets all left while it waited never starts.
- Sockets that ask for the same read (the same room and the same member's
  view) while one waits for its turn share it: the read is built once and
  sent to each. Only a read that has not started takes new sockets: they
  joined the room's group before it began, so every event after its seq
  reaches their buffers and nothing between falls through.
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
    at once, and LIVE_SNAPSHOTS_PER_ROOM of one room; reads asked for with
    the same key while one waits are one read."""

    def __init__(self):
        self.worker = asyncio.Semaphore(max(settings.LIVE_SNAPSHOTS_PER_WORKER, 1))
        self.rooms: dict[int, list] = {}  # room -> [semaphore, reads using it]
        self.waiting_reads: dict[tuple, asyncio.Future] = {}  # (room, key) -> read not begun
        self.askers: dict[asyncio.Future, list] = {}  # read -> its sockets' still_wanted

    async def run(self, room: int, key, still_wanted, func, *args):
        """`func(*args)` on a database thread in its turn, or the result of
        the read with the same `key` that waits for its turn now; raises
        Gone instead when nobody who asked still wants it by then."""
        read = self.waiting_reads.get((room, key))
        if read is None:
            read = asyncio.ensure_future(self._read(room, key, func, args))
            read.add_done_callback(_retrieved)
            self.waiting_reads[(room, key)] = read
            self.askers[read] = []
        self.askers[read].append(still_wanted)
        # Shielded: a socket that goes stops waiting; the read goes on for
        # the others, or skips its database work if nobody is left.
        return await asyncio.shield(read)

    async def _read(self, room: int, key, func, args):
        read = asyncio.current_task()
        entry = self.rooms.get(room)
        if entry is None:
            entry = self.rooms[room] = [
                asyncio.Semaphore(max(settings.LIVE_SNAPSHOTS_PER_ROOM, 1)),
                0,
            ]
        entry[1] += 1
        try:
            async with entry[0], self.worker:
                # Begun: a socket that asks from now on starts a read of its own.
                self.waiting_reads.pop((room, key), None)
                if not any(wanted() for wanted in self.askers[read]):
                    raise Gone()
                return await db.run(func, *args)
        finally:
            if self.waiting_reads.get((room, key)) is read:
                del self.waiting_reads[(room, key)]
            self.askers.pop(read, None)
            entry[1] -= 1
            if entry[1] == 0 and self.rooms.get(room) is entry:
                del self.rooms[room]


def _retrieved(read: asyncio.Future) -> None:
    """A read whose sockets all left raises to nobody: not worth a warning."""
    if not read.cancelled():
        read.exception()


_turns: dict[asyncio.AbstractEventLoop, Turns] = {}


def turns() -> Turns:
    loop = asyncio.get_running_loop()
    found = _turns.get(loop)
    if found is None:
        for old in [old for old in _turns if old.is_closed()]:
            del _turns[old]
        found = _turns[loop] = Turns()
    return found
