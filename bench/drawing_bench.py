"""Drawing at once: what strokes drawn live cost the server, against drag
previews, in rooms where every member draws (or drags) at the same time.

    .venv/bin/python bench/drawing_bench.py                       # 50 rooms, 10 s a phase
    .venv/bin/python bench/drawing_bench.py --rooms 10 --seconds 5

Each room is a GM and 5 players, each on their own socket, on a 100 x 100
scene without fog, each with a token of their own. Two phases on the same
server and the same sockets, every member of every room busy in both,
for `--rounds` rounds (3), each round in the other order than the last:

- drag: each member drags their token, `token.drag` at 20 a second for
  2 s, then stores the move (`token.move`), over and over;
- stroke: each member draws a freehand line, `drawing.stroke` at 10 a
  second (`--stroke-rate`) for 2 s, each preview with the points since the
  last (a point every 50 ms of the hand's travel, 40 at the end), then
  stores it whole (`drawing.add`), over and over.

Both store one thing a member every 2 s. The server relays drags at up to
20 a second a socket and strokes at up to 10 (joining the parts of one held
meanwhile), so a page gains nothing sending strokes faster than every 100 ms;
`--stroke-rate 20` measures one that does. A member whose timer fires late
sends the latest preview, not the ones it missed. Figures per phase, over the measured
window (after a 3 s warm-up): previews sent and delivered, their p50/p99
latency from the sender's write to another member's read (the server
merges a socket's previews that come faster than it sends, so delivered
may be short of 5 x sent), refusals by code, and the server's CPU (% of
one core), with its microseconds a preview sent (each member's second of
dragging or drawing costs the server 20 of them): what the phase costs
the server.

Served as the site is, one `python -m vtt.serve` over Redis and
PostgreSQL, in a database of the bench's own (created, migrated, dropped).
The load is one asyncio process on uvloop. Loopback only; every phase is
bounded in time."""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live_servers import (  # noqa: E402
    DEFAULT_REDIS,
    cpu_seconds,
    django_env,
    drop_database,
    open_client,
    prepare_database,
    start_servers,
    stop,
    use_uvloop,
)

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vtt_drawbench"
MEMBERS = 6  # member 0 is the GM
MAP_SIDE = 100
RATE = 20.0  # drag previews a second a member
STROKE_RATE = 10.0  # stroke previews a second a member (the relay sends no more)
STROKE_TIME = 2.0  # then the drawing (or the move) is stored
WARMUP = 3.0
STORE = True  # each 2 s stored (--previews-only: not)
PHASES = ("drag", "stroke")


@dataclass
class Room:
    campaign: int
    cookies: list
    tokens: list  # tokens[m] is member m's


