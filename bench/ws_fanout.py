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

Senders start once every client is in the room (has its snapshot). Latency
of a delivery: from the moment the sender wrote the intent to the moment a
client read the event announcing it (senders receive their own events too,
as in the room). A delivery is one move seen by one client, counted once,
live or in a resync page. Lost: deliveries expected (moves the server
acknowledged x clients) minus deliveries seen, after waiting until all have
arrived or none arrived for longer than the hub's heartbeat (which repairs
a broadcast that pub/sub dropped). Unanswered: moves sent while measuring
that got neither an ack nor an error; they are not in "expected", so they
are reported beside it. Scenarios:

- room50:  50 clients, 5 senders at 20 moves/s (target p99 < 50 ms, no loss)
- room200: 200 clients, 5 senders at 5 moves/s (target p99 < 100 ms, no loss)
- saturation at 50 clients: senders added 5 at a time, 20 moves/s each,
  until p99 passes 100 ms or a delivery is lost; reported is the highest
  deliveries/s that met both.

With `--fog rooms` the room's scene has fog of war and 300 wall segments (a
corridor along the senders' row and two rows of rooms off it, doors open),
and every sender's token is a party token: each stored move recomputes the
party's view (docs/vision.md). `--fog pillars` puts 75 pillars in an open
field instead: every pillar casts a shadow, the worst case for the view.

