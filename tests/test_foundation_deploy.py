"""The production stack of docker-compose.yml, deploy/nginx.conf and
deploy/Dockerfile. Docker may not run where the tests do, so these read the
files and check the wiring: services, websocket upgrades, environment,
healthchecks."""

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
NGINX = ROOT / "deploy" / "nginx.conf"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
SETTINGS = ROOT / "vtt" / "settings.py"
# daphne on uvloop: what every web worker runs.
SERVE = "python -m vtt.serve"


def settings_env_names() -> set[str]:
    """Every environment variable vtt/settings.py reads."""
    text = SETTINGS.read_text()
    return set(
        re.findall(r'os\.environ\.get\(\s*"([A-Z][A-Z0-9_]*)"', text)
        + re.findall(r'env_(?:bool|int|list)\(\s*"([A-Z][A-Z0-9_]*)"', text)
    )


def expand(value: str) -> str:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error}, with a stand-in
    for anything without a default."""

    def one(match):
        name, op, rest = match.group(1), match.group(2), match.group(3)
        return rest if op == ":-" else f"<{name}>"

    return re.sub(r"\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}", one, str(value))


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose):
    return compose["services"]


@pytest.fixture(scope="module")
def workers(services):
    found = {
        name: svc
        for name, svc in services.items()
        if SERVE in " ".join(map(str, svc.get("command") or []))
    }
    assert found, "no service runs daphne (python -m vtt.serve)"
    return found


# nginx.conf as a tree of (name, args, children) directives


def parse_nginx(text: str):
    text = re.sub(r"(?m)#.*$", "", text)
    tokens = re.findall(r'"[^"]*"|\'[^\']*\'|[{};]|[^\s{};]+', text)
    position = 0

    def block():
        nonlocal position
        directives, words = [], []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == ";":
                directives.append((words[0], words[1:], None))
                words = []
            elif token == "{":
                directives.append((words[0], words[1:], block()))
                words = []
            elif token == "}":
                assert not words, f"unterminated directive {words}"
                return directives
            else:
                words.append(token.strip("\"'"))
        assert not words, f"unterminated directive {words}"
        return directives

    return block()


def find(directives, name):
    return [d for d in directives if d[0] == name]


def seconds(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()
    return int(number) * {None: 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "ms": 0}[unit]


@pytest.fixture(scope="module")
def nginx():
    return parse_nginx(NGINX.read_text())


@pytest.fixture(scope="module")
def proxied_locations(nginx):
    (server,) = find(nginx, "server")
    server_level = server[2]
    locations = []
    for location in find(server_level, "location"):
        inner = location[2]
        if not find(inner, "proxy_pass"):
            continue

        def effective(name, inner=inner):
            # nginx inherits a directive only if the location sets none of it.
            return find(inner, name) or find(server_level, name)

        locations.append((location[1][-1], inner, effective))
    assert locations, "no location proxies to the workers"
    return locations


# The stack


def test_compose_runs_the_whole_stack(services, workers):
    assert {"db", "redis", "proxy"} <= set(services)
    assert len(workers) >= 2, "two daphne workers behind the proxy"
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_workers_are_built_from_the_repository_dockerfile(workers):
    for name, worker in workers.items():
        build = worker["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE, name
        command = worker["command"]
        assert "vtt.asgi:application" in command
        assert command[command.index("--bind") + 1] == "0.0.0.0"


def test_workers_are_wired_to_postgres_redis_and_production_settings(services, workers):
    for name, worker in workers.items():
        env = {key: expand(value) for key, value in worker["environment"].items()}
        assert env["DEBUG"] == "0", name
        assert worker["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?"), (
            "the key comes from the operator, never from the file"
        )
        database = urlsplit(env["DATABASE_URL"])
        assert database.scheme in {"postgres", "postgresql"}
        assert (
            database.hostname == "db"
            and database.path == "/" + (services["db"]["environment"]["POSTGRES_DB"])
        )
        assert database.username == services["db"]["environment"]["POSTGRES_USER"]
        redis = urlsplit(env["REDIS_URL"])
        assert (redis.scheme, redis.hostname) == ("redis", "redis")
        # The healthchecks call with Host: localhost and 127.0.0.1.
        assert {"localhost", "127.0.0.1"} <= set(env["ALLOWED_HOSTS"].split(","))
        assert env["CSRF_TRUSTED_ORIGINS"].startswith("https://")
        unknown = set(env) - settings_env_names()
        assert not unknown, f"{name} sets variables the settings never read: {unknown}"


def test_workers_start_after_their_services_and_migrations(services, workers):
    for name, worker in workers.items():
        needs = worker["depends_on"]
        assert needs["db"]["condition"] == "service_healthy", name
        assert needs["redis"]["condition"] == "service_healthy", name
        assert needs["migrate"]["condition"] == "service_completed_successfully", name
    migrate = services["migrate"]
    assert migrate["command"][-3:] == ["manage.py", "migrate", "--noinput"]
    assert "migrate" not in migrate.get("depends_on", {})
    assert (
        migrate["environment"]["DATABASE_URL"]
        == next(iter(workers.values()))["environment"]["DATABASE_URL"]
    )


def test_every_long_running_service_has_a_healthcheck(services, workers):
    for name in ("db", "redis", "proxy", *workers):
        check = services[name].get("healthcheck", {})
        assert check.get("test") and not check.get("disable"), name
    for name in ("proxy", *workers):
        assert "/healthz" in " ".join(services[name]["healthcheck"]["test"]), name
    for name in workers:
        assert services["proxy"]["depends_on"][name]["condition"] == "service_healthy"


def test_proxy_mounts_its_config_and_the_shared_media(services, workers):
    proxy = services["proxy"]
    mounts = dict(volume.split(":", 1) for volume in proxy["volumes"])
    assert mounts["./deploy/nginx.conf"].startswith("/etc/nginx/conf.d/")
    assert proxy["ports"], "the proxy is the one published port"
    for name, worker in workers.items():
        assert "ports" not in worker, f"{name} is reached through the proxy only"
        worker_media = {v.split(":")[0]: v.split(":")[1] for v in worker["volumes"]}
        assert worker_media["media"] == expand(worker["environment"]["MEDIA_ROOT"])
    assert mounts["media"].split(":")[0] == "/srv/media"


# The proxy


def upstreams(nginx) -> dict:
    """Each upstream's name -> its directives."""
    return {args[0]: inner for _, args, inner in find(nginx, "upstream")}


