"""Per-connection limits: how fast a client may send intents, and how much
garbage it may send before it is shown the door (docs/protocol.md, Limits)."""

import threading
import time
from collections import OrderedDict

INTENT_RATE = 20.0  # intents per second, sustained
INTENT_BURST = 40
DRAG_RATE = 20.0  # drag previews a second leaving one connection
DRAG_BURST = 2  # absorbs network jitter without drifting behind the sender
PING_RATE = 1.0  # a member's pings a second, sustained (vtt.live.pings)
PING_BURST = 4
STROKE_RATE = 25.0  # a member's stroke previews a second (one each ~50 ms, and jitter)
STROKE_BURST = 20  # a second of strokes: a page's timer jitters under load
STROKE_SEND_RATE = 10.0  # a member's stroke previews a second leaving their socket
GARBAGE_ALLOWANCE = 20  # malformed frames before the connection is closed
GARBAGE_REFILL = 0.5  # forgiven per second
REFUSED_COST = 0.5  # a rate-limited intent counts as half a malformed frame


class TokenBucket:
    """Holds up to `burst` tokens, refilled at `rate` per second."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are that many; say whether it could."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until `cost` tokens are there (after a failed take)."""
        return max(0.0, (cost - self.tokens) / self.rate)


class MemberBuckets:
    """One TokenBucket per member of a room in this process, shared by the
    member's sockets (pings, stroke previews); past `most`, the longest idle
    are forgotten."""

    def __init__(self, rate: float, burst: float, most: int = 10_000):
        self.rate, self.burst, self.most = rate, burst, most
        self._buckets: OrderedDict[tuple[int, int], TokenBucket] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, room: int, user_id: int) -> TokenBucket:
        key = (room, user_id)
        with self._lock:
            bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
            self._buckets[key] = bucket
            while len(self._buckets) > self.most:
                self._buckets.popitem(last=False)
            return bucket

    def clear(self) -> None:
        """Forget every member's bucket (a test's fresh database reuses ids)."""
        with self._lock:
            self._buckets.clear()


class ConnectionLimits:
    """The two buckets of one connection."""

    def __init__(self, clock=time.monotonic):
        self.intents = TokenBucket(INTENT_RATE, INTENT_BURST, clock)
        self.garbage = TokenBucket(GARBAGE_REFILL, GARBAGE_ALLOWANCE, clock)

    def allow_intent(self) -> bool:
        return self.intents.take()

    def forgive_garbage(self, cost: float = 1.0) -> bool:
        """Count one bad frame; False when the allowance is used up."""
        return self.garbage.take(cost)
