"""daphne on uvloop: the command that serves the site.

    python -m vtt.serve -b 127.0.0.1 -p 8000 vtt.asgi:application

It takes daphne's own arguments. daphne makes its event loop the moment
`daphne.server` is imported, before any setting or application is read, so
the loop policy has to be chosen here, first. On asyncio's default loop,
Twisted registers and then drops a socket's writer through the pure-Python
selector for every frame it sends; a busy room spent about a sixth of its
process on that alone. uvloop does the same in C (docs/benchmarks.md,
"Live rooms: fan-out"). Where uvloop is not installed (Windows), daphne
runs on the default loop."""

import asyncio
import sys


def use_uvloop() -> bool:
    """Make every new event loop a uvloop one, if uvloop is installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main() -> None:
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne made its event loop before uvloop could be chosen")
    use_uvloop()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