def upstream_of(effective) -> str:
    (proxy_pass,) = effective("proxy_pass")
    return proxy_pass[1][0].removeprefix("http://")


def test_every_upstream_balances_across_every_worker(nginx, workers):
    assert upstreams(nginx), "no upstream"
    for name, inner in upstreams(nginx).items():
        servers = {args[0] for _, args, _ in find(inner, "server")}
        assert servers == {f"{worker}:8000" for worker in workers}, name


def test_a_rooms_sockets_share_a_worker_and_pages_go_to_the_least_busy(nginx, proxied_locations):
    """A room's websockets are hashed by their path (not its ?since= query),
    consistently, so the room's broadcasts stay in one process; pages and
    the API go to the worker with the fewest connections."""
    balancing = {
        name: [d for d in inner if d[0] in ("hash", "least_conn", "ip_hash", "random")]
        for name, inner in upstreams(nginx).items()
    }
    for path, _inner, effective in proxied_locations:
        (method,) = balancing[upstream_of(effective)]
        if path == "/ws/":
            assert method[:2] == ("hash", ["$uri", "consistent"]), method
        else:
            assert method[:2] == ("least_conn", []), (path, method)


def test_every_proxied_location_passes_websocket_upgrades(nginx, proxied_locations):
    (upgrade_map,) = [
        m for m in find(nginx, "map") if m[1] == ["$http_upgrade", "$connection_upgrade"]
    ]
    assert ("default", ["upgrade"], None) in upgrade_map[2]
    for path, _inner, effective in proxied_locations:
        assert upstream_of(effective) in upstreams(nginx), path
        assert effective("proxy_http_version")[0][1] == ["1.1"], path
        headers = {args[0]: args[1] for _, args, _ in effective("proxy_set_header")}
        assert headers["Upgrade"] == "$http_upgrade", path
        assert headers["Connection"] == "$connection_upgrade", path
        # Settings trust X-Forwarded-Proto when DEBUG is off; Host keeps the port.
        assert headers["X-Forwarded-Proto"] == "$scheme", path
        assert headers["Host"] == "$http_host", path


