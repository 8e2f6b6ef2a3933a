"""A room's socket opens only from the site's own pages: the Origin must be
the handshake's own scheme, host and port (vtt/live/origin.py)."""

import pytest
from channels.testing import WebsocketCommunicator

from .conftest import application

pytestmark = pytest.mark.django_db(transaction=True)


async def handshake(room, headers: dict[str, str]) -> bool:
    """Whether a GM's socket with these headers is let in."""
    raw = [(name.encode(), value.encode()) for name, value in headers.items()]
    raw.append((b"cookie", f"sessionid={room.cookies['gm']}".encode()))
    communicator = WebsocketCommunicator(
        application(), f"/ws/campaigns/{room.campaign_id}/", headers=raw
    )
    connected, _ = await communicator.connect(3)
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize(
    "host, origin",
    [
        ("testserver", "http://testserver"),
        ("testserver", "http://testserver:80"),
        ("testserver", "HTTP://TestServer"),
        ("localhost:8000", "http://localhost:8000"),
        ("[::1]:8000", "http://[::1]:8000"),
    ],
)
async def test_the_sites_own_origin_is_let_in(room, host, origin):
    assert await handshake(room, {"host": host, "origin": origin})


@pytest.mark.parametrize(
    "host, origin",
    [
        # Another port of the same host: another program on the machine.
        ("localhost:8000", "http://localhost:9999"),
        ("localhost:8000", "http://localhost"),
        ("testserver", "http://testserver:9999"),
        # Another scheme.
        ("testserver", "https://testserver"),
        ("localhost:8000", "https://localhost:8000"),
        # Another host, one of ALLOWED_HOSTS too.
        ("localhost:8000", "http://127.0.0.1:8000"),
        ("testserver", "http://evil.example"),
        ("testserver", "null"),
        ("testserver", "file://testserver"),
        ("testserver", "http://testserver:notaport"),
        # The Host is not one of ALLOWED_HOSTS: its origin proves nothing.
        ("evil.example", "http://evil.example"),
        ("", "http://testserver"),
    ],
)
async def test_any_other_origin_is_refused(room, host, origin):
    assert not await handshake(room, {"host": host, "origin": origin})


async def test_no_host_is_refused(room):
    assert not await handshake(room, {"origin": "http://testserver"})


async def test_behind_the_trusted_proxy_the_origin_is_https(room, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = {"host": "testserver", "x-forwarded-proto": "https"}
    assert await handshake(room, {**proxied, "origin": "https://testserver"})
    assert not await handshake(room, {**proxied, "origin": "http://testserver"})
    assert not await handshake(room, {**proxied, "origin": "https://testserver:8443"})
    # Without the header the socket is plain, whatever the setting.
    assert await handshake(room, {"host": "testserver", "origin": "http://testserver"})


async def test_a_trusted_origin_is_let_in_by_scheme_host_and_port(room, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://table.example", "https://*.games.example:8443"]
    host = {"host": "testserver"}
    assert await handshake(room, {**host, "origin": "https://table.example"})
    assert await handshake(room, {**host, "origin": "https://table.example:443"})
    assert await handshake(room, {**host, "origin": "https://eu.games.example:8443"})
    assert not await handshake(room, {**host, "origin": "https://table.example:444"})
    assert not await handshake(room, {**host, "origin": "http://table.example"})
    assert not await handshake(room, {**host, "origin": "https://eu.games.example"})
    assert not await handshake(room, {**host, "origin": "https://evil-table.example"})
