"""Table night: how many rooms of a GM and five players one server process
carries, and two.

    .venv/bin/python bench/table_night.py                                # 1 and 2 processes, ramp
    .venv/bin/python bench/table_night.py --processes 1 --rooms 10,20 --seconds 10 --runs 1
    .venv/bin/python bench/table_night.py --processes 1 --rooms 60 --profile /tmp/tn-profile

A room is a GM and 5 players, each on their own socket, on one scene with a
token for each player. What they do, every room at its own phase:

- a player drags their token: `token.drag` previews at 20 a second for 2 s,
  then a stored `token.move` to where the drag ended, then 1 s idle (the
  players take turns, one drag at a time in a room);
- someone rolls every 3 s (members in turn; the GM's rolls are GM-only, so
  players receive them `redacted`);
- someone chats every 10 s (members in turn).

Served as the site is: `python -m vtt.serve` processes over Redis (the
pub/sub layer) and PostgreSQL, in a database of the bench's own, created
and migrated at the start and dropped at the end. With two processes a
room's sockets are kept on one process, rooms alternating (`--spread
room`, the default: deploy/nginx.conf sends a room's sockets to one worker
by the room's path), or a room's members alternate between the processes
(`--spread socket`: a balancer without that affinity, every broadcast
crossing Redis).

The load is driven by `--load-processes` processes (2 by default), each an
asyncio loop on uvloop with whole rooms: every member of a room is in the
same process, so a delivery is timed on one clock (time.perf_counter) from
the moment the sender wrote the intent to the moment a member read it.

Figures, per step (processes, rooms):

- p50/p99 of each kind: `drag` (a preview, to the 5 others), `move` (the
  stored move's event), `roll`, `chat` (their events, to all 6, the sender
  included, redacted or not); only what was sent in the measured window.
- lost: by sequence number. Every member must receive every number from
  their snapshot's to the room's last (read from the database once every
  intent is answered), live or in a resync page, redacted or not; waited
  for until all are in or nothing arrived for 4 s (longer than the hub's
  heartbeat that repairs a dropped broadcast), at most 20 s.
- unanswered: intents with neither an ack nor an error 10 s after the
  load stopped; refused: error frames; not-joined: sockets without a
  snapshot.
- merged: previews sent but never seen. The server merges a socket's
  previews that come faster than 20 a second into the latest (protocol.md),
  so a few are expected and not counted as lost.
- CPU, in % of one core over the measured window: each server process,
  the load processes together, and the whole machine (all cores, other
  work included) with its load average; stolen: the share of the
  machine's time its host gave to other guests (a shared virtual machine
  is slower while it is high); us a delivery: the server's CPU for each
  message delivered, which compares code across runs better than the
  latencies do when the machine is shared.
- pace: the median of small timed probes of fixed work (bench/pace.py)
  taken every second of the measured window by the script's own process,
  under 1 % of a core. This machine's speed halves for minutes at a time
  without any stolen time; the pace shows it (about 40 ms quick, 85 ms
  at half speed).

A step holds when every kind's p99 is under 100 ms and nothing is lost,
unanswered or unjoined; the ramp for a process count stops at the first
step that does not hold. `--profile DIR` records the first server process
with py-spy during each measured window (samples holding the GIL:
the Python work; `--profile-rate` samples a second, 100 by default) and
prints its top functions.

Loopback only; every phase is bounded in time."""

import argparse
import array
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import random
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
    cpu_seconds,
    django_env,
    drop_database,
    open_client,
    prepare_database,
    start_servers,
    stop,
    use_uvloop,
)
from pace import paced_sleep, processor  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/vtt_tablenight"
PLAYERS = 5
MEMBERS = PLAYERS + 1  # member 0 is the GM
MAP_SIDE = 100
DRAG_RATE = 20.0  # previews a second
DRAG_TIME = 2.0
DRAG_CYCLE = 3.0  # the drag, its stored move, 1 s idle
ROLL_EVERY = 3.0
CHAT_EVERY = 10.0
WARMUP = 3.0
ANSWER_WAIT = 10.0
DRAIN = 4.0  # quiet longer than the hub's 3 s heartbeat
MAX_DRAIN = 20.0
KINDS = ("drag", "move", "roll", "chat")
ROLL_REQUEST = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}


# ---------------------------------------------------------------- the tables


