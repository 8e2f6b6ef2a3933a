"""Fan-out of one live room: N clients, S of them moving tokens at R moves a
second each; every delivery of every move to every client is timed.

    .venv/bin/python bench/ws_fanout.py                 # every target, 3 runs, markdown
    .venv/bin/python bench/ws_fanout.py --runs 1 --targets reference,redis1

Targets (each served by its own processes; this script is the load client):

- reference: a plain `websockets` broadcast server, no Django (uvloop when
  installed): what the machine can fan out at all.
- memory:    one daphne process, in-memory channel layer.
- redis1:    one daphne process, Redis pub/sub channel layer.
- redis2:    two daphne processes on two ports sharing Redis; clients and
  senders split between them.

The daphne processes are started as the site is, `python -m vtt.serve`
(daphne on uvloop); `--plain-daphne` starts daphne's own command instead,
on asyncio's default loop, to compare.

Every Django target uses PostgreSQL (DATABASE_URL, default a `vtt_bench`
database on the local server, created and migrated here) and the real room:
session log-in, membership, token.move intents through the token service
(row lock, version, event log), rendering per visibility class.

Latency of a delivery: from the moment the sender wrote the intent to the
moment a client read the event announcing it (senders receive their own
events too, as in the room). Loss: deliveries expected (moves the server
acknowledged x clients) minus deliveries seen. Scenarios:

- room50:  50 clients, 5 senders at 20 moves/s (target p99 < 50 ms, no loss)
- room200: 200 clients, 5 senders at 5 moves/s (target p99 < 100 ms, no loss)
- saturation at 50 clients: senders added 5 at a time, 20 moves/s each,
  until p99 passes 100 ms or a delivery is lost; reported is the highest
  deliveries/s that met both.

Loopback only; every phase is bounded in time."""

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vtt_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
MAP_SIDE = 100
WARMUP = 1.0
MEASURE = 4.0
DRAIN = 1.5
MAX_DRAIN = 15.0
SATURATION_STEPS = (5, 10, 15, 20, 30, 40, 50)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def use_uvloop() -> str:
    try:
        import uvloop
    except ImportError:
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


# ---------------------------------------------------------------- the reference server


async def serve_reference(port: int) -> None:
    import websockets
    from websockets.asyncio.server import serve

    clients = set()

    async def handler(ws):
        clients.add(ws)
        try:
            async for message in ws:
                websockets.broadcast(clients, message)
        finally:
            clients.discard(ws)

    async with serve(handler, "127.0.0.1", port, compression=None, max_queue=None):
        await asyncio.Future()


# ---------------------------------------------------------------- the Django side


def django_env(database_url: str, redis_url: str | None) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "vtt.settings"}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    env["PYTHONPATH"] = str(ROOT)
    env["LOG_LEVEL"] = "ERROR"
    # As a deployment runs: DEBUG off, persistent database connections.
    env.update(DEBUG="0", SECRET_KEY="bench-only-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1,localhost")
    env.setdefault("DB_CONN_MAX_AGE", "60")
    return env


def prepare_database(database_url: str) -> None:
    """Create the bench database if need be and migrate it."""
    import psycopg

    base, _, query = database_url.partition("?")
    name = base.rsplit("/", 1)[1]
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=django_env(database_url, None),
        check=True,
    )


@dataclass
class Table:
    campaign_id: int
    cookies: list  # one session cookie per client
    tokens: list  # token ids, one per possible sender (client i moves tokens[i])


def build_table(database_url: str, clients: int, senders: int) -> Table:
    """A campaign with a GM and `clients - 1` players, and one token per sender."""
    os.environ.update(django_env(database_url, None))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from vtt.tabletop.models import Membership, Role
    from vtt.tabletop.services import (
        campaign_create,
        scene_activate,
        scene_create,
        token_create,
    )

    User = get_user_model()
    stamp = time.strftime("%H%M%S") + f"{time.time_ns() % 1000:03d}"
    users = [User.objects.create_user(f"bench-{stamp}-{i}") for i in range(clients)]
    gm = users[0]
    campaign = campaign_create(owner=gm, name=f"Bench {stamp}", game="artifice")
    Membership.objects.bulk_create(
        [Membership(campaign=campaign, user=u, role=Role.PLAYER) for u in users[1:]]
    )
    scene = scene_create(
        campaign_id=campaign.pk, by=gm, name="Field", width=MAP_SIDE, height=MAP_SIDE
    )
    scene_activate(scene_id=scene.pk, by=gm)
    tokens = [
        token_create(
            scene_id=scene.pk,
            by=gm,
            name=f"T{i}",
            x=0,
            y=i % MAP_SIDE,
            controllers=[users[i].pk] if i else [],
        ).pk
        for i in range(senders)
    ]
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies["sessionid"].value)
    return Table(campaign.pk, cookies, tokens)