def test_websocket_routes_get_long_timeouts(proxied_locations):
    from vtt.live.routing import websocket_urlpatterns

    (websockets,) = [loc for loc in proxied_locations if loc[0] == "/ws/"]
    _path, _inner, effective = websockets
    assert seconds(effective("proxy_read_timeout")[0][1][0]) >= 3600
    assert seconds(effective("proxy_send_timeout")[0][1][0]) >= 3600
    assert websocket_urlpatterns
    for route in websocket_urlpatterns:
        assert str(route.pattern).startswith("ws/"), f"{route.pattern} misses the /ws/ location"


def test_media_is_served_from_the_shared_volume(nginx):
    (server,) = find(nginx, "server")
    (media,) = [loc for loc in find(server[2], "location") if loc[1] == ["/media/"]]
    assert find(media[2], "alias")[0][1] == ["/srv/media/"]


def test_archives_waiting_to_be_imported_are_never_served(nginx):
    (server,) = find(nginx, "server")
    (pending,) = [loc for loc in find(server[2], "location") if loc[1] == ["/media/imports/"]]
    assert find(pending[2], "return")[0][1] == ["404"]


def test_parser_reads_what_nginx_reads():
    tree = parse_nginx("a b; # c;\nblock x { inner 'q r'; }")
    assert tree == [("a", ["b"], None), ("block", ["x"], [("inner", ["q r"], None)])]


# The image


def test_dockerfile_builds_a_slim_image_with_static_files_collected():
    lines = [
        line.strip()
        for line in DOCKERFILE.read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    assert lines[0] == "FROM python:3.11-slim"
    runs = [line for line in lines if line.startswith("RUN ")]
    assert any(re.search(r"\bpip install \.$", run) for run in runs)
    assert any("manage.py collectstatic --noinput" in run for run in runs)
    assert "ENV" in " ".join(lines) and "DEBUG=0" in " ".join(lines)
    cmd = next(line for line in lines if line.startswith("CMD "))
    assert '"-m", "vtt.serve"' in cmd and "vtt.asgi:application" in cmd
    assert any(line.startswith("HEALTHCHECK") and "/healthz" in line for line in lines)
    assert any(line.startswith("USER ") for line in lines), "the server does not run as root"


def test_image_leaves_local_state_out():
    ignored = set((ROOT / "deploy" / "Dockerfile.dockerignore").read_text().split())
    assert {".git", ".venv", "db.sqlite3", "staticfiles", "media"} <= ignored


# The documentation


def test_deploy_doc_explains_every_setting():
    text = DEPLOY_DOC.read_text()
    missing = {name for name in settings_env_names() if f"`{name}`" not in text}
    assert not missing, f"vtt/settings.py reads {missing}: add them to docs/deploy.md"


def test_env_example_names_what_compose_demands(compose):
    required = set(re.findall(r"\$\{([A-Z0-9_]+):\?", COMPOSE.read_text()))
    example = (ROOT / "deploy" / "env.example").read_text()
    assert required
    for name in required:
        assert re.search(rf"(?m)^{name}=", example), name
