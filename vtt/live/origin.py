"""Which pages may open a room's socket: the site's own, by scheme, host and
port (docs/security.md, "Where a socket may come from").

A browser sends the page's origin with every websocket handshake and lets
any page open a socket to any site, cookies included, so the origin is the
only thing that tells the table's own page from another one. The site's
origin is the one the handshake came to: the Host header (one of
ALLOWED_HOSTS), with https when the socket is secure or the trusted proxy
says so (SECURE_PROXY_SSL_HEADER, as for Django's own requests). An origin
in CSRF_TRUSTED_ORIGINS is accepted too, as the forms accept it. Channels'
AllowedHostsOriginValidator compared the host alone, so a page on another
port of the same host (another program on the machine) could open a room."""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) origin, the default port filled
    in, or None for anything else (`null`, a file, garbage)."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def secure(scope) -> bool:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, expected = proxy
        # HTTP_X_FORWARDED_PROTO -> x-forwarded-proto
        said = header(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode())
        if said is not None:
            return said.split(",")[0].strip() == expected
    return scope.get("scheme") == "wss"


def site_origin(scope) -> tuple[str, str, int] | None:
    """The origin of the site this handshake came to, or None when its
    Host is missing or not one of ALLOWED_HOSTS."""
    host = header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return origin_of(f"{'https' if secure(scope) else 'http'}://{host}")


def trusted(origin: tuple[str, str, int]) -> bool:
    """In CSRF_TRUSTED_ORIGINS: the same scheme and port, and the host, or
    a subdomain where the entry says `*.`."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        allowed = origin_of(entry.replace("://*.", "://", 1))
        if allowed is None or allowed[0] != scheme or allowed[2] != port:
            continue
        pattern = f".{allowed[1]}" if wildcard else allowed[1]
        if is_same_domain(host, pattern):
            return True
    return False


def allowed_origin(scope) -> bool:
    sent = header(scope, b"origin")
    origin = origin_of(sent) if sent else None
    if origin is None:
        return False
    return origin == site_origin(scope) or trusted(origin)


class SameOriginValidator:
    """Refuses the handshake (403) of a socket opened from any page but the
    site's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not allowed_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