# How the Django targets are served: as the site is (daphne on uvloop), or
# with --plain-daphne by daphne's own command, on asyncio's default loop.
SERVE = [sys.executable, "-m", "vtt.serve"]
PLAIN_DAPHNE = [str(Path(sys.executable).with_name("daphne"))]
server_command = SERVE


def start_daphne(port: int, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *server_command,
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "vtt.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_for_http(port: int, path: str = "/healthz", timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered on port {port}")


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def stop(processes) -> None:
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


# ---------------------------------------------------------------- the load


@dataclass
class Tally:
    sent_at: dict = field(default_factory=dict)  # move key -> (send time, measured?)
    measured: set = field(default_factory=set)  # ids of the moves sent while measuring
    acked: set = field(default_factory=set)
    latencies: list = field(default_factory=list)
    delivered: int = 0
    refused: int = 0
    closed_early: int = 0  # sockets the server closed (e.g. 4408, too slow)
    closing: bool = False
    measuring: bool = False

    def arrived(self, key, now) -> None:
        sent = self.sent_at.get(key)
        if sent is not None and sent[1]:
            self.latencies.append(now - sent[0])
            self.delivered += 1

    def ended(self) -> None:
        if not self.closing:
            self.closed_early += 1


async def open_client(url: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    return await connect(
        url,
        origin=origin,
        additional_headers=headers,
        compression=None,
        max_queue=None,
        open_timeout=30,
        ping_interval=None,
    )


async def read_django(ws, tally: Tally) -> None:
    loads, clock = json.loads, time.monotonic
    try:
        async for text in ws:
            now = clock()
            frame = loads(text)
            kind = frame["type"]
            if kind == "event":
                event = frame["event"]
                if event["type"] != "token.moved":
                    continue
                token = event["data"]["token"]
                tally.arrived((token["id"], token["x"], token["y"]), now)
            elif kind == "token.drag":
                tally.arrived((frame["token"], frame["x"], frame["y"]), now)
            elif kind == "ack" and frame.get("intent") == "token.move":
                tally.acked.add(frame["id"])
            elif kind == "error":
                tally.refused += 1
    except Exception:
        pass
    finally:
        tally.ended()


async def read_reference(ws, tally: Tally) -> None:
    loads, clock = json.loads, time.monotonic
    try:
        async for text in ws:
            now = clock()
            frame = loads(text)
            tally.arrived((frame["token"], frame["x"], frame["y"]), now)
    except Exception:
        pass
    finally:
        tally.ended()


async def send_moves(
    ws, token: int, rate: float, until: float, tally: Tally, index: int, reference: bool, kind: str
) -> int:
    """Open loop: a move every 1/rate seconds whatever the answers."""
    loop = asyncio.get_running_loop()
    interval = 1.0 / rate
    step = 0
    next_at = loop.time() + (index % 10) * interval / 10  # spread senders over the interval
    sent = 0
    while True:
        delay = next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        if loop.time() >= until:
            return sent
        step += 1
        x, y = 1 + step % (MAP_SIDE - 1), step // (MAP_SIDE - 1) % MAP_SIDE
        move_id = f"{token}:{step}"
        frame = {"token": token, "x": x, "y": y}
        if reference:
            frame["id"] = move_id
        elif kind == "drag":
            frame["type"] = "token.drag"  # relayed, never stored, never acknowledged
        else:
            frame.update(type="token.move", id=move_id)
        measuring = tally.measuring
        tally.sent_at[(token, x, y)] = (time.monotonic(), measuring)
        await ws.send(json.dumps(frame))
        if measuring:
            sent += 1
            tally.measured.add(move_id)
            if reference or kind == "drag":
                tally.acked.add(move_id)
        next_at += interval


@dataclass
class Result:
    target: str
    scenario: str
    kind: str
    clients: int
    senders: int
    rate: float
    moves: int
    delivered: int
    expected: int
    p50: float
    p99: float
    worst: float
    per_second: float
    closed_early: int
    refused: int

    @property
    def lost(self) -> int:
        return max(0, self.expected - self.delivered)


async def run_scenario(
    target: str,
    ports: list,
    table: Table | None,
    clients: int,
    senders: int,
    rate: float,
    scenario: str,
    kind: str,
) -> Result:
    reference = target == "reference"
    tally = Tally()
    sockets = []
    readers = []
    for i in range(clients):
        port = ports[i % len(ports)]
        if reference:
            url, cookie = f"ws://127.0.0.1:{port}/", None
        else:
            url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.campaign_id}/"
            cookie = table.cookies[i]
        ws = await open_client(url, f"http://127.0.0.1:{port}", cookie)
        sockets.append(ws)
        readers.append(
            asyncio.create_task((read_reference if reference else read_django)(ws, tally))
        )
    await asyncio.sleep(1.0 + clients / 100)  # presence announcements settle
    loop = asyncio.get_running_loop()
    start = loop.time()
    until = start + WARMUP + MEASURE
    tokens = list(range(1, senders + 1)) if reference else table.tokens[:senders]
    movers = [
        asyncio.create_task(
            send_moves(sockets[i], tokens[i], rate, until, tally, i, reference, kind)
        )
        for i in range(senders)
    ]
    await asyncio.sleep(WARMUP)
    tally.measuring = True
    measured_from = loop.time()
    moves = sum(await asyncio.gather(*movers))
    measured = loop.time() - measured_from
    # Wait for the last deliveries: until nothing arrives for DRAIN seconds
    # (a backlog is slow, not lost), at most MAX_DRAIN.
    quiet_since, seen = loop.time(), tally.delivered
    while loop.time() - measured_from - measured < MAX_DRAIN:
        await asyncio.sleep(0.25)
        if tally.delivered != seen:
            quiet_since, seen = loop.time(), tally.delivered
        elif loop.time() - quiet_since >= DRAIN:
            break
    tally.closing = True
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    latencies = sorted(tally.latencies) or [float("nan")]
    # A drag preview goes to everyone but its sender; a move's event to everyone.
    receivers = clients - 1 if kind == "drag" and not reference else clients
    expected = len(tally.measured & tally.acked) * receivers
    return Result(
        target=target,
        scenario=scenario,
        kind="relay" if reference else kind,
        clients=clients,
        senders=senders,
        rate=rate,
        moves=moves,
        delivered=tally.delivered,
        expected=expected,
        p50=latencies[len(latencies) // 2] * 1000,
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        worst=latencies[-1] * 1000,
        per_second=tally.delivered / measured if measured else 0.0,
        closed_early=tally.closed_early,
        refused=tally.refused,
    )


# ---------------------------------------------------------------- orchestration


def servers_for(target: str, database_url: str, redis_url: str):
    if target == "reference":
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, __file__, "--serve-reference", str(port)],
            cwd=ROOT,
            start_new_session=True,
        )
        wait_for_port(port)
        return [port], [process]
    count = 2 if target == "redis2" else 1
    env = django_env(database_url, None if target == "memory" else redis_url)
    ports = [free_port() for _ in range(count)]
    processes = [start_daphne(port, env) for port in ports]
    try:
        for port in ports:
            wait_for_http(port)
    except Exception:
        stop(processes)
        raise
    return ports, processes


