"""daphne on uvloop: the command that serves the site.

    python -m vtt.serve -b 127.0.0.1 -p 8000 vtt.asgi:application

It takes daphne's own arguments. daphne makes its event loop the moment
`daphne.server` is imported, before any setting or application is read, so
the loop policy has to be chosen here, first. On asyncio's default loop,
Twisted registers and then drops a socket's writer through the pure-Python
selector for every frame it sends; a busy room spent about a sixth of its
process on that alone. uvloop does the same in C (docs/benchmarks.md,
"Live rooms: fan-out"). Where uvloop is not installed (Windows), daphne
runs on the default loop.

It also makes the garbage collector's middle generation ten times less
eager (`tune_collector`)."""

import asyncio
import gc
import sys

# Young collections as Python's default (every 700 allocations), the middle
# generation collected after 100 of them instead of 10.
COLLECTOR_THRESHOLDS = (700, 100, 10)


def use_uvloop() -> bool:
    """Make every new event loop a uvloop one, if uvloop is installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def tune_collector() -> None:
    """Keep what lives for milliseconds out of the oldest generation.

    A busy server allocates so fast that Python's default thresholds move
    into the oldest generation every object that lives a few milliseconds:
    a frame on its way, an intent being written. Those promotions are what
    trigger a full collection, and a full collection walks every object of
    every socket (some 250,000 at 600 sockets): 100 to 140 ms with the whole
    process stopped, every few seconds, which was the tail of the live
    rooms' deliveries. Collecting the middle generation less often gives
    such objects the time to die there, for middle collections of a few to
    some 30 ms instead (docs/benchmarks.md, "Table night")."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def main() -> None:
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne made its event loop before uvloop could be chosen")
    use_uvloop()
    tune_collector()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
