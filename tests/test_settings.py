"""Settings from the environment: each variable of docs/deploy.md changes what
it says, and the embedded defaults need nothing configured."""

import importlib.util
import os
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests import served

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_FILE = ROOT / "vtt" / "settings.py"
ENV_NAMES = (
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "DB_CONN_MAX_AGE",
    "DB_SERVER_SIDE_BINDING",
    "DB_POOL_SIZE",
    "TRUSTED_PROXIES",
    "TRUSTED_PROXY_COUNT",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_COOKIES",
    "MEDIA_ROOT",
    "S3_BUCKET",
    "S3_ENDPOINT_URL",
    "S3_REGION",
    "S3_ACCESS_KEY_ID",
    "S3_SECRET_ACCESS_KEY",
    "S3_CUSTOM_DOMAIN",
    "S3_LOCATION",
    "S3_QUERYSTRING_AUTH",
    "S3_DEFAULT_ACL",
)
PRODUCTION_KEY = "a-production-key-that-is-long-and-random-enough-0123456789"


def load_settings(monkeypatch, **env):
    """Execute vtt/settings.py afresh under `env` as a private module, leaving
    the settings of this test run alone."""
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_defaults_run_on_a_bare_machine(monkeypatch):
    s = load_settings(monkeypatch)
    assert s.DEBUG is True
    assert s.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s.DATABASES["default"]["NAME"] == str(ROOT / "db.sqlite3")
    assert s.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert {"127.0.0.1", "localhost"} <= set(s.ALLOWED_HOSTS)
    assert s.CSRF_TRUSTED_ORIGINS == []
    assert s.SECRET_KEY == s.DEV_SECRET_KEY


def test_database_url_selects_postgresql(monkeypatch):
    s = load_settings(monkeypatch, DATABASE_URL="postgres://vtt:s3cret@db.internal:5433/tabletop")
    db = s.DATABASES["default"]
    assert db["ENGINE"] == "vtt.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("tabletop", "vtt", "s3cret")
    assert (db["HOST"], db["PORT"]) == ("db.internal", 5433)
    assert db["CONN_MAX_AGE"] == 0
    assert db["OPTIONS"]["server_side_binding"] is True


def test_server_side_binding_can_be_turned_off(monkeypatch):
    s = load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c", DB_SERVER_SIDE_BINDING="0")
    assert s.DATABASES["default"]["OPTIONS"]["server_side_binding"] is False


def test_db_conn_max_age_is_read(monkeypatch):
    s = load_settings(
        monkeypatch, DATABASE_URL="postgres://a@b/c", DB_CONN_MAX_AGE="60", DB_POOL_SIZE="0"
    )
    assert s.DATABASES["default"]["CONN_MAX_AGE"] == 60


def test_postgresql_connections_come_from_a_bounded_pool(monkeypatch):
    db = load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c").DATABASES["default"]
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10}
    # Django gives a connection back to the pool only when it closes it.
    assert db["CONN_MAX_AGE"] == 0
    s = load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c", DB_POOL_SIZE="40")
    assert s.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] == 40
    s = load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c", DB_POOL_SIZE="1")
    assert s.DATABASES["default"]["OPTIONS"]["pool"]["min_size"] == 1
    s = load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c", DB_POOL_SIZE="0")
    assert "pool" not in s.DATABASES["default"]["OPTIONS"]