def scenarios_for(target: str, saturation: bool, kinds=("drag", "move")) -> list[tuple]:
    """(name, kind, clients, senders, moves/s each). The reference relays
    whatever it gets, so it runs each room once."""
    kinds = ("relay",) if target == "reference" else kinds
    rooms = [("room50", 50, 5, 20.0), ("room200", 200, 5, 5.0)]
    chosen = [(name, kind, *room) for name, *room in rooms for kind in kinds]
    if saturation:
        for kind in kinds:
            chosen += [(f"saturation{s}", kind, 50, s, 20.0) for s in SATURATION_STEPS]
    return chosen


async def bench_target(target, database_url, redis_url, saturation, kinds) -> list[Result]:
    results = []
    ports, processes = servers_for(target, database_url, redis_url)
    saturated: set = set()
    try:
        for name, kind, clients, senders, rate in scenarios_for(target, saturation, kinds):
            if name.startswith("saturation") and kind in saturated:
                continue
            table = None
            if target != "reference":
                table = await asyncio.to_thread(build_table, database_url, clients, senders)
            result = await run_scenario(target, ports, table, clients, senders, rate, name, kind)
            results.append(result)
            print(
                f"  {target:9} {name:13} {result.kind:5} {result.per_second:8.0f}/s "
                f"p50 {result.p50:7.1f} ms p99 {result.p99:7.1f} ms max {result.worst:7.1f} ms "
                f"lost {result.lost} refused {result.refused} closed {result.closed_early}",
                file=sys.stderr,
            )
            if name.startswith("saturation") and (result.p99 > 100 or result.lost):
                saturated.add(kind)
    finally:
        stop(processes)
    return results


