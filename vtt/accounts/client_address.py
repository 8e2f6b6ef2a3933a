"""The address a request comes from, believing a proxy's X-Forwarded-For
only when settings.TRUSTED_PROXY_COUNT says how many proxies stand in front
of the workers (docs/deploy.md, "Trusted proxies"). Anyone can send that
header, so with no trusted proxy it is ignored and REMOTE_ADDR is the answer."""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    remote = request.META.get("REMOTE_ADDR") or ""
    hops = settings.TRUSTED_PROXY_COUNT
    if hops < 1:
        return remote
    return forwarded_address(request.META.get("HTTP_X_FORWARDED_FOR", ""), hops) or remote


def forwarded_address(header: str, hops: int) -> str | None:
    """The entry written by the farthest trusted proxy: each proxy appends
    the address it saw, so that is the `hops`-th from the right; entries
    left of it came from the client and prove nothing. None when the header
    is shorter (the request did not come through the proxies) or that entry
    is not an address."""
    entries = [entry.strip() for entry in header.split(",")] if header.strip() else []
    if len(entries) < hops:
        return None
    try:
        return str(ipaddress.ip_address(entries[-hops]))
    except ValueError:
        return None