@dataclass
class Room:
    campaign: int
    cookies: list  # the GM's session cookie, then the players'
    tokens: list  # tokens[j] is player j + 1's


def seed_rooms(count: int) -> list[Room]:
    """`count` campaigns of a GM and 5 players on one active scene, each
    player controlling one token. Django must be set up."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from vtt.tabletop.models import Membership, Role
    from vtt.tabletop.services import campaign_create, scene_activate, scene_create, token_create

    User = get_user_model()
    rooms = []
    for r in range(count):
        users = [User.objects.create_user(f"tn{r}-{m}") for m in range(MEMBERS)]
        gm = users[0]
        campaign = campaign_create(owner=gm, name=f"Table night {r}", game="artifice")
        Membership.objects.bulk_create(
            [Membership(campaign=campaign, user=u, role=Role.PLAYER) for u in users[1:]]
        )
        scene = scene_create(
            campaign_id=campaign.pk, by=gm, name="Field", width=MAP_SIDE, height=MAP_SIDE
        )
        scene_activate(scene_id=scene.pk, by=gm)
        tokens = [
            token_create(
                scene_id=scene.pk, by=gm, name=f"P{j}", x=0, y=20 * j, controllers=[users[j + 1].pk]
            ).pk
            for j in range(PLAYERS)
        ]
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        rooms.append(Room(campaign.pk, cookies, tokens))
    return rooms


def last_seqs(campaigns: list[int]) -> dict:
    from django.db import close_old_connections

    from vtt.tabletop.models import Campaign

    close_old_connections()
    return dict(Campaign.objects.filter(pk__in=campaigns).values_list("pk", "event_seq"))


# ---------------------------------------------------------------- one room, as the load sees it


@dataclass
class Member:
    base: int | None = None  # the snapshot's seq
    live: dict = field(default_factory=dict)  # seq -> read at (live events)
    resynced: set = field(default_factory=set)  # seqs that came in resync pages
    twice: int = 0
    snapshots: int = 0


@dataclass
class RoomTally:
    room: Room
    members: list = field(default_factory=lambda: [Member() for _ in range(MEMBERS)])
    intents: dict = field(default_factory=dict)  # id -> (kind, sent at, measured)
    answered: set = field(default_factory=set)
    refused: collections.Counter = field(default_factory=collections.Counter)
    seq_intent: dict = field(default_factory=dict)  # seq -> intent id (chat acks, events)
    roll_intent: dict = field(default_factory=dict)  # roll_id -> intent id (roll acks)
    roll_seq: dict = field(default_factory=dict)  # roll_id -> seq (roll events)
    move_intent: dict = field(default_factory=dict)  # (token, x, y) -> intent id
    drags: dict = field(default_factory=dict)  # (token, x, y) -> (sent at, measured)
    drag_latencies: list = field(default_factory=list)
    drags_sent: int = 0  # measured previews
    drags_seen: int = 0  # their deliveries
    closed: int = 0

    def event(self, member: int, event: dict, now: float, live: bool) -> None:
        seq = event["seq"]
        seen = self.members[member]
        if seq in seen.live or seq in seen.resynced:
            seen.twice += 1
        elif live:
            seen.live[seq] = now
        else:
            seen.resynced.add(seq)
        kind, data = event["type"], event.get("data")
        if kind == "token.moved":
            token = data["token"]
            move = self.move_intent.get((token["id"], token["x"], token["y"]))
            if move is not None:
                self.seq_intent[seq] = move
        elif kind == "roll" and "roll_id" in data:
            self.roll_seq[data["roll_id"]] = seq
        elif kind == "chat" and data["text"].startswith("tn "):
            self.seq_intent[seq] = data["text"][3:]

    def drag(self, frame: dict, now: float) -> None:
        sent = self.drags.get((frame["token"], frame["x"], frame["y"]))
        if sent is not None and sent[1]:
            self.drags_seen += 1
            self.drag_latencies.append(now - sent[0])

    def ack(self, frame: dict) -> None:
        intent_id = frame["id"]
        self.answered.add(intent_id)
        if frame.get("intent") == "roll":
            self.roll_intent[frame["roll_id"]] = intent_id
        elif frame.get("intent") == "chat" and "seq" in frame:
            self.seq_intent[frame["seq"]] = intent_id

    def unanswered(self) -> int:
        return sum(1 for i in self.intents if i not in self.answered)

    def result(self, last_seq: int) -> dict:
        """Latencies (ms) per kind, and what is missing, once the wait is over."""
        for roll_id, seq in self.roll_seq.items():
            if roll_id in self.roll_intent:
                self.seq_intent[seq] = self.roll_intent[roll_id]
        latencies = {kind: [] for kind in KINDS}
        latencies["drag"] = [t * 1000 for t in self.drag_latencies]
        lost = 0
        for seen in self.members:
            for seq, read_at in seen.live.items():
                intent = self.intents.get(self.seq_intent.get(seq))
                if intent is not None and intent[2]:
                    latencies[intent[0]].append((read_at - intent[1]) * 1000)
            if seen.base is not None:
                got = seen.live.keys() | seen.resynced
                lost += sum(1 for s in range(seen.base + 1, last_seq + 1) if s not in got)
        return {
            "latencies": latencies,
            "lost": lost,
            "twice": sum(m.twice for m in self.members),
            "via_resync": sum(len(m.resynced) for m in self.members),
            "snapshots_again": sum(max(0, m.snapshots - 1) for m in self.members),
            "not_joined": sum(1 for m in self.members if m.base is None),
            "unanswered": self.unanswered(),
            "refused": dict(self.refused),
            "drags_expected": self.drags_sent * PLAYERS,
            "drags_seen": self.drags_seen,
            "closed": self.closed,
            "stored": sum(1 for i in self.intents.values() if i[2]),
        }


async def read_member(ws, tally: RoomTally, member: int) -> None:
    loads, clock = json.loads, time.perf_counter
    try:
        async for text in ws:
            now = clock()
            frame = loads(text)
            kind = frame["type"]
            if kind == "token.drag":
                tally.drag(frame, now)
            elif kind == "event":
                tally.event(member, frame["event"], now, live=True)
            elif kind == "ack":
                tally.ack(frame)
            elif kind == "resync":
                for event in frame["events"]:
                    tally.event(member, event, now, live=False)
            elif kind == "snapshot":
                seen = tally.members[member]
                seen.snapshots += 1
                if seen.base is None:
                    seen.base = frame["seq"]
            elif kind == "error":
                tally.answered.add(frame.get("id"))
                tally.refused[frame.get("code")] += 1
    except Exception:
        pass
    finally:
        tally.closed += 1


# ---------------------------------------------------------------- one room's players


@dataclass
class Clock:
    """The shared schedule, in this process's perf_counter time."""

    start: float  # the load starts
    measure_from: float
    measure_to: float  # and stops

    def measured(self, now: float) -> bool:
        return self.measure_from <= now < self.measure_to


