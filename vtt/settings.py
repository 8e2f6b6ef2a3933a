"""Settings from the environment, with embedded defaults that run on a bare
machine: SQLite and the in-memory channel layer unless DATABASE_URL and
REDIS_URL say otherwise. See docs/deploy.md."""

import hashlib
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from vtt.accounts.client_address import LOOPBACK, trusted_proxies
from vtt.postgresql.pool import pool_options

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value is None or value == "" else int(value)


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Development is the default so `make run` works with nothing configured;
# production sets DEBUG=0, and then must bring its own SECRET_KEY.
DEBUG = env_bool("DEBUG", True)
DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is not set: refusing to start with the development "
        "secret key. Set SECRET_KEY to a long random value (see docs/deploy.md)."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "vtt.tabletop",
    "vtt.fog",
    "vtt.records",
    "vtt.accounts",
    "vtt.api",
    "vtt.web",
    "vtt.live",
    "vtt.combat",
    "vtt.demo",
    "vtt.maps",
    "vtt.markers",
    "vtt.handouts",
    "vtt.spectators",
    "vtt.areas",
    "vtt.drawings",
]

MIDDLEWARE = [
    "vtt.web.headers.SecurityHeadersMiddleware",  # CSP on every answer, static too
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "vtt.urls"
ASGI_APPLICATION = "vtt.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters go beside the statement instead of being quoted into it in
    # Python: a stored move takes about a tenth less CPU
    # (docs/benchmarks.md). Django's backend, with batches sized for the
    # parameters a statement can then carry (vtt/postgresql/base.py).
    # DB_SERVER_SIDE_BINDING=0 goes back to Django's default, quoting.
    DATABASES["default"]["ENGINE"] = "vtt.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = (
        os.environ.get("DB_SERVER_SIDE_BINDING", "1") != "0"
    )
    # At most this many connections a process: the rooms' 8 database threads
    # (vtt/live/db.py) and a dozen requests at once (vtt/postgresql/pool.py).
    DB_POOL_SIZE = env_int("DB_POOL_SIZE", 20)
    DATABASES["default"]["OPTIONS"].update(
        pool_options(DB_POOL_SIZE, DATABASES["default"]["CONN_MAX_AGE"])
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def redis_channel_layer(url: str, database_name) -> dict:
    """One Redis publish per broadcast whatever the room size; the room's
    event log and resync cover what pub/sub may drop (docs/realtime.md).
    Pub/sub channels are shared by the whole Redis server, whatever database
    number the URL names, so they are named after the site's database: two
    sites (or a site and its tests) on one Redis never hear each other's
    rooms, and the processes of one site always do. A digest of the name,
    since channel names allow only a few characters (an SQLite path has
    slashes) and at most 100 of them."""
    site = hashlib.blake2s(str(database_name).encode(), digest_size=6).hexdigest()
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [url], "prefix": f"vtt.{site}."},
    }


REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, DATABASES["default"]["NAME"])}
else:
    # One process: the rooms' hub holds the only channel, so a larger
    # capacity than the default 100 only matters when the loop stalls.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 10000},
        }
    }

# The live rooms' admission (docs/realtime.md, "Admission"): connects a
# second from one address (and the burst allowed), snapshots built at once
# per worker and per room, the seconds a socket may wait for its snapshot
# before /healthz says the worker cannot admit, and the size (bytes) from
# which a websocket message is refused with 1009.
LIVE_CONNECTS_PER_SECOND_PER_ADDRESS = env_int("LIVE_CONNECTS_PER_SECOND_PER_ADDRESS", 1)
LIVE_CONNECT_BURST_PER_ADDRESS = env_int("LIVE_CONNECT_BURST_PER_ADDRESS", 10)
LIVE_SNAPSHOTS_PER_WORKER = env_int("LIVE_SNAPSHOTS_PER_WORKER", 4)
LIVE_SNAPSHOTS_PER_ROOM = env_int("LIVE_SNAPSHOTS_PER_ROOM", 2)
LIVE_ADMISSION_STALL_SECONDS = env_int("LIVE_ADMISSION_STALL_SECONDS", 10)
WEBSOCKET_MESSAGE_LIMIT = env_int("WEBSOCKET_MESSAGE_LIMIT", 1024 * 1024)