def test_sqlite_has_no_pool(monkeypatch):
    db = load_settings(monkeypatch, DB_POOL_SIZE="5").DATABASES["default"]
    assert "pool" not in db.get("OPTIONS", {})


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DB_CONN_MAX_AGE": "60"}, "DB_CONN_MAX_AGE keeps a connection per thread"),
        ({"DB_POOL_SIZE": "-1"}, "DB_POOL_SIZE must be 0 \\(no pool\\) or more"),
    ],
)
def test_a_pool_setting_that_cannot_work_stops_the_start(monkeypatch, env, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        load_settings(monkeypatch, DATABASE_URL="postgres://a@b/c", **env)


def test_redis_url_selects_the_redis_channel_layer(monkeypatch):
    s = load_settings(monkeypatch, REDIS_URL="redis://cache:6379/2")
    layer = s.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"].startswith("channels_redis.")
    assert layer["CONFIG"]["hosts"] == ["redis://cache:6379/2"]


def test_host_and_origin_lists_are_comma_separated(monkeypatch):
    s = load_settings(
        monkeypatch,
        ALLOWED_HOSTS=" vtt.example.org, .example.net ,,",
        CSRF_TRUSTED_ORIGINS="https://vtt.example.org,https://*.example.net",
    )
    assert s.ALLOWED_HOSTS == ["vtt.example.org", ".example.net"]
    assert s.CSRF_TRUSTED_ORIGINS == ["https://vtt.example.org", "https://*.example.net"]


@pytest.mark.parametrize(
    ("raw", "debug"),
    [("0", False), ("false", False), ("off", False), ("no", False),
     ("1", True), ("true", True), ("ON", True), ("", True)],
)  # fmt: skip
def test_debug_flag(monkeypatch, raw, debug):
    s = load_settings(monkeypatch, DEBUG=raw, SECRET_KEY=PRODUCTION_KEY)
    assert s.DEBUG is debug


def test_production_cookies_are_secure_unless_told_otherwise(monkeypatch):
    s = load_settings(monkeypatch, DEBUG="0", SECRET_KEY=PRODUCTION_KEY)
    assert s.SESSION_COOKIE_SECURE is True and s.CSRF_COOKIE_SECURE is True
    assert s.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert s.SECRET_KEY == PRODUCTION_KEY

    s = load_settings(monkeypatch, DEBUG="0", SECRET_KEY=PRODUCTION_KEY, SECURE_COOKIES="0")
    assert s.SESSION_COOKIE_SECURE is False and s.CSRF_COOKIE_SECURE is False


def test_media_root_is_read(monkeypatch, tmp_path):
    s = load_settings(monkeypatch, MEDIA_ROOT=str(tmp_path))
    assert s.MEDIA_ROOT == tmp_path


def test_development_key_is_refused_without_debug(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="0")


def manage(*args, **env):
    clean = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return served.python("manage.py", *args, env={**clean, **env})


def test_start_up_refuses_the_development_key_without_debug():
    result = manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "refusing to start with the development secret key" in result.stderr
    assert "Set SECRET_KEY" in result.stderr


def test_start_up_accepts_a_real_key_without_debug():
    result = manage("check", DEBUG="0", SECRET_KEY=PRODUCTION_KEY)
    assert result.returncode == 0, result.stderr


def test_media_stays_on_the_file_system_without_a_bucket(monkeypatch):
    s = load_settings(monkeypatch)
    assert s.STORAGES["default"]["BACKEND"] == "django.core.files.storage.FileSystemStorage"


def test_s3_bucket_selects_s3_storage(monkeypatch):
    s = load_settings(
        monkeypatch,
        S3_BUCKET="table-pictures",
        S3_ENDPOINT_URL="https://minio.internal:9000",
        S3_REGION="eu-west-1",
        S3_ACCESS_KEY_ID="AKIAEXAMPLE",
        S3_SECRET_ACCESS_KEY="not-a-real-secret",
    )
    default = s.STORAGES["default"]
    assert default["BACKEND"] == "storages.backends.s3.S3Storage"
    options = default["OPTIONS"]
    assert (options["bucket_name"], options["endpoint_url"]) == (
        "table-pictures",
        "https://minio.internal:9000",
    )
    assert options["querystring_auth"] is False and options["file_overwrite"] is False
    s3 = pytest.importorskip("storages.backends.s3")
    # The storage builds from these options alone and names public URLs
    # (no request leaves the machine to work one out).
    storage = s3.S3Storage(**options)
    assert storage.url("portraits/abc.webp") == (
        "https://minio.internal:9000/table-pictures/media/portraits/abc.webp"
    )