async def until(at: float) -> None:
    delay = at - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


async def send(ws, tally: RoomTally, frame: dict, kind: str, clock: Clock) -> None:
    now = time.perf_counter()
    tally.intents[frame["id"]] = (kind, now, clock.measured(now))
    await ws.send(json.dumps(frame))


async def drag_loop(sockets, tally: RoomTally, clock: Clock, phase: float, label: str, rng):
    """Players in turn drag their token for 2 s, store the move, rest 1 s."""
    at = clock.start + phase
    cycle = 0
    # Each token walks its own band of rows; a random start keeps a run's
    # positions apart from an earlier run's in the same room.
    steps = [rng.randrange(20 * MAP_SIDE) for _ in range(PLAYERS)]
    while at < clock.measure_to:
        player = (cycle + tally.room.campaign) % PLAYERS
        ws, token = sockets[player + 1], tally.room.tokens[player]
        for _ in range(int(DRAG_TIME * DRAG_RATE)):
            await until(at)
            if at >= clock.measure_to:
                return
            steps[player] += 1
            step = steps[player] % (20 * MAP_SIDE)
            x, y = step % MAP_SIDE, 20 * player + step // MAP_SIDE
            now = time.perf_counter()
            measured = clock.measured(now)
            tally.drags[(token, x, y)] = (now, measured)
            tally.drags_sent += measured
            await ws.send(json.dumps({"type": "token.drag", "token": token, "x": x, "y": y}))
            at += 1 / DRAG_RATE
        move_id = f"{label}-m{cycle}"
        tally.move_intent[(token, x, y)] = move_id
        frame = {"type": "token.move", "id": move_id, "token": token, "x": x, "y": y}
        await send(ws, tally, frame, "move", clock)
        at += DRAG_CYCLE - DRAG_TIME
        cycle += 1


