"""One run of the room under faults: about twenty clients keep rolling,
moving and chatting while worker 1 is killed (SIGKILL) and started again,
then Redis is; the run measures how long each recovery takes and keeps
what every client saw for the checks in test_faults.py."""

import asyncio
import contextlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .client import RoomClient, open_socket, worker_port

# Every tab of every user and where it connects: through nginx (which sends
# all of a room's sockets to one worker, made worker 1 here: see
# room_worker) or straight to one worker, so both surely have members in
# the room.
TABS = {
    "gm": ("nginx", "worker2"),
    "player1": ("worker1",),
    "player2": ("nginx", "worker1"),
    "player3": ("nginx", "nginx"),
    "player4": ("nginx", "worker2"),
    "player5": ("nginx", "worker1"),
    "player6": ("nginx", "worker2"),
    "player7": ("nginx", "nginx"),
    "player8": ("worker1", "worker2"),
    "player9": ("nginx", "nginx"),
    "observer": ("nginx",),
}
# Sat on the killed worker; leaves once the room has recovered, so by the
# end the others must have seen a member go whose earlier socket died with
# its worker (how long that took is a figure: a dead process's presence
# entries are documented to expire, not to vanish at once).
LEAVES_AFTER_WORKER_KILL = "player1"
LEAVES_AT_THE_END = "player4"
PROBE_USERS = ("gm", "player2", "player3", "player5", "player6", "player7", "player8")

RATE = 2.0  # intents a second per client
PHASE = 5.0  # seconds of traffic before, between and after the faults
VOLLEY = 3  # intents each client sends at once just before the worker is killed
VOLLEY_HEAD_START = 0.15  # seconds the worker gets to carry some of them out
REDIS_DOWN = 1.0  # seconds between killing Redis and starting it again
PROBES = 20  # new connections per worker right after Redis is back, as the report had
PROBE_TIMEOUT = 10.0
JOIN_BOUND = 30.0
RECOVERY_BOUND = 30.0
PRESENCE_BOUND = 15.0
SETTLE_BOUND = 20.0


async def room_worker(stack, room) -> int:
    """The port of the worker nginx sends this room's sockets to
    (deploy/nginx.conf hashes a room's path). The run makes it worker 1, so
    the tabs that came through nginx die with it and come back through
    nginx to the other one."""
    ws = await open_socket(stack.nginx.port, room.campaign_id, room.cookies["observer"])
    try:
        return worker_port(ws, stack.nginx.port)
    finally:
        await ws.close()


@dataclass
class Run:
    """What a run leaves for the checks."""

    clients: list
    figures: dict = field(default_factory=dict)
    presence: dict = field(default_factory=dict)  # moment -> (seconds or None, wrong, bound)
    probes: dict = field(default_factory=dict)  # worker -> outcomes of the first burst
    left: dict = field(default_factory=dict)  # client name -> its last seq when it left


