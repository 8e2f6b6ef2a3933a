"""The address a request comes from. X-Forwarded-For is believed only from
a peer inside settings.TRUSTED_PROXIES (docs/deploy.md, "Trusted proxies"):
anyone can send that header, so from anyone else it is ignored and the
connection's own address is the answer. The log-in limits and the API's
throttles count clients by it, and `vtt.serve` holds daphne's
--proxy-headers to the same rule (`forwarded_client`)."""

import ipaddress
from collections.abc import Iterable

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOOPBACK = "127.0.0.0/8,::1"


def trusted_proxies(value: str) -> tuple[Network, ...]:
    """Comma-separated networks (`10.0.0.0/8`) or single addresses; a
    ValueError naming the entry for anything else."""
    networks = []
    for entry in (part.strip() for part in value.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"{entry!r} is neither an address nor a network such as 10.0.0.0/8"
            ) from None
    return tuple(networks)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _trusted(address: Address, proxies: Iterable[Network]) -> bool:
    return any(address in network for network in proxies)


def is_trusted(peer: str, proxies: Iterable[Network]) -> bool:
    """Whether a connection from `peer` comes from a trusted proxy."""
    address = _address(peer)
    return address is not None and _trusted(address, proxies)


def forwarded_client(peer: str, forwarded_for: str, proxies: Iterable[Network]) -> str:
    """The client of a connection from `peer` carrying `forwarded_for`.

    From a peer that is not a trusted proxy, the peer itself. From a trusted
    one, X-Forwarded-For read from the right: each proxy appends the address
    it saw, so the entries are passed over while they are trusted proxies
    too, and the first that is not is the client. Entries left of it came
    from the client and prove nothing. An entry that is no address stops the
    walk at the last address known."""
    proxies = tuple(proxies)
    if not is_trusted(peer, proxies):
        return peer
    client = _address(peer)
    for entry in reversed(forwarded_for.split(",")):
        address = _address(entry)
        if address is None:
            break
        client = address
        if not _trusted(address, proxies):
            break
    return str(client)


def client_address(request) -> str:
    return forwarded_client(
        request.META.get("REMOTE_ADDR") or "",
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        settings.TRUSTED_PROXIES,
    )
