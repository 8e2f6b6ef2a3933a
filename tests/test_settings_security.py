"""Production's https settings pass `check --deploy` with the environment
docker-compose.yml gives the workers, each can be turned from the
environment, and /healthz still answers plain http probes. The log-in
limits and the trusted proxy come from the environment too, and the
compose stack trusts exactly the one proxy it runs."""

import ipaddress
import os
import re

import pytest
import yaml

from tests import served
from tests.test_foundation_deploy import COMPOSE, NGINX, find, parse_nginx
from tests.test_settings import ENV_NAMES, PRODUCTION_KEY, ROOT, load_settings
from vtt.accounts.client_address import trusted_proxies

SECURITY_ENV_NAMES = (
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS",
    "LOGIN_FAILURES_PER_ADDRESS",
    "LOGIN_COOL_OFF_MINUTES",
    "TRUSTED_PROXIES",
    "TRUSTED_PROXY_COUNT",
)
ENV_EXAMPLE = ROOT / "deploy" / "env.example"


@pytest.fixture
def settings_under(monkeypatch):
    for name in SECURITY_ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    return lambda **env: load_settings(monkeypatch, **env)


def production(settings_under, **env):
    return settings_under(DEBUG="0", SECRET_KEY=PRODUCTION_KEY, **env)


def dotenv() -> dict[str, str]:
    """deploy/env.example as an operator fills it in."""
    pairs = re.findall(r"(?m)^([A-Z][A-Z0-9_]*)=(.*)$", ENV_EXAMPLE.read_text())
    return {**dict(pairs), "SECRET_KEY": PRODUCTION_KEY, "POSTGRES_PASSWORD": "s3cret"}


def compose_env(values: dict[str, str]) -> dict[str, str]:
    """The web workers' environment as compose builds it from `values`."""

    def one(match):
        name, default = match.group(1), match.group(3) or ""
        return values.get(name) or default

    workers = yaml.safe_load(COMPOSE.read_text())["x-web"]["environment"]
    return {
        key: re.sub(r"\$\{([A-Z0-9_]+)(:-([^}]*)|:\?[^}]*)?\}", one, str(value))
        for key, value in workers.items()
    }


def check_deploy(env: dict[str, str]):
    outside = {
        k: v
        for k, v in os.environ.items()
        if k not in ENV_NAMES + SECURITY_ENV_NAMES and k != "DJANGO_SETTINGS_MODULE"
    }
    return served.python(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING", env={**outside, **env}
    )


# Production over https


def test_the_compose_environment_passes_check_deploy():
    env = compose_env(dotenv())
    assert env["DEBUG"] == "0" and env["SECRET_KEY"] == PRODUCTION_KEY
    result = check_deploy(env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("env", "warning"),
    [
        ({"SECURE_SSL_REDIRECT": "0"}, "security.W008"),
        ({"SECURE_HSTS_SECONDS": "0"}, "security.W004"),
        ({"SECURE_HSTS_INCLUDE_SUBDOMAINS": "0"}, "security.W005"),
        ({"SECURE_COOKIES": "0"}, "security.W012"),
    ],
)
def test_check_deploy_notices_each_variable_turned_off(env, warning):
    result = check_deploy({**compose_env({**dotenv(), **env})})
    assert result.returncode != 0
    assert warning in result.stderr + result.stdout


def test_preloading_also_passes_check_deploy():
    result = check_deploy(compose_env({**dotenv(), "SECURE_HSTS_PRELOAD": "1"}))
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_defaults(settings_under):
    s = production(settings_under)
    assert s.SECURE_SSL_REDIRECT is True
    assert s.SECURE_HSTS_SECONDS == 30 * 24 * 3600
    assert s.SECURE_HSTS_INCLUDE_SUBDOMAINS is True
    assert s.SECURE_HSTS_PRELOAD is False
    # Not preloading is a decision, so its reminder is silenced, and only it.
    assert s.SILENCED_SYSTEM_CHECKS == ["security.W021"]
    assert s.SECURE_REDIRECT_EXEMPT == [r"^healthz$"]
    # An empty variable, as compose passes an unset one, is the default too.
    s = production(settings_under, SECURE_SSL_REDIRECT="", SECURE_HSTS_SECONDS="")
    assert s.SECURE_SSL_REDIRECT is True and s.SECURE_HSTS_SECONDS == 30 * 24 * 3600