async def roll_loop(sockets, tally: RoomTally, clock: Clock, phase: float, label: str):
    at, n = clock.start + phase, 0
    while True:
        await until(at)
        if at >= clock.measure_to:
            return
        member = (n + tally.room.campaign) % MEMBERS
        frame = {
            "type": "roll",
            "id": f"{label}-r{n}",
            "visibility": "gm" if member == 0 else "public",
            "request": ROLL_REQUEST,
        }
        await send(sockets[member], tally, frame, "roll", clock)
        at += ROLL_EVERY
        n += 1


async def chat_loop(sockets, tally: RoomTally, clock: Clock, phase: float, label: str):
    at, n = clock.start + phase, 0
    while True:
        await until(at)
        if at >= clock.measure_to:
            return
        intent_id = f"{label}-c{n}"
        frame = {"type": "chat", "id": intent_id, "text": f"tn {intent_id}"}
        await send(sockets[(n + tally.room.campaign) % MEMBERS], tally, frame, "chat", clock)
        at += CHAT_EVERY
        n += 1


# ---------------------------------------------------------------- a load process


def load_process(rooms: list, ports: list, spread: str, label: str, conn) -> None:
    """Runs in its own process: every socket of `rooms`, the mix, the tally.
    Talks to the conductor over `conn`: ready, started at, answered, last
    seqs, results."""
    use_uvloop()
    asyncio.run(drive(rooms, ports, spread, label, conn))


async def ask(conn, message):
    conn.send(message)
    return await asyncio.to_thread(conn.recv)


