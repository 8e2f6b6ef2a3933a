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
eager (`tune_collector`), and holds daphne's --proxy-headers to the site's
trusted proxies (`trust_only_proxies`)."""

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


def _header(headers, name: str) -> str:
    """Every value of header `name`, joined as Django joins them."""
    if not isinstance(headers, dict):  # twisted's Headers
        headers = dict(headers.getAllRawHeaders())
    wanted = name.lower().encode()
    found = []
    for key, values in headers.items():
        if key.lower() == wanted:
            found += values if isinstance(values, list) else [values]
    return ",".join(value.decode("latin-1") for value in found)


def forwarded_for_trusted_proxies(
    headers,
    address_header_name="X-Forwarded-For",
    port_header_name="X-Forwarded-Port",
    proto_header_name="X-Forwarded-Proto",
    original_addr=None,
    original_scheme=None,
):
    """daphne's reading of the proxy headers (its `parse_x_forwarded_for`),
    for a peer among settings.TRUSTED_PROXIES only, and with the client then
    found as everywhere else: the first untrusted entry from the right, not
    the leftmost, which is whatever the client wrote."""
    from daphne.utils import parse_x_forwarded_for
    from django.conf import settings

    from vtt.accounts.client_address import forwarded_client, is_trusted

    proxies = settings.TRUSTED_PROXIES
    peer = str(original_addr[0]) if original_addr else ""
    if not is_trusted(peer, proxies):
        return original_addr, original_scheme
    address, scheme = parse_x_forwarded_for(
        headers,
        address_header_name,
        port_header_name,
        proto_header_name,
        original_addr,
        original_scheme,
    )
    if address is original_addr:  # no X-Forwarded-For
        return address, scheme
    client = forwarded_client(peer, _header(headers, address_header_name), proxies)
    return [client, address[1]], scheme


def trust_only_proxies() -> None:
    """Make daphne's --proxy-headers believe a trusted proxy only. daphne
    takes the first X-Forwarded-For entry from any peer, so a client that
    reached a worker directly chose its own address."""
    from daphne import http_protocol, ws_protocol

    for module in (http_protocol, ws_protocol):
        if not hasattr(module, "parse_x_forwarded_for"):
            raise RuntimeError(
                f"{module.__name__} no longer reads the proxy headers with "
                "parse_x_forwarded_for: --proxy-headers cannot be held to TRUSTED_PROXIES"
            )
        module.parse_x_forwarded_for = forwarded_for_trusted_proxies


def main(before_serving=None) -> None:
    """Serve; `before_serving`, when given, runs once the loop is chosen and
    before daphne starts (a test site's seed, tests/browser/seeded_serve.py)."""
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne made its event loop before uvloop could be chosen")
    use_uvloop()
    tune_collector()
    if before_serving is not None:
        before_serving()
    from daphne.cli import CommandLineInterface

    trust_only_proxies()
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