# The log-in limiter comes first: it refuses a client over a limit before
# any password is checked (vtt/accounts/login_limits.py).
AUTHENTICATION_BACKENDS = [
    "vtt.accounts.login_limits.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Failed log-ins allowed within the cool-off, per account from one address
# and per address whatever the account (a household or a convention's wifi
# shares one); 0 turns a limit off. See docs/deploy.md, "Log-in limits".
LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = env_int("LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS", 5)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20)
LOGIN_COOL_OFF_MINUTES = env_int("LOGIN_COOL_OFF_MINUTES", 15)
# Per account from all addresses together: guessing spread over many
# addresses. Anyone can trip it, so its window (and so the lock) is short.
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 30)
LOGIN_ACCOUNT_COOL_OFF_MINUTES = env_int("LOGIN_ACCOUNT_COOL_OFF_MINUTES", 5)
# Wrong invite codes allowed within the cool-off, per user and per address
# (vtt/accounts/join_limits.py); 0 turns a limit off.
JOIN_FAILURES_PER_USER = env_int("JOIN_FAILURES_PER_USER", 10)
JOIN_FAILURES_PER_ADDRESS = env_int("JOIN_FAILURES_PER_ADDRESS", 20)
JOIN_COOL_OFF_MINUTES = env_int("JOIN_COOL_OFF_MINUTES", 15)

# Uploaded pictures (vtt/pictures/images.py): the bytes of any, then per
# kind the longest side and the pixels decoded, refused by the header before
# decoding; and how many are decoded at once per process (each may take up
# to about 100 MiB while it runs). See docs/security.md, "Uploaded pictures".
IMAGE_MAX_BYTES = env_int("IMAGE_MAX_BYTES", 10 * 1024 * 1024)
BACKGROUND_MAX_SIDE = env_int("BACKGROUND_MAX_SIDE", 8192)
BACKGROUND_MAX_PIXELS = env_int("BACKGROUND_MAX_PIXELS", 16_000_000)
PORTRAIT_MAX_SIDE = env_int("PORTRAIT_MAX_SIDE", 8192)
PORTRAIT_MAX_PIXELS = env_int("PORTRAIT_MAX_PIXELS", 12_000_000)
TOKEN_ART_MAX_SIDE = env_int("TOKEN_ART_MAX_SIDE", 8192)
TOKEN_ART_MAX_PIXELS = env_int("TOKEN_ART_MAX_PIXELS", 12_000_000)
IMAGE_WORK_AT_ONCE = env_int("IMAGE_WORK_AT_ONCE", 1)

# Map imports (docs/maps.md): what a Universal VTT file may hold. Its
# picture is bounded as any background is (IMAGE_MAX_BYTES and the
# BACKGROUND_* limits); a scene holds at most 2,000 walls once they are
# joined and simplified.
MAP_IMPORT_MAX_BYTES = env_int("MAP_IMPORT_MAX_BYTES", 32 * 1024 * 1024)
MAP_IMPORT_MAX_SEGMENTS = env_int("MAP_IMPORT_MAX_SEGMENTS", 50_000)
MAP_IMPORT_MAX_PORTALS = env_int("MAP_IMPORT_MAX_PORTALS", 1_000)
MAP_IMPORT_MAX_LIGHTS = env_int("MAP_IMPORT_MAX_LIGHTS", 500)
MAP_IMPORT_MAX_DEPTH = env_int("MAP_IMPORT_MAX_DEPTH", 8)