class Scenario:
    def __init__(self, stack, room):
        from vtt.live import room_reads

        self.stack, self.room = stack, room
        self.current_seq = room_reads.current_seq
        # One thread for the test's own database reads, closed at the end.
        self.db = ThreadPoolExecutor(1, thread_name_prefix="faults-db")
        self.clients = [
            RoomClient(f"{user}/{tab}", room.users[user], stack.port(target), room, seed)
            for seed, (user, tab, target) in enumerate(
                (user, tab, target)
                for user, targets in TABS.items()
                for tab, target in enumerate(targets, 1)
            )
        ]
        self.run = Run(self.clients)
        self.tasks: list[asyncio.Task] = []
        self.worker_killed_at = 0.0

    # ------------------------------------------------------------ helpers

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    async def room_seq(self) -> int:
        return await self.loop.run_in_executor(self.db, self.current_seq, self.room.campaign_id)

    def staying(self) -> list[RoomClient]:
        return [c for c in self.clients if not c.leaving]

    async def until(self, condition, bound: float, started: float | None = None):
        """Seconds from `started` until `condition()` holds, or None after `bound`."""
        started = self.loop.time() if started is None else started
        while self.loop.time() - started < bound:
            if await condition():
                return round(self.loop.time() - started, 2)
            await asyncio.sleep(0.05)
        return None

    async def all_in_sync(self, clients=None) -> bool:
        seq = await self.room_seq()
        return all(c.in_sync(seq) for c in clients or self.staying())

    async def all_answered_and_in_sync(self, clients=None) -> bool:
        clients = clients or self.staying()
        return all(not c.pending for c in clients) and await self.all_in_sync(clients)

    # ------------------------------------------------------------ the run

    async def play(self) -> Run:
        figures = self.run.figures
        started = self.loop.time()
        try:
            self.tasks = [asyncio.create_task(c.run()) for c in self.clients]
            figures["seconds_to_join"] = await self.until(self.all_in_sync, JOIN_BOUND)
            figures["seq_at_start"] = await self.room_seq()
            stop = asyncio.Event()
            traffic = [asyncio.create_task(c.traffic(stop, RATE)) for c in self.clients]
            await asyncio.sleep(PHASE)
            await self.kill_worker()
            await self.presence_after_leaving(
                "after_worker_kill", LEAVES_AFTER_WORKER_KILL, PRESENCE_BOUND
            )
            await asyncio.sleep(PHASE)
            await self.kill_redis()
            await asyncio.sleep(PHASE)
            stop.set()
            await asyncio.gather(*traffic)
            figures["seconds_to_settle"] = await self.until(
                self.all_answered_and_in_sync, SETTLE_BOUND
            )
            await self.presence_after_leaving("at_the_end", LEAVES_AT_THE_END, self.end_bound())
            figures["seq_at_end"] = await self.room_seq()
        finally:
            await self.close_all()
            figures["seconds_in_all"] = round(self.loop.time() - started, 1)
        return self.run

    async def kill_worker(self) -> None:
        """SIGKILL worker 1 in the middle of a volley of intents, so some are
        carried out with their answers lost, and start it at once on the
        same port."""
        figures = self.run.figures
        await self.volley()
        await asyncio.sleep(VOLLEY_HEAD_START)
        killed = self.worker_killed_at = self.loop.time()
        self.stack.restart_worker(1)
        await self.loop.run_in_executor(None, self.stack.workers[0].wait_up)
        figures["worker_seconds_to_boot"] = round(self.loop.time() - killed, 2)
        figures["worker_kill_seconds_to_sync"] = await self.until(
            self.all_in_sync, RECOVERY_BOUND, killed
        )

    async def volley(self) -> None:
        """VOLLEY intents from every client at once."""
        for client in self.staying():
            if client.synced:
                for _ in range(VOLLEY):
                    await client.act()

    async def kill_redis(self) -> None:
        """SIGKILL Redis, start it again on the same port after REDIS_DOWN
        seconds, and at once open PROBES new connections to each worker."""
        figures = self.run.figures
        killed = self.loop.time()
        self.stack.redis.kill()
        await asyncio.sleep(REDIS_DOWN)
        await self.loop.run_in_executor(None, self.stack.redis.start)
        figures["redis_seconds_down"] = round(self.loop.time() - killed, 2)
        connects, synced = await asyncio.gather(
            self.probe_until_all_connect(killed),
            self.until(self.all_in_sync, RECOVERY_BOUND, killed),
        )
        figures["redis_kill_seconds_to_connects"] = connects
        figures["redis_kill_seconds_to_sync"] = synced

    async def probe_until_all_connect(self, killed: float):
        """The first burst is what the check judges; later bursts time the recovery."""
        while self.loop.time() - killed < RECOVERY_BOUND:
            outcomes = {w: await self.probe_burst(w) for w in ("worker1", "worker2")}
            if not self.run.probes:
                self.run.probes = outcomes
            if all(o in ("snapshot", "welcome") for burst in outcomes.values() for o in burst):
                return round(self.loop.time() - killed, 2)
            await asyncio.sleep(0.5)
        return None

    async def probe_burst(self, worker: str) -> list[str]:
        port = self.stack.port(worker)
        users = [PROBE_USERS[i % len(PROBE_USERS)] for i in range(PROBES)]
        # Each probe from a loopback address of its own, as twenty people
        # would be: the workers limit connects per address.
        probes = (self.probe(port, user, f"127.0.1.{n + 1}") for n, user in enumerate(users))
        return list(await asyncio.gather(*probes))

    async def probe(self, port: int, user: str, address: str) -> str:
        """A fresh connection's first frame: `snapshot`, or what went wrong."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                ws = await open_socket(
                    port, self.room.campaign_id, self.room.cookies[user], local_addr=(address, 0)
                )
                try:
                    async for text in ws:
                        kind = json.loads(text).get("type")
                        if kind in ("snapshot", "welcome"):
                            return kind
                    return f"closed with {ws.close_code}"
                finally:
                    await ws.close()
        except TimeoutError:
            return f"no snapshot within {PROBE_TIMEOUT} s"
        except Exception as error:  # any failure is an outcome to report
            return f"{type(error).__name__}: {error}"[:160]

    def end_bound(self) -> float:
        """PRESENCE_BOUND, but not before the killed worker's presence entries
        are documented to have expired (docs/realtime.md, "Presence"): so a
        view is only judged wrong once the server has had its chance."""
        from vtt.live.hub import HEARTBEAT
        from vtt.live.presence import TTL

        expired = self.worker_killed_at + TTL + 2 * HEARTBEAT - self.loop.time()
        return round(max(PRESENCE_BOUND, expired), 1)

    async def presence_after_leaving(self, moment: str, user: str, bound: float) -> None:
        """Every tab of `user` leaves, answered and in sync; then every other
        client's view of who is online must come right within `bound` seconds."""
        tabs = [c for c in self.clients if c.user_name == user]
        await self.until(lambda: self.all_answered_and_in_sync(tabs), SETTLE_BOUND)
        for tab in tabs:
            tab.leaving = True  # no more intents from it
            self.run.left[tab.name] = tab.last_seq
        for tab in tabs:
            await tab.leave()
        wrong: list = []

        async def views_right() -> bool:
            wrong[:] = presence_errors(self.staying())
            return not wrong

        seconds = await self.until(views_right, bound)
        self.run.presence[moment] = (seconds, list(wrong), bound)
        self.run.figures[f"presence_{moment}_seconds"] = seconds
        self.run.figures[f"presence_{moment}_bound"] = bound

    async def close_all(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                await client.leave()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 10)
        for task in self.tasks:
            task.cancel()
        from django.db import connections

        await self.loop.run_in_executor(self.db, connections.close_all)
        self.db.shutdown()


def presence_errors(clients) -> list[str]:
    """Clients whose view of who is online differs from who has a socket open."""
    truth = {c.user["id"] for c in clients if c.ws is not None and c.synced}
    wrong = []
    for c in clients:
        if c.ws is None or not c.synced:
            wrong.append(f"{c.name} is not connected")
        elif c.online != truth:
            extra, missing = sorted(c.online - truth), sorted(truth - c.online)
            wrong.append(f"{c.name} sees {extra} online who are gone and misses {missing}")
    return wrong
