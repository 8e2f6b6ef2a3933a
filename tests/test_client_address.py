"""Which address a request comes from: X-Forwarded-For believed only from a
trusted proxy (settings.TRUSTED_PROXIES), read from the right; the setting's
parsing; and daphne's --proxy-headers held to the same rule by vtt.serve."""

import ipaddress

import pytest
from django.core.exceptions import ImproperlyConfigured
from twisted.web.http_headers import Headers

from tests.test_settings import load_settings, manage
from vtt.accounts.client_address import LOOPBACK, forwarded_client, trusted_proxies
from vtt.serve import forwarded_for_trusted_proxies

NGINX = "10.0.0.2"
STRANGER = "203.0.113.5"
PLAYER = "198.51.100.20"


def test_networks_and_single_addresses_are_read():
    assert trusted_proxies(" 10.0.0.0/8, 192.0.2.7 ,,fd00::/8, ::1") == (
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("192.0.2.7/32"),
        ipaddress.ip_network("fd00::/8"),
        ipaddress.ip_network("::1/128"),
    )
    # Host bits are forgiven: 10.1.2.3/8 is read as 10.0.0.0/8.
    assert trusted_proxies("10.1.2.3/8") == (ipaddress.ip_network("10.0.0.0/8"),)
    assert trusted_proxies("") == ()


@pytest.mark.parametrize("value", ["nginx", "10.0.0.0/33", "10.0.0.2:8000", "*", "10.0.0.0/8;"])
def test_anything_else_is_refused_by_name(value):
    with pytest.raises(ValueError, match="neither an address nor a network"):
        trusted_proxies(f"127.0.0.1,{value}")


def test_loopback_is_trusted_by_default(monkeypatch):
    s = load_settings(monkeypatch)
    assert s.TRUSTED_PROXIES == trusted_proxies(LOOPBACK)
    assert forwarded_client("127.0.0.1", STRANGER, s.TRUSTED_PROXIES) == STRANGER
    assert forwarded_client("::1", STRANGER, s.TRUSTED_PROXIES) == STRANGER
    assert forwarded_client(NGINX, STRANGER, s.TRUSTED_PROXIES) == NGINX


def test_the_setting_is_read_and_empty_trusts_nobody(monkeypatch):
    s = load_settings(monkeypatch, TRUSTED_PROXIES="10.0.0.2, fd00::/8")
    assert s.TRUSTED_PROXIES == trusted_proxies("10.0.0.2,fd00::/8")
    assert load_settings(monkeypatch, TRUSTED_PROXIES="").TRUSTED_PROXIES == ()


def test_a_bad_value_stops_the_start_with_its_name(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES: 'nginx' is neither"):
        load_settings(monkeypatch, TRUSTED_PROXIES="10.0.0.2,nginx")
    result = manage("check", TRUSTED_PROXIES="10.0.0.0/40")
    assert result.returncode != 0
    assert "TRUSTED_PROXIES: '10.0.0.0/40' is neither an address nor a network" in result.stderr


def test_the_count_of_proxies_is_refused_for_the_addresses(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="set TRUSTED_PROXIES"):
        load_settings(monkeypatch, TRUSTED_PROXY_COUNT="1")


PROXIES = trusted_proxies(f"{NGINX},10.8.0.0/16")


@pytest.mark.parametrize(
    ("peer", "header", "client"),
    [
        # Straight from a client: its header is its own word.
        (STRANGER, PLAYER, STRANGER),
        (STRANGER, "", STRANGER),
        # From the proxy: the address it saw.
        (NGINX, STRANGER, STRANGER),
        # The client's own entries are left of the proxy's.
        (NGINX, f"{PLAYER}, {STRANGER}", STRANGER),
        # Through a second trusted proxy, which appended what it saw.
        (NGINX, f"{PLAYER}, {STRANGER}, 10.8.3.4", STRANGER),
        # A trusted proxy that wrote no address: the last address known.
        (NGINX, "not an address", NGINX),
        (NGINX, f"{PLAYER}, junk, 10.8.3.4", "10.8.3.4"),
        (NGINX, "", NGINX),
        # Only proxies all the way: the farthest of them.
        (NGINX, "10.8.0.1, 10.8.0.2", "10.8.0.1"),
        # An IPv4 peer as a dual-stack socket reports it.
        (f"::ffff:{NGINX}", STRANGER, STRANGER),
        (f"::ffff:{STRANGER}", PLAYER, f"::ffff:{STRANGER}"),
        ("", PLAYER, ""),
        (NGINX, "2001:db8::7", "2001:db8::7"),
    ],
)
def test_the_client_is_the_first_entry_from_the_right_that_is_no_trusted_proxy(
    peer, header, client
):
    assert forwarded_client(peer, header, PROXIES) == client


# daphne's --proxy-headers, as vtt.serve installs it


def daphne_headers(**values) -> dict:
    """Headers as daphne's websocket protocol hands them over."""
    return {name.replace("_", "-").lower().encode(): v.encode() for name, v in values.items()}


def test_daphne_believes_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = PROXIES
    headers = daphne_headers(X_Forwarded_For=f"{PLAYER}, {STRANGER}", X_Forwarded_Proto="https")
    address, scheme = forwarded_for_trusted_proxies(
        headers, original_addr=[NGINX, 40000], original_scheme="http"
    )
    assert (address, scheme) == ([STRANGER, 0], "https")


def test_daphne_ignores_the_headers_of_anyone_else(settings):
    settings.TRUSTED_PROXIES = PROXIES
    headers = Headers({b"X-Forwarded-For": [PLAYER.encode()], b"X-Forwarded-Proto": [b"https"]})
    address, scheme = forwarded_for_trusted_proxies(
        headers, original_addr=[STRANGER, 40000], original_scheme="http"
    )
    assert (address, scheme) == ([STRANGER, 40000], "http")


def test_daphne_reads_every_line_of_the_header(settings):
    settings.TRUSTED_PROXIES = PROXIES
    headers = Headers({b"X-Forwarded-For": [PLAYER.encode(), STRANGER.encode()]})
    address, _ = forwarded_for_trusted_proxies(headers, original_addr=[NGINX, 40000])
    assert address == [STRANGER, 0]
    # No header from the proxy: the proxy's own address.
    address, _ = forwarded_for_trusted_proxies(Headers({}), original_addr=[NGINX, 40000])
    assert address == [NGINX, 40000]