# Campaign imports (docs/backup.md, "Limits"): who may import ("staff";
# "gms", staff and anyone who GMs a campaign; "everyone"), how many uploads
# per user an hour (0: no limit), and what an archive may hold.
CAMPAIGN_IMPORT_BY = os.environ.get("CAMPAIGN_IMPORT_BY", "gms")
CAMPAIGN_IMPORTS_PER_HOUR = env_int("CAMPAIGN_IMPORTS_PER_HOUR", 6)
IMPORT_MAX_ARCHIVE_MB = env_int("IMPORT_MAX_ARCHIVE_MB", 200)
IMPORT_MAX_UNPACKED_MB = env_int("IMPORT_MAX_UNPACKED_MB", 400)
IMPORT_MAX_ROWS_MB = env_int("IMPORT_MAX_ROWS_MB", 64)
IMPORT_MAX_RATIO = env_int("IMPORT_MAX_RATIO", 100)

# The reverse proxies whose X-Forwarded-For is believed, by the address a
# request comes from: networks or addresses, comma-separated; empty, none.
# Anyone else's header is ignored and the connection's address is the
# client (vtt/accounts/client_address.py). docker-compose.yml names its nginx.
if os.environ.get("TRUSTED_PROXY_COUNT"):
    raise ImproperlyConfigured(
        "TRUSTED_PROXY_COUNT is no longer read: set TRUSTED_PROXIES to the addresses of "
        "the proxies in front of the workers instead (see docs/deploy.md)."
    )
try:
    TRUSTED_PROXIES = trusted_proxies(os.environ.get("TRUSTED_PROXIES", LOOPBACK))
except ValueError as error:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {error} (see docs/deploy.md)") from None

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))


def s3_storage(bucket: str) -> dict:
    """Uploaded pictures in an S3-compatible bucket (django-storages, the
    `s3` extra). Files get random names and public URLs by default: the
    room's event log keeps URLs, and a signed one would expire in it."""
    options = {
        "bucket_name": bucket,
        "endpoint_url": os.environ.get("S3_ENDPOINT_URL") or None,
        "region_name": os.environ.get("S3_REGION") or None,
        "access_key": os.environ.get("S3_ACCESS_KEY_ID") or None,
        "secret_key": os.environ.get("S3_SECRET_ACCESS_KEY") or None,
        "custom_domain": os.environ.get("S3_CUSTOM_DOMAIN") or None,
        "location": os.environ.get("S3_LOCATION", "media"),
        "querystring_auth": env_bool("S3_QUERYSTRING_AUTH", False),
        "default_acl": os.environ.get("S3_DEFAULT_ACL") or None,
        "file_overwrite": False,
    }
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}


if os.environ.get("S3_BUCKET"):
    STORAGES["default"] = s3_storage(os.environ["S3_BUCKET"])

# Where pictures are served from besides the site, for the CSP's img-src:
# by default the bucket's address when there is one. docs/deploy.md.
BUCKET_ORIGIN = ""
if os.environ.get("S3_BUCKET"):
    BUCKET_ORIGIN = (
        f"https://{os.environ['S3_CUSTOM_DOMAIN']}"
        if os.environ.get("S3_CUSTOM_DOMAIN")
        else os.environ.get("S3_ENDPOINT_URL") or "https://*.amazonaws.com"
    )
MEDIA_ORIGINS = env_list("MEDIA_ORIGINS", BUCKET_ORIGIN)

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

if not DEBUG:
    # Production is served over https by a TLS-terminating proxy that says
    # so in X-Forwarded-Proto (docs/deploy.md, "TLS").
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # The compose healthchecks probe the workers and the proxy over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # 30 days: longer than the gap between a group's sessions, short enough
    # that a host name taken off https recovers within a month.
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 2592000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Preloading is a promise to every browser, hard to take back, and the
    # header alone lets anyone submit the domain: the operator opts in.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # check --deploy asks whether preloading was considered; it was.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "adjudicate": os.environ.get("ADJUDICATE_THROTTLE", "600/minute"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "d6 virtual tabletop API",
    "DESCRIPTION": "Campaigns, characters, battle maps, tokens, rolls and the rules contract.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two choice sets share the field name `state`: each its own enum name.
    "ENUM_NAME_OVERRIDES": {
        "DoorStateEnum": ["open", "closed", "locked"],
        "SpectatorLinkStateEnum": ["open", "expired", "revoked"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