def seed_rooms(count: int) -> list[Room]:
    """`count` campaigns of a GM and 5 players on a scene, a token each."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from vtt.tabletop.models import Membership, Role
    from vtt.tabletop.services import campaign_create, scene_activate, scene_create, token_create

    User = get_user_model()
    rooms = []
    for r in range(count):
        users = [User.objects.create_user(f"db{r}-{m}") for m in range(MEMBERS)]
        gm = users[0]
        campaign = campaign_create(owner=gm, name=f"Drawing {r}", game="artifice")
        Membership.objects.bulk_create(
            [Membership(campaign=campaign, user=u, role=Role.PLAYER) for u in users[1:]]
        )
        scene = scene_create(
            campaign_id=campaign.pk, by=gm, name="Field", width=MAP_SIDE, height=MAP_SIDE
        )
        scene_activate(scene_id=scene.pk, by=gm)
        tokens = [
            token_create(
                scene_id=scene.pk, by=gm, name=f"M{m}", x=0, y=15 * m, controllers=[users[m].pk]
            ).pk
            for m in range(MEMBERS)
        ]
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        rooms.append(Room(campaign.pk, cookies, tokens))
    return rooms


@dataclass
class Tally:
    sent: dict = field(default_factory=dict)  # preview key -> sent at (measured ones)
    latencies: list = field(default_factory=list)
    delivered: int = 0
    refused: dict = field(default_factory=dict)
    stored: int = 0
    window: tuple = (0.0, 0.0)

    def measured(self, now: float) -> bool:
        return self.window[0] <= now < self.window[1]


async def reader(ws, tally: Tally) -> None:
    loads, clock = json.loads, time.perf_counter
    try:
        async for text in ws:
            now = clock()
            frame = loads(text)
            kind = frame["type"]
            if kind == "token.drag":
                key = ("drag", frame["token"], frame["x"], frame["y"])
            elif kind == "drawing.stroke":
                key = ("stroke", frame["stroke"], frame["from"] + len(frame["points"]))
            else:
                if kind == "error":
                    code = frame.get("code")
                    tally.refused[code] = tally.refused.get(code, 0) + 1
                elif kind == "ack" and frame.get("intent") in ("token.move", "drawing.add"):
                    tally.stored += 1
                continue
            sent = tally.sent.get(key)
            if sent is not None:
                tally.delivered += 1
                tally.latencies.append(now - sent)
    except Exception:
        pass


async def member_loop(
    ws, phase: str, room: Room, m: int, tally: Tally, start: float, end: float, rate: float
):
    """One member's previews at `rate`, each 2 s stored, until `end`."""
    at, n, step = start + (m / MEMBERS) / rate, 0, 0
    per_stroke = int(STROKE_TIME * rate)
    token = room.tokens[m]
    while at < end:
        points = []
        key = f"{room.campaign}-{m}-{n}"
        for _ in range(per_stroke):
            delay = at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if at >= end:
                return
            # A page's timer that fires late sends the latest, not the missed ones.
            at = max(at, time.perf_counter() - 1 / rate)
            step += 1
            now = time.perf_counter()
            measured = tally.measured(now)
            if phase == "drag":
                x, y = step % MAP_SIDE, 15 * m + (step // MAP_SIDE) % 10
                frame = {"type": "token.drag", "token": token, "x": x, "y": y}
                if measured:
                    tally.sent[("drag", token, x, y)] = now
            else:
                # A hand's speed: some 10 squares a second, a point each 50 ms;
                # a preview carries the points since the last, as a page's does.
                start = len(points)
                for _ in range(round(20 / rate)):
                    j = len(points)
                    points.append(
                        [round(10 + j * 0.5 + m, 2), round(15 * m + 1 + (j % 7) * 0.3, 2)]
                    )
                frame = {
                    "type": "drawing.stroke",
                    "stroke": key,
                    "shape": "pen",
                    "color": "#aa3300",
                    "width": 3,
                    "from": start,
                    "points": points[start:],
                }
                if measured:
                    tally.sent[("stroke", key, len(points))] = now
            await ws.send(json.dumps(frame))
            at += 1 / rate
        if not STORE:
            n += 1
            continue
        if phase == "drag":
            frame = {"type": "token.move", "id": f"m{key}", "token": token, "x": x, "y": y}
        else:
            frame = {
                "type": "drawing.add",
                "id": f"a{key}",
                "stroke": key,
                "shape": "pen",
                "color": "#aa3300",
                "width": 3,
                "points": points,
            }
        await ws.send(json.dumps(frame))
        n += 1


async def run_phase(
    phase: str, rooms, sockets, seconds: float, server_pid: int, stroke_rate: float
) -> dict:
    tally = Tally()
    readers = [asyncio.create_task(reader(ws, tally)) for room in sockets for ws in room]
    start = time.perf_counter() + 0.5
    tally.window = (start + WARMUP, start + WARMUP + seconds)
    loops = [
        member_loop(
            ws,
            phase,
            room,
            m,
            tally,
            start,
            tally.window[1],
            RATE if phase == "drag" else stroke_rate,
        )
        for room, room_sockets in zip(rooms, sockets, strict=True)
        for m, ws in enumerate(room_sockets)
    ]
    gathered = asyncio.ensure_future(asyncio.gather(*loops))
    await asyncio.sleep(max(0.0, tally.window[0] - time.perf_counter()))
    before, wall = cpu_seconds(server_pid), time.perf_counter()
    await asyncio.sleep(max(0.0, tally.window[1] - time.perf_counter()))
    cpu = cpu_seconds(server_pid) - before
    elapsed = time.perf_counter() - wall
    await gathered
    # The last previews' deliveries: until none came for a second (at most 20 s).
    quiet_until, seen = time.perf_counter() + 20, -1
    while seen != tally.delivered and time.perf_counter() < quiet_until:
        seen = tally.delivered
        await asyncio.sleep(1.0)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    lat = sorted(t * 1000 for t in tally.latencies)

    def pct(share):
        return lat[min(len(lat) - 1, int(len(lat) * share))] if lat else float("nan")

    return {
        "phase": phase,
        "sent": len(tally.sent),
        "delivered": tally.delivered,
        "p50": pct(0.5),
        "p99": pct(0.99),
        "refused": tally.refused,
        "stored": tally.stored,
        "cpu": cpu / elapsed * 100,
        "us": cpu / max(1, len(tally.sent)) * 1e6,
        "median_ms": statistics.median(lat) if lat else float("nan"),
    }


async def drive(
    rooms, port: int, seconds: float, server_pid: int, stroke_rate, rounds: int
) -> list[dict]:
    opening = asyncio.Semaphore(20)

    async def join(room, m):
        async with opening:
            ws = await open_client(
                f"ws://127.0.0.1:{port}/ws/campaigns/{room.campaign}/",
                f"http://127.0.0.1:{port}",
                room.cookies[m],
            )
            await ws.recv()  # the snapshot
            return ws

    sockets = [await asyncio.gather(*(join(room, m) for m in range(MEMBERS))) for room in rooms]
    # Each round in the other order than the last: a machine whose pace
    # drifts during a run weighs on both phases alike.
    results = []
    for n in range(rounds):
        for phase in PHASES if n % 2 == 0 else PHASES[::-1]:
            results.append(await run_phase(phase, rooms, sockets, seconds, server_pid, stroke_rate))
    for room in sockets:
        for ws in room:
            await ws.close()
    return results


def report(results: list[dict], rooms: int, stroke_rate: float) -> str:
    lines = [
        f"{rooms} rooms x {MEMBERS} members, every one dragging at {RATE:.0f} previews/s,"
        f" and drawing at {stroke_rate:.0f}, in alternate order:",
        "",
        "| phase | previews sent | delivered | p50 / p99 ms | refused | stored"
        " | server CPU | us a preview sent |",
        "|---|---:|---:|---|---|---:|---:|---:|",
    ]
    for r in results:
        refused = ", ".join(f"{k} {v}" for k, v in r["refused"].items()) or "none"
        lines.append(
            f"| {r['phase']} | {r['sent']:,} | {r['delivered']:,} | {r['p50']:.1f} / "
            f"{r['p99']:.1f} | {refused} | {r['stored']:,} | {r['cpu']:.0f} % | {r['us']:.1f} |"
        )
    medians = {
        phase: statistics.median(r["cpu"] for r in results if r["phase"] == phase)
        for phase in PHASES
    }
    lines += ["", "Median server CPU: " + ", ".join(f"{p} {c:.0f} %" for p, c in medians.items())]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured, per phase")
    parser.add_argument(
        "--stroke-rate", type=float, default=STROKE_RATE, help="stroke previews a second a member"
    )
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE)
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of both phases, in alternate order"
    )
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument(
        "--previews-only", action="store_true", help="never store: the previews' cost alone"
    )
    args = parser.parse_args()
    global STORE
    STORE = not args.previews_only
    print(f"seeding {args.rooms} rooms in a new database", file=sys.stderr)
    prepare_database(args.database_url, fresh=True)
    os.environ.update(django_env(args.database_url, None))
    import django

    django.setup()
    try:
        rooms = seed_rooms(args.rooms)
        from django.db import connections

        connections.close_all()
        env = django_env(args.database_url, args.redis_url)
        ports, servers = start_servers(1, env)
        try:
            use_uvloop()
            results = asyncio.run(
                drive(rooms, ports[0], args.seconds, servers[0].pid, args.stroke_rate, args.rounds)
            )
        finally:
            stop(servers)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.database_url)
    print(report(results, args.rooms, args.stroke_rate))


if __name__ == "__main__":
    main()