async def drive(rooms: list, ports: list, spread: str, label: str, conn) -> None:
    tallies = [RoomTally(room) for room in rooms]
    sockets, readers = [], []
    opening = asyncio.Semaphore(20)

    async def join(r, room, m):
        port = ports[(r if spread == "room" else r + m) % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/campaigns/{room.campaign}/"
        async with opening:
            return await open_client(url, f"http://127.0.0.1:{port}", room.cookies[m])

    opened = await asyncio.gather(
        *(join(r, room, m) for r, room in enumerate(rooms) for m in range(MEMBERS))
    )
    for r, tally in enumerate(tallies):
        room_sockets = opened[r * MEMBERS : (r + 1) * MEMBERS]
        sockets.append(room_sockets)
        readers += [
            asyncio.create_task(read_member(ws, tally, m)) for m, ws in enumerate(room_sockets)
        ]
    deadline = time.perf_counter() + 30 + len(rooms) * 0.2
    while time.perf_counter() < deadline:
        if all(m.base is not None for t in tallies for m in t.members):
            break
        await asyncio.sleep(0.1)
    joined = sum(m.base is not None for t in tallies for m in t.members)
    # The conductor answers with when the load starts and how long it measures.
    start_wall, seconds = await ask(conn, ("ready", joined))
    start = time.perf_counter() + (start_wall - time.time())
    clock = Clock(start, start + WARMUP, start + WARMUP + seconds)
    rng = random.Random(f"{label}-{rooms[0].campaign if rooms else 0}")
    players = []
    for tally, room_sockets in zip(tallies, sockets, strict=True):
        name = f"{label}-{tally.room.campaign}"
        players += [
            drag_loop(room_sockets, tally, clock, rng.uniform(0, DRAG_CYCLE), name, rng),
            roll_loop(room_sockets, tally, clock, rng.uniform(0, ROLL_EVERY), name),
            chat_loop(room_sockets, tally, clock, rng.uniform(0, CHAT_EVERY), name),
        ]
    await asyncio.gather(*players)
    deadline = time.perf_counter() + ANSWER_WAIT
    while time.perf_counter() < deadline and any(t.unanswered() for t in tallies):
        await asyncio.sleep(0.1)
    last = await ask(conn, ("answered", sum(t.unanswered() for t in tallies)))

    def missing() -> int:
        return sum(
            1
            for t in tallies
            for m in t.members
            if m.base is not None
            for s in range(m.base + 1, last[t.room.campaign] + 1)
            if s not in m.live and s not in m.resynced
        )

    def arrivals() -> int:
        return sum(len(m.live) + len(m.resynced) for t in tallies for m in t.members)

    began = quiet_since = time.perf_counter()
    count = arrivals()
    while missing() and time.perf_counter() - began < MAX_DRAIN:
        await asyncio.sleep(0.25)
        if arrivals() != count:
            quiet_since, count = time.perf_counter(), arrivals()
        elif time.perf_counter() - quiet_since >= DRAIN:
            break
    results = [t.result(last[t.room.campaign]) for t in tallies]
    for room_sockets in sockets:
        for ws in room_sockets:
            with contextlib.suppress(Exception):
                await ws.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    conn.send(("results", merge(results)))


def merge(results: list[dict]) -> dict:
    """One tally of many rooms' results (latencies as compact arrays)."""
    total = {"latencies": {kind: array.array("d") for kind in KINDS}, "refused": {}}
    for result in results:
        for kind, values in result["latencies"].items():
            total["latencies"][kind].extend(values)
        for code, count in result["refused"].items():
            total["refused"][code] = total["refused"].get(code, 0) + count
        for key, value in result.items():
            if key not in ("latencies", "refused"):
                total[key] = total.get(key, 0) + value
    return total


# ---------------------------------------------------------------- CPU


def machine_busy() -> tuple[int, int, int]:
    """(busy, stolen, total) jiffies of all cores, from /proc/stat. Stolen
    time is what the host gave other guests while ours waited: on a shared
    virtual machine it slows every figure here without showing as anyone's
    CPU, so it is reported beside them."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:9]]
    idle, stolen = values[3] + values[4], values[7]
    return sum(values) - idle - stolen, stolen, sum(values)


# ---------------------------------------------------------------- the profile


def function_of(frame: str) -> str:
    """'handle (vtt/live/hub.py:120)' -> 'handle (vtt/live/hub.py)': a function, not a line."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit(':', 1)[0]})" if where else name


def top_functions(raw: Path, count: int = 15) -> list[tuple[str, float, float]]:
    """From py-spy's collapsed stacks: (function, self share, total share)."""
    own, inclusive, samples = collections.Counter(), collections.Counter(), 0
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        n = int(n)
        frames = [function_of(frame) for frame in stack.split(";")]
        samples += n
        own[frames[-1]] += n
        for name in set(frames):
            inclusive[name] += n
    if not samples:
        return []
    return [(name, n / samples, inclusive[name] / samples) for name, n in own.most_common(count)]


def start_profile(pid: int, seconds: float, out: Path, rate: int) -> subprocess.Popen | None:
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        print("  py-spy is not installed (pip install py-spy): no profile", file=sys.stderr)
        return None
    return subprocess.Popen(
        [str(spy), "record", "-p", str(pid), "-d", str(int(seconds)), "-r", str(rate)]
        + ["--nonblocking", "--gil", "-f", "raw", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


# ---------------------------------------------------------------- one step


@dataclass
class Step:
    processes: int
    rooms: int
    run: int
    p50: dict
    p99: dict
    counts: dict
    lost: int
    unanswered: int
    not_joined: int
    refused: dict
    twice: int
    via_resync: int
    snapshots_again: int
    closed: int
    drags_expected: int
    drags_seen: int
    stored_per_s: float
    drag_deliveries_per_s: float
    server_cpu: list  # % of a core, per server process
    load_cpu: float  # % of a core, the load processes together
    machine_cpu: float  # % of the whole machine (all cores)
    stolen: float  # % of the whole machine's time the host gave to others
    loadavg: float
    pace: float  # ms, the median probe of the measured window (bench/pace.py)
    seconds: float  # the measured window

    @property
    def worst_p99(self) -> float:
        return max(self.p99.values())

    @property
    def cost(self) -> float:
        """The server's CPU for each message delivered, in microseconds: the
        figure that moves least with what else the machine is doing."""
        seconds = sum(self.server_cpu) / 100 * self.seconds
        return seconds / max(1, sum(self.counts.values())) * 1e6

    @property
    def held(self) -> bool:
        return self.worst_p99 < 100 and not (self.lost or self.unanswered or self.not_joined)

    def line(self) -> str:
        kinds = " ".join(
            f"{k} {self.p50[k]:.0f}/{self.p99[k]:.0f} ({self.counts[k]})" for k in KINDS
        )
        return (
            f"  {self.processes} process(es) {self.rooms:4} rooms: p50/p99 ms (deliveries) {kinds} | "
            f"lost {self.lost} unanswered {self.unanswered} not-joined {self.not_joined} "
            f"refused {self.refused or 0} twice {self.twice} via-resync {self.via_resync} "
            f"snapshots-again {self.snapshots_again} merged {self.drags_expected - self.drags_seen} "
            f"of {self.drags_expected} | {self.stored_per_s:.0f} stored/s "
            f"{self.drag_deliveries_per_s:.0f} drags/s | server CPU "
            f"{'+'.join(f'{c:.0f}' for c in self.server_cpu)} % load {self.load_cpu:.0f} % "
            f"machine {self.machine_cpu:.0f} % stolen {self.stolen:.0f} % "
            f"load avg {self.loadavg:.1f} pace {self.pace:.0f} ms | "
            f"{self.cost:.0f} us a delivery | "
            f"{'held' if self.held else 'NOT held'}"
        )


def percentile(values, share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run_step(args, rooms: list[Room], processes: int, run: int) -> Step:
    env = django_env(args.database_url, args.redis_url)
    ports, servers = start_servers(processes, env)
    context = multiprocessing.get_context("spawn")
    loaders, pipes = [], []
    try:
        for i in range(args.load_processes):
            ours, theirs = context.Pipe()
            label = f"{run}-{processes}-{len(rooms)}-{i}-{time.time_ns() % 10**9}"
            process = context.Process(
                target=load_process,
                args=(rooms[i :: args.load_processes], ports, args.spread, label, theirs),
            )
            process.start()
            loaders.append(process)
            pipes.append(ours)
        join_limit = 60 + len(rooms) * 0.5
        joined = sum(receive(pipe, "ready", join_limit) for pipe in pipes)
        start = time.time() + 0.5
        for pipe in pipes:
            pipe.send((start, args.seconds))
        time.sleep(max(0.0, start + WARMUP - time.time()))
        pids = [p.pid for p in servers]
        profile = None
        if args.profile:
            out = Path(args.profile) / f"p{processes}-r{len(rooms)}-run{run}.txt"
            profile = (start_profile(pids[0], args.seconds, out, args.profile_rate), out)
        before = ([cpu_seconds(p) for p in pids], sum(cpu_seconds(p.pid) for p in loaders))
        busy_before, wall = machine_busy(), time.perf_counter()
        paces = paced_sleep(args.seconds)
        elapsed = time.perf_counter() - wall
        busy_after = machine_busy()
        server_cpu = [
            (cpu_seconds(p) - b) / elapsed * 100 for p, b in zip(pids, before[0], strict=True)
        ]
        load_cpu = (sum(cpu_seconds(p.pid) for p in loaders) - before[1]) / elapsed * 100
        total = max(1, busy_after[2] - busy_before[2])
        machine = (busy_after[0] - busy_before[0]) / total * 100
        stolen = (busy_after[1] - busy_before[1]) / total * 100
        loadavg = os.getloadavg()[0]
        for pipe in pipes:
            receive(pipe, "answered", ANSWER_WAIT + 30)
        last = last_seqs([room.campaign for room in rooms])
        for pipe in pipes:
            pipe.send(last)
        results = [receive(pipe, "results", MAX_DRAIN + 60) for pipe in pipes]
        for process in loaders:
            process.join(30)
        if profile and profile[0]:
            profile[0].wait(30)
            print_profile(profile[1])
    finally:
        for process in loaders:
            if process.is_alive():
                process.kill()
        stop(servers)
    total = merge(results)
    lat = total["latencies"]
    return Step(
        processes=processes,
        rooms=len(rooms),
        run=run,
        p50={k: percentile(lat[k], 0.5) for k in KINDS},
        p99={k: percentile(lat[k], 0.99) for k in KINDS},
        counts={k: len(lat[k]) for k in KINDS},
        lost=total["lost"],
        unanswered=total["unanswered"],
        not_joined=len(rooms) * MEMBERS - joined,
        refused=total["refused"],
        twice=total["twice"],
        via_resync=total["via_resync"],
        snapshots_again=total["snapshots_again"],
        closed=total["closed"],
        drags_expected=total["drags_expected"],
        drags_seen=total["drags_seen"],
        stored_per_s=total["stored"] / args.seconds,
        drag_deliveries_per_s=total["drags_seen"] / args.seconds,
        server_cpu=server_cpu,
        load_cpu=load_cpu,
        machine_cpu=machine,
        stolen=stolen,
        loadavg=loadavg,
        pace=statistics.median(paces) if paces else float("nan"),
        seconds=args.seconds,
    )


def receive(pipe, what: str, timeout: float):
    if not pipe.poll(timeout):
        raise RuntimeError(f"a load process sent no '{what}' within {timeout:.0f} s")
    message = pipe.recv()
    if isinstance(message, tuple) and message and message[0] == what:
        return message[1]
    raise RuntimeError(f"a load process sent {message!r:.80} instead of '{what}'")


def print_profile(raw: Path) -> None:
    if not raw.exists():
        print(f"  no profile written to {raw}", file=sys.stderr)
        return
    print(f"  profile {raw}: self share, total share, function", file=sys.stderr)
    for name, own, total in top_functions(raw):
        print(f"    {own:6.1%} {total:6.1%}  {name}", file=sys.stderr)


# ---------------------------------------------------------------- the report


def report(steps: list[Step], runs: int) -> str:
    lines = [
        "| processes | rooms | sockets | stored/s | drags/s | p50/p99 ms drag | move | roll | chat "
        "| lost | unanswered | server CPU % | load CPU % | machine % | stolen % "
        "| pace ms | server us a delivery | held |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    by_step = collections.defaultdict(list)
    for step in steps:
        by_step[step.processes, step.rooms].append(step)
    for (processes, rooms), picked in sorted(by_step.items()):
        s = sorted(picked, key=lambda p: p.worst_p99)[len(picked) // 2]
        cells = " | ".join(f"{s.p50[k]:.1f} / {s.p99[k]:.1f}" for k in KINDS)
        lines.append(
            f"| {processes} | {rooms} | {rooms * MEMBERS} | {s.stored_per_s:.0f} | "
            f"{s.drag_deliveries_per_s:.0f} | {cells} | {max(p.lost for p in picked)} | "
            f"{max(p.unanswered for p in picked)} | "
            f"{' + '.join(f'{c:.0f}' for c in s.server_cpu)} | {s.load_cpu:.0f} | "
            f"{s.machine_cpu:.0f} | {s.stolen:.0f} | {s.pace:.0f} | {s.cost:.0f} | "
            f"{sum(p.held for p in picked)} of {len(picked)} |"
        )
    lines.append("")
    largest = {}
    for processes in sorted({s.processes for s in steps}):
        held = []
        for run in range(runs):
            ours = [s for s in steps if s.processes == processes and s.run == run]
            held.append(max((s.rooms for s in ours if s.held), default=0))
        largest[processes] = statistics.median(held)
        lines.append(
            f"{processes} process(es): largest step held {largest[processes]:g} rooms "
            f"(runs: {', '.join(map(str, held))})"
        )
    if largest.get(1) and 2 in largest:
        lines.append(f"2 processes held {largest[2] / largest[1]:.2f} times the rooms of 1.")
    lines.append(
        f"Each row the median of {len(steps) and runs} run(s) by the worst p99; lost and "
        "unanswered the most of any run. CPU in % of one core (machine and stolen: % of all "
        f"cores). Processor: {processor()}."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", default="1,2", help="server processes, e.g. 1,2")
    parser.add_argument("--rooms", default="20,40,60,80,100,150,200", help="the ramp")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured, per step")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--load-processes", type=int, default=2)
    parser.add_argument("--spread", choices=("room", "socket"), default="room")
    parser.add_argument("--no-stop", action="store_true", help="run every step of the ramp")
    parser.add_argument("--profile", metavar="DIR", help="py-spy the first server process")
    parser.add_argument("--profile-rate", type=int, default=100, help="py-spy's samples a second")
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE)
    )
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args()
    counts = [int(p) for p in args.processes.split(",")]
    ramp = sorted(int(r) for r in args.rooms.split(","))
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)

    print(f"seeding {ramp[-1]} rooms in a new database", file=sys.stderr)
    prepare_database(args.database_url, fresh=True)
    os.environ.update(django_env(args.database_url, None))
    import django

    django.setup()
    steps = []
    try:
        rooms = seed_rooms(ramp[-1])
        for run in range(args.runs):
            for processes in counts:
                for count in ramp:
                    step = run_step(args, rooms[:count], processes, run)
                    steps.append(step)
                    print(step.line(), file=sys.stderr)
                    if not step.held and not args.no_stop:
                        break
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep_database:
            drop_database(args.database_url)
    print(report(steps, args.runs))


if __name__ == "__main__":
    main()