@pytest.mark.parametrize(
    ("name", "raw", "setting", "value"),
    [
        ("SECURE_SSL_REDIRECT", "0", "SECURE_SSL_REDIRECT", False),
        ("SECURE_HSTS_SECONDS", "31536000", "SECURE_HSTS_SECONDS", 31536000),
        ("SECURE_HSTS_SECONDS", "0", "SECURE_HSTS_SECONDS", 0),
        ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "false", "SECURE_HSTS_INCLUDE_SUBDOMAINS", False),
        ("SECURE_HSTS_PRELOAD", "1", "SECURE_HSTS_PRELOAD", True),
        ("SECURE_COOKIES", "0", "SESSION_COOKIE_SECURE", False),
    ],
)
def test_each_production_variable_overrides(settings_under, name, raw, setting, value):
    assert getattr(production(settings_under, **{name: raw}), setting) == value


def test_preloading_keeps_every_check(settings_under):
    s = production(settings_under, SECURE_HSTS_PRELOAD="1")
    assert not getattr(s, "SILENCED_SYSTEM_CHECKS", [])


def test_development_neither_redirects_nor_sends_hsts(settings_under):
    s = settings_under(SECURE_SSL_REDIRECT="1", SECURE_HSTS_SECONDS="60")
    assert s.DEBUG is True
    assert not hasattr(s, "SECURE_SSL_REDIRECT") and not hasattr(s, "SECURE_HSTS_SECONDS")


@pytest.fixture
def https_only(settings, settings_under):
    s = production(settings_under)
    for name in ("SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER"):
        setattr(settings, name, getattr(s, name))
    settings.SECURE_HSTS_SECONDS = s.SECURE_HSTS_SECONDS
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = s.SECURE_HSTS_INCLUDE_SUBDOMAINS


@pytest.mark.django_db
def test_healthz_answers_plain_http_probes(client, https_only):
    # The worker's own healthcheck, and the proxy's through nginx.
    assert client.get("/healthz", HTTP_HOST="localhost").status_code == 200
    assert client.get("/healthz", HTTP_X_FORWARDED_PROTO="http").status_code == 200


@pytest.mark.django_db
def test_everything_else_is_redirected_to_https(client, https_only):
    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="http")
    assert page.status_code == 301
    assert page["Location"] == "https://testserver/accounts/login/"
    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert page.status_code == 200
    assert page["Strict-Transport-Security"] == "max-age=2592000; includeSubDomains"


# Log-in limits and the trusted proxy


def test_log_in_limits_defaults_and_overrides(settings_under):
    s = settings_under()
    assert (
        s.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
        s.LOGIN_FAILURES_PER_ADDRESS,
        s.LOGIN_COOL_OFF_MINUTES,
    ) == (5, 20, 15)
    s = settings_under(
        LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS="3",
        LOGIN_FAILURES_PER_ADDRESS="50",
        LOGIN_COOL_OFF_MINUTES="5",
    )
    assert (
        s.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
        s.LOGIN_FAILURES_PER_ADDRESS,
        s.LOGIN_COOL_OFF_MINUTES,
    ) == (3, 50, 5)


def test_no_proxy_but_loopback_is_trusted_unless_told(settings_under):
    s = settings_under()
    assert s.TRUSTED_PROXIES == trusted_proxies("127.0.0.0/8,::1")
    # DRF's own reading of X-Forwarded-For is not used: the throttles ask
    # vtt.accounts.client_address, as the log-in limits do.
    assert "NUM_PROXIES" not in s.REST_FRAMEWORK
    s = settings_under(TRUSTED_PROXIES="172.30.0.2")
    assert s.TRUSTED_PROXIES == trusted_proxies("172.30.0.2")


def test_the_limiter_checks_before_any_password(settings_under):
    backends = settings_under().AUTHENTICATION_BACKENDS
    assert backends[0] == "vtt.accounts.login_limits.LoginLimitBackend"
    assert "django.contrib.auth.backends.ModelBackend" in backends


def test_compose_trusts_the_one_proxy_that_sets_the_address():
    compose = yaml.safe_load(COMPOSE.read_text())
    proxy = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    (network,) = compose["networks"]["default"]["ipam"]["config"]
    # The proxy's address alone, fixed, and one no other container is given.
    assert compose_env(dotenv())["TRUSTED_PROXIES"] == proxy
    assert ipaddress.ip_address(proxy) in ipaddress.ip_network(network["subnet"])
    assert ipaddress.ip_address(proxy) not in ipaddress.ip_network(network["ip_range"])
    assert "TRUSTED_PROXY_COUNT" not in compose_env(dotenv())
    (server,) = find(parse_nginx(NGINX.read_text()), "server")
    headers = {args[0]: args[1] for _, args, _ in find(server[2], "proxy_set_header")}
    # Set, not appended to: nothing the client sent survives.
    assert headers["X-Forwarded-For"] == "$remote_addr"
    for location in find(server[2], "location"):
        inner = {args[0] for _, args, _ in find(location[2], "proxy_set_header")}
        assert "X-Forwarded-For" not in inner, location[1]