def saturation_of(results: list[Result], kind: str) -> Result | None:
    good = [
        r
        for r in results
        if r.scenario.startswith("saturation") and r.kind == kind and r.p99 <= 100 and r.lost == 0
    ]
    return max(good, key=lambda r: r.per_second, default=None)


def median_result(results: list[Result]) -> Result:
    ordered = sorted(results, key=lambda r: r.p99)
    return ordered[len(ordered) // 2]


def report(all_runs: dict, loop_name: str, runs: int) -> str:
    lines = [
        "| target | scenario | kind | clients | senders x per s | deliveries/s "
        "| p50 ms | p99 ms | max ms | lost |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for target, target_runs in all_runs.items():
        flat = [r for run in target_runs for r in run]
        for scenario in ("room50", "room200"):
            for kind in ("relay", "drag", "move"):
                picked = [r for r in flat if r.scenario == scenario and r.kind == kind]
                if not picked:
                    continue
                r = median_result(picked)
                lines.append(
                    f"| {target} | {scenario} | {kind} | {r.clients} | {r.senders} x {r.rate:g} | "
                    f"{statistics.median(p.per_second for p in picked):.0f} | {r.p50:.1f} | "
                    f"{r.p99:.1f} | {r.worst:.1f} | {max(p.lost for p in picked)} |"
                )
        for kind in ("relay", "drag", "move"):
            best = [s for s in (saturation_of(run, kind) for run in target_runs) if s is not None]
            if not best:
                continue
            r = sorted(best, key=lambda s: s.per_second)[len(best) // 2]
            lines.append(
                f"| {target} | saturation | {kind} | {r.clients} | {r.senders} x {r.rate:g} | "
                f"{r.per_second:.0f} | {r.p50:.1f} | {r.p99:.1f} | {r.worst:.1f} | {r.lost} |"
            )
    lines.append("")
    lines.append(f"Load client event loop: {loop_name}; each row the median of {runs} run(s).")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve-reference", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--targets", default="reference,memory,redis1,redis2")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-saturation", action="store_true")
    parser.add_argument("--kinds", default="drag,move", help="what the Django targets send")
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE)
    )
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument(
        "--plain-daphne",
        action="store_true",
        help="serve with the daphne command (asyncio loop) instead of python -m vtt.serve",
    )
    args = parser.parse_args()
    if args.plain_daphne:
        global server_command
        server_command = PLAIN_DAPHNE
    loop_name = use_uvloop()
    if args.serve_reference:
        asyncio.run(serve_reference(args.serve_reference))
        return
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if any(t != "reference" for t in targets):
        prepare_database(args.database_url)
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    all_runs: dict = {t: [] for t in targets}
    for run in range(args.runs):
        print(f"run {run + 1} of {args.runs}", file=sys.stderr)
        for target in targets:
            all_runs[target].append(
                asyncio.run(
                    bench_target(
                        target, args.database_url, args.redis_url, not args.no_saturation, kinds
                    )
                )
            )
    server = (
        "daphne (asyncio loop)" if args.plain_daphne else "python -m vtt.serve (daphne on uvloop)"
    )
    print(report(all_runs, loop_name, args.runs) + f"\nDjango targets served by {server}.")


if __name__ == "__main__":
    main()