Loopback only; every phase is bounded in time."""

import argparse
import asyncio
import collections
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live_servers import (  # noqa: E402
    DEFAULT_REDIS,
    PLAIN_DAPHNE,
    SERVE,
    cpu_seconds,
    django_env,
    free_port,
    open_client,
    prepare_database,
    start_servers,
    stop,
    use_uvloop,
    wait_for_port,
)
from pace import pace_ms, processor  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vtt_bench"
MAP_SIDE = 100
WARMUP = 1.0
MEASURE = 4.0
# Quiet longer than the hub's heartbeat (vtt.live.hub.HEARTBEAT, 3 s), which
# repairs a broadcast that pub/sub dropped: a repaired delivery is late, not lost.
DRAIN = 4.0
MAX_DRAIN = 20.0
JOIN_TIMEOUT = 30.0  # for every client's snapshot
SATURATION_STEPS = (5, 10, 15, 20, 30, 40, 50)


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
        campaign_id=campaign.pk,
        by=gm,
        name="Field",
        width=MAP_SIDE,
        height=MAP_SIDE,
        walls=(pillars() if FOG == "pillars" else rooms()) if FOG else [],
        fog=bool(FOG),
    )
    scene_activate(scene_id=scene.pk, by=gm)
    tokens = [
        token_create(
            scene_id=scene.pk,
            by=gm,
            name=f"T{i}",
            x=0,
            # Under fog the senders walk the corridor (rows 0 and 1).
            y=i % 2 if FOG else i % MAP_SIDE,
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


FOG = None  # --fog rooms|pillars: the scene has fog of war and those walls


def rooms(columns: int = 30) -> list:
    """300 wall segments laid out as a dungeon floor: a corridor along the
    north (rows 0 and 1, where the senders' tokens walk) and two rows of
    rooms south of it, 3 squares wide, each with an open door to the
    corridor or the room before it. The usual map: a token sees its
    corridor and, through each door, a wedge of a room."""
    walls = []
    for i in range(columns):
        x = 3 * i
        for top, bottom in ((2, 8), (8, 14)):
            walls += [
                [x, top, x + 1, top],
                [x + 1, top, x + 2, top, "door", "open"],
                [x + 2, top, x + 3, top],
                [x, top, x, bottom],
            ]
        walls += [[x, 14, x + 3, 14], [x + 3, 2, x + 3, 14]]
    return walls


def pillars(count: int = 75) -> list:
    """300 wall segments: `count` one-square pillars in rows from y = 10 on,
    clear of the senders' row, so every party move sees past many of them."""
    walls = []
    for i in range(count):
        x, y = 5 + (i % 15) * 6, 10 + (i // 15) * 12
        walls += [[x, y, x + 1, y], [x + 1, y, x + 1, y + 1], [x + 1, y + 1, x, y + 1]]
        walls.append([x, y + 1, x, y])
    return walls


# How the Django targets are served: --plain-daphne serves them with daphne's
# own command instead of vtt.serve; --server-logs keeps the servers' output.
server_command = SERVE
SERVER_LOGS: Path | None = None


# ---------------------------------------------------------------- the load


@dataclass
class Tally:
    sent_at: dict = field(default_factory=dict)  # move key -> (send time, measured?)
    measured: dict = field(default_factory=dict)  # id -> key of the moves sent while measuring
    acked: set = field(default_factory=set)
    refused_ids: set = field(default_factory=set)
    seen: dict = field(default_factory=dict)  # client -> keys of the measured moves it saw
    joined: set = field(default_factory=set)  # clients that have their snapshot
    latencies: list = field(default_factory=list)
    delivered: int = 0  # (client, move) pairs, each once
    twice: int = 0  # a move a client had seen already (never expected)
    via_resync: int = 0  # deliveries that came in a resync page
    refused: int = 0
    closed_early: int = 0  # sockets the server closed (e.g. 4408, too slow)
    closing: bool = False
    measuring: bool = False

    def arrived(self, key, now, client, live=True) -> None:
        sent = self.sent_at.get(key)
        if sent is None or not sent[1] or self.closing:  # counted when the wait ended
            return
        seen = self.seen.setdefault(client, set())
        if key in seen:
            self.twice += 1
            return
        seen.add(key)
        self.delivered += 1
        if live:
            self.latencies.append(now - sent[0])
        else:
            self.via_resync += 1

    def ended(self) -> None:
        if not self.closing:
            self.closed_early += 1


async def read_django(ws, tally: Tally, client: int) -> None:
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
                tally.arrived((token["id"], token["x"], token["y"]), now, client)
            elif kind == "token.drag":
                tally.arrived((frame["token"], frame["x"], frame["y"]), now, client)
            elif kind == "ack" and frame.get("intent") == "token.move":
                tally.acked.add(frame["id"])
            elif kind == "snapshot":
                tally.joined.add(client)
            elif kind == "resync":
                # The server read a gap from the log: delivered, though not live.
                for event in frame["events"]:
                    if event["type"] == "token.moved":
                        token = event["data"]["token"]
                        key = (token["id"], token["x"], token["y"])
                        tally.arrived(key, now, client, live=False)
            elif kind == "error":
                tally.refused += 1
                tally.refused_ids.add(frame.get("id"))
    except Exception:
        pass
    finally:
        tally.ended()


async def read_reference(ws, tally: Tally, client: int) -> None:
    loads, clock = json.loads, time.monotonic
    try:
        async for text in ws:
            now = clock()
            frame = loads(text)
            tally.arrived((frame["token"], frame["x"], frame["y"]), now, client)
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
            tally.measured[move_id] = (token, x, y)
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
    unanswered: int
    not_joined: int
    twice: int
    via_resync: int
    server_cpu: float  # % of one core over the measured window, the servers together
    cpu_per_move: float  # ms of the servers' CPU per move sent, its backlog included

    @property
    def lost(self) -> int:
        return max(0, self.expected - self.delivered)

    @property
    def failed(self) -> bool:
        """Something other than slowness: a delivery or an answer missing."""
        return bool(self.lost or self.unanswered or self.not_joined)


async def run_scenario(
    target: str,
    ports: list,
    pids: list,
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
            asyncio.create_task((read_reference if reference else read_django)(ws, tally, i))
        )
    loop = asyncio.get_running_loop()
    if not reference:
        # A client is in the room once it has its snapshot: only then does
        # it get the room's events and are its intents carried out.
        deadline = loop.time() + JOIN_TIMEOUT
        while len(tally.joined) < clients and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if len(tally.joined) < clients:
            print(
                f"  {clients - len(tally.joined)} of {clients} clients had no snapshot "
                f"after {JOIN_TIMEOUT:g} s; measuring anyway",
                file=sys.stderr,
            )
    await asyncio.sleep(1.0 + clients / 100)  # presence announcements settle
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
    cpu_from = sum(cpu_seconds(pid) for pid in pids)
    moves = sum(await asyncio.gather(*movers))
    measured = loop.time() - measured_from
    cpu_measured = sum(cpu_seconds(pid) for pid in pids) - cpu_from
    # A drag preview goes to everyone but its sender; a move's event to everyone.
    receivers = clients - 1 if kind == "drag" and not reference else clients
    stored = not reference and kind == "move"

    def counted() -> set:
        """The moves whose deliveries are expected: acknowledged ones (every
        one for previews and the reference, which answer nothing)."""
        if not stored:
            return set(tally.measured.values())
        return {key for move_id, key in tally.measured.items() if move_id in tally.acked}

    def delivered_of(keys: set) -> int:
        return sum(len(seen & keys) for seen in tally.seen.values())

    def settled() -> bool:
        answered = tally.measured.keys() <= tally.acked | tally.refused_ids
        keys = counted()
        return (not stored or answered) and delivered_of(keys) >= len(keys) * receivers

    # Wait for the last answers and deliveries: until all are in, or nothing
    # arrives for DRAIN seconds (a backlog is slow, not lost), at most MAX_DRAIN.
    quiet_since, seen = loop.time(), (tally.delivered, len(tally.acked))
    while loop.time() - measured_from - measured < MAX_DRAIN and not settled():
        await asyncio.sleep(0.25)
        now_seen = (tally.delivered, len(tally.acked))
        if now_seen != seen:
            quiet_since, seen = loop.time(), now_seen
        elif loop.time() - quiet_since >= DRAIN:
            break
    # Counted here, before the sockets close.
    tally.closing = True
    cpu_drained = sum(cpu_seconds(pid) for pid in pids) - cpu_from
    keys = counted()
    expected = len(keys) * receivers
    delivered = delivered_of(keys)
    unanswered = len(tally.measured.keys() - tally.acked - tally.refused_ids) if stored else 0
    if not reference and (delivered < expected or unanswered):
        explain_missing(tally, clients, len(ports), tokens, kind, stored)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    latencies = sorted(tally.latencies) or [float("nan")]
    return Result(
        target=target,
        scenario=scenario,
        kind="relay" if reference else kind,
        clients=clients,
        senders=senders,
        rate=rate,
        moves=moves,
        delivered=delivered,
        expected=expected,
        p50=latencies[len(latencies) // 2] * 1000,
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        worst=latencies[-1] * 1000,
        per_second=delivered / measured if measured else 0.0,
        closed_early=tally.closed_early,
        refused=tally.refused,
        unanswered=unanswered,
        not_joined=0 if reference else clients - len(tally.joined),
        twice=tally.twice,
        via_resync=tally.via_resync,
        server_cpu=cpu_measured / measured * 100 if measured else 0.0,
        cpu_per_move=cpu_drained * 1000 / moves if moves else 0.0,
    )


def explain_missing(tally, clients, servers, tokens, kind, stored) -> None:
    """Where deliveries or answers are missing, by server process: client i
    and sender i are on server i % servers (a process that stalled shows as
    one row, a layer that dropped messages between processes as another)."""
    sender = {token: i for i, token in enumerate(tokens)}
    moves = [key for move_id, key in tally.measured.items() if not stored or move_id in tally.acked]
    missing = collections.Counter()
    for client in range(clients):
        seen = tally.seen.get(client, set())
        for key in moves:
            if kind == "drag" and sender[key[0]] == client:
                continue
            if key not in seen:
                missing[client % servers, sender[key[0]] % servers] += 1
    unanswered = collections.Counter(
        sender[key[0]] % servers
        for move_id, key in tally.measured.items()
        if stored and move_id not in tally.acked and move_id not in tally.refused_ids
    )
    for (to, by), count in sorted(missing.items()):
        print(
            f"    missing: {count} deliveries to server {to} of moves sent to server {by}",
            file=sys.stderr,
        )
    for by, count in sorted(unanswered.items()):
        print(f"    unanswered: {count} moves sent to server {by}", file=sys.stderr)


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
    return start_servers(count, env, server_command, SERVER_LOGS)


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
            pids = [p.pid for p in processes]
            result = await run_scenario(
                target, ports, pids, table, clients, senders, rate, name, kind
            )
            results.append(result)
            print(
                f"  {target:9} {name:13} {result.kind:5} {result.per_second:8.0f}/s "
                f"p50 {result.p50:7.1f} ms p99 {result.p99:7.1f} ms max {result.worst:7.1f} ms "
                f"lost {result.lost} of {result.expected} unanswered {result.unanswered} "
                f"refused {result.refused} closed {result.closed_early} "
                f"not-joined {result.not_joined} via-resync {result.via_resync} "
                f"twice {result.twice} server CPU {result.server_cpu:.0f} % "
                f"({result.cpu_per_move:.2f} ms a move)",
                file=sys.stderr,
            )
            if name.startswith("saturation") and (result.p99 > 100 or result.failed):
                saturated.add(kind)
    finally:
        stop(processes)
    return results


def saturation_of(results: list[Result], kind: str) -> Result | None:
    good = [
        r
        for r in results
        if r.scenario.startswith("saturation") and r.kind == kind and r.p99 <= 100 and not r.failed
    ]
    return max(good, key=lambda r: r.per_second, default=None)


def median_result(results: list[Result]) -> Result:
    ordered = sorted(results, key=lambda r: r.p99)
    return ordered[len(ordered) // 2]


def report(all_runs: dict, loop_name: str, runs: int) -> str:
    lines = [
        "| target | scenario | kind | clients | senders x per s | deliveries/s "
        "| p50 ms | p99 ms | max ms | lost | unanswered | server CPU % | CPU ms a move |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
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
                    f"{r.p99:.1f} | {r.worst:.1f} | {max(p.lost for p in picked)} | "
                    f"{max(p.unanswered for p in picked)} | "
                    f"{statistics.median(p.server_cpu for p in picked):.0f} | "
                    f"{statistics.median(p.cpu_per_move for p in picked):.2f} |"
                )
        for kind in ("relay", "drag", "move"):
            best = [s for s in (saturation_of(run, kind) for run in target_runs) if s is not None]
            if not best:
                continue
            r = sorted(best, key=lambda s: s.per_second)[len(best) // 2]
            lines.append(
                f"| {target} | saturation | {kind} | {r.clients} | {r.senders} x {r.rate:g} | "
                f"{r.per_second:.0f} | {r.p50:.1f} | {r.p99:.1f} | {r.worst:.1f} | {r.lost} | "
                f"{r.unanswered} | {r.server_cpu:.0f} | {r.cpu_per_move:.2f} |"
            )
    lines.append("")
    lines.append(f"Load client event loop: {loop_name}; each row the median of {runs} run(s).")
    lines.append(
        "lost: the most of any run; a delivery is one acknowledged move seen by one client, "
        "once. unanswered: moves that got neither an ack nor an error (not in lost)."
    )
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
    parser.add_argument(
        "--fog",
        choices=("rooms", "pillars"),
        help="fog of war on the room's scene with 300 walls (a corridor and rooms, or a "
        "field of pillars: the worst case), every sender's token in the party",
    )
    parser.add_argument(
        "--server-logs",
        metavar="DIR",
        help="keep each daphne process's output (log level INFO) in DIR/daphne-PORT.log",
    )
    args = parser.parse_args()
    if args.fog:
        global FOG
        FOG = args.fog
    if args.server_logs:
        global SERVER_LOGS
        SERVER_LOGS = Path(args.server_logs)
        SERVER_LOGS.mkdir(parents=True, exist_ok=True)
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
    # A pace compares runs on one processor only (bench/pace.py).
    print(f"processor: {processor()}", file=sys.stderr)
    for run in range(args.runs):
        print(f"run {run + 1} of {args.runs}", file=sys.stderr)
        for target in targets:
            # The machine's pace before each target's scenarios (bench/pace.py).
            print(f"  {target}: pace {pace_ms():.0f} ms", file=sys.stderr)
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
