"""A room client that keeps docs/protocol.md to the letter, as the browser
does: it applies every sequence number once and in order, asks `resync` on
a gap, reconnects with `?since=<last seq>` after a drop, takes a `snapshot`
as a reset, re-sends the intents it had no answer for once it is back in
sync, and closes a socket that stops answering pings. It remembers
everything it received, for the checks."""

import asyncio
import json
import random
import uuid
from dataclasses import dataclass, field

import websockets
from websockets.exceptions import ConnectionClosed, WebSocketException

TERMINAL_CLOSES = {4401, 4403, 4404, 4406}  # the server says: do not come back
PING_EVERY = 3.0
PONG_BOUND = 10.0  # no pong this long after a ping: the socket is dead
BACKOFF_FIRST = 0.1
BACKOFF_MAX = 1.0
OPEN_TIMEOUT = 5.0
ROLL = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
MAP_SIDE = 20  # the scene of tests/faults/conftest.py make_big_room


def backoff(failures: int, rng: random.Random) -> float:
    """Doubling pauses with jitter, so clients do not come back in lockstep."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** max(failures - 1, 0)) * rng.uniform(0.5, 1.5)


def new_id() -> str:
    return uuid.uuid4().hex


async def open_socket(port: int, campaign_id: int, cookie: str, query: str = "", **options):
    """`options` go to websockets.connect (say, `local_addr` to come from
    another loopback address)."""
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/campaigns/{campaign_id}/{query}",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=OPEN_TIMEOUT,
        ping_interval=None,  # the protocol's own ping, as in the browser
        close_timeout=1,
        max_size=None,
        **options,
    )


def worker_port(ws, port: int) -> int:
    """The port of the worker behind a socket opened on `port`: through the
    test's nginx, the last address nginx tried (tests/faults/conftest.py
    adds the header); straight to a worker, `port` itself."""
    tried = ws.response.headers.get("X-Upstream-Addr")
    return int(tried.split(",")[-1].strip().rsplit(":", 1)[1]) if tried else port


@dataclass
class Sent:
    """An intent this client sent, and every answer it got."""

    id: str
    kind: str
    frame: dict
    sends: int = 0
    connection: int = 0  # the connection it was last sent on
    answers: list = field(default_factory=list)


class RoomClient:
    def __init__(self, name: str, user: dict, port: int, room, seed: int):
        self.name = name  # "player3/2": the user's second tab
        self.user = user  # {"id", "name", "role"}
        self.user_name, tab = name.split("/")
        self.tab = int(tab)
        self.port = port
        self.campaign_id = room.campaign_id
        self.cookie = room.cookies[self.user_name]
        self.tokens = room.moves[self.user_name]
        self.rng = random.Random(seed)
        # Each client from a loopback address of its own, as players come
        # from their own homes: the workers limit connects per address.
        self.address = f"127.0.0.{10 + seed}"
        self.last_square: dict[int, tuple[int, int]] = {}
        # What the client holds.
        self.ws = None
        self.synced = False
        self.first_seq: int | None = None
        self.last_seq: int | None = None
        self.online: set[int] = set()
        self.resync_asked: str | None = None
        self.ping_sent_at: float | None = None
        self.leaving = False
        self.stopped_by: int | None = None  # a terminal close code
        # What it received.
        self.events: dict[int, dict] = {}  # applied, by seq
        self.deliveries: list[tuple[int, str, dict]] = []  # (connection, how, event)
        self.duplicates: list[tuple[int, str, int]] = []
        self.gaps: list[tuple[int, int, str, int]] = []
        self.snapshots: list[dict] = []  # those after the first
        self.intents: dict[str, Sent] = {}
        self.pending: dict[str, Sent] = {}
        self.stray_answers: list[dict] = []
        self.errors: list[str] = []
        # Figures.
        self.connections = 0
        self.workers: list[int] = []  # the worker's port, per connection
        self.failed_connects = 0
        self.dead_sockets = 0
        self.resends = 0
        self.repeats = 0
        self.closes: list[int | None] = []

    # ------------------------------------------------------------ the connection

    @property
    def query(self) -> str:
        return "" if self.last_seq is None else f"?since={self.last_seq}"

    async def run(self) -> None:
        """Connect, and connect again after every drop, until told to leave."""
        failures = 0
        while not self.leaving:
            try:
                ws = await open_socket(
                    self.port,
                    self.campaign_id,
                    self.cookie,
                    self.query,
                    local_addr=(self.address, 0),
                )
            except (OSError, TimeoutError, EOFError, WebSocketException):
                failures += 1
                self.failed_connects += 1
                await asyncio.sleep(backoff(failures, self.rng))
                continue
            failures = 0
            self.workers.append(worker_port(ws, self.port))
            if self.leaving:  # told to leave while connecting
                await ws.close()
                return
            code = await self.serve(ws)
            if code in TERMINAL_CLOSES:
                self.stopped_by = code
                return
            if not self.leaving:
                await asyncio.sleep(backoff(1, self.rng))

    async def serve(self, ws) -> int | None:
        self.ws = ws
        self.connections += 1
        self.synced = False
        self.resync_asked = None
        self.ping_sent_at = None
        watchdog = asyncio.create_task(self.keepalive(ws))
        try:
            async for text in ws:
                await self.on_frame(json.loads(text))
        except ConnectionClosed:
            pass
        except Exception as error:  # a frame this client cannot read: start over
            self.errors.append(f"{type(error).__name__}: {error}"[:200])
            await ws.close()
        finally:
            watchdog.cancel()
            self.ws = None
            self.synced = False
        self.closes.append(ws.close_code)
        return ws.close_code

    async def keepalive(self, ws) -> None:
        """A ping every PING_EVERY seconds; no pong within PONG_BOUND: close."""
        loop = asyncio.get_running_loop()
        next_ping = loop.time() + PING_EVERY
        while True:
            await asyncio.sleep(0.25)
            now = loop.time()
            if self.ping_sent_at is not None and now - self.ping_sent_at > PONG_BOUND:
                self.dead_sockets += 1
                await ws.close()
                return
            if self.ping_sent_at is None and now >= next_ping:
                self.ping_sent_at, next_ping = now, now + PING_EVERY
                await self.send({"type": "ping", "id": new_id()})

    async def send(self, frame: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(frame))
        except ConnectionClosed:
            return False
        return True

    async def leave(self) -> None:
        """Close every socket of this client for good."""
        self.leaving = True
        ws = self.ws
        if ws is not None:
            await ws.close()

    def in_sync(self, seq: int) -> bool:
        return self.ws is not None and self.synced and self.last_seq >= seq

    # ------------------------------------------------------------ receiving

    async def on_frame(self, frame: dict) -> None:
        kind = frame.get("type")
        if kind == "event":
            await self.apply(frame["event"], "live")
        elif kind in ("ack", "error"):
            self.on_answer(frame)
        elif kind == "resync":
            await self.on_page(frame)
        elif kind == "snapshot":
            await self.on_snapshot(frame)
        elif kind == "welcome":
            self.online = {user["id"] for user in frame["online"]}
        elif kind == "presence":
            self.on_presence(frame)
        elif kind == "pong":
            await self.on_pong(frame)

    async def on_snapshot(self, frame: dict) -> None:
        """A reset: the snapshot is everything the client holds now."""
        if self.first_seq is None:
            self.first_seq = frame["seq"]
        else:
            self.snapshots.append(
                {"reason": frame.get("reason"), "seq": frame["seq"], "had": self.last_seq}
            )
        for event in frame["log"]:
            self.deliveries.append((self.connections, "snapshot", event))
            if self.last_seq is not None and event["seq"] > self.last_seq:
                self.events[event["seq"]] = event
        self.last_seq = frame["seq"]
        self.online = {user["id"] for user in frame["online"]}
        self.resync_asked = None
        self.synced = True
        await self.resend_pending()

    async def on_page(self, frame: dict) -> None:
        asked = frame.get("id") is not None
        for event in frame["events"]:
            await self.apply(event, "page", asked)
        if frame["more"]:
            return
        if asked:
            if frame["id"] == self.resync_asked:
                self.resync_asked = None
        elif not self.synced:  # the pages after a welcome: back in the room
            self.synced = True
            await self.resend_pending()

    async def apply(self, event: dict, how: str, asked: bool = False) -> None:
        """Apply the next number; ignore one already applied; resync on a gap."""
        self.deliveries.append((self.connections, how, event))
        seq = event["seq"]
        if self.last_seq is None:
            return
        if seq <= self.last_seq:
            if not asked:  # only a resync the client asked for may repeat events
                self.duplicates.append((seq, how, self.connections))
            return
        if seq > self.last_seq + 1:
            if self.resync_asked is None:
                self.gaps.append((self.last_seq, seq, how, self.connections))
            await self.ask_resync()
            return
        self.last_seq = seq
        self.events[seq] = event

    async def ask_resync(self) -> None:
        if self.resync_asked is not None:
            return
        self.resync_asked = new_id()
        await self.send({"type": "resync", "id": self.resync_asked, "since": self.last_seq})

    def on_presence(self, frame: dict) -> None:
        if frame["state"] == "join":
            self.online.add(frame["user"]["id"])
        elif frame["state"] == "leave":
            self.online.discard(frame["user"]["id"])
        elif frame["state"] == "online":
            self.online = {user["id"] for user in frame["online"]}

    async def on_pong(self, frame: dict) -> None:
        self.ping_sent_at = None
        # The server sent more than the client holds: something was lost.
        if self.synced and (frame.get("seq") or 0) > self.last_seq:
            await self.ask_resync()

    def on_answer(self, frame: dict) -> None:
        sent = self.intents.get(frame.get("id"))
        if sent is None:
            self.stray_answers.append(frame)
            return
        sent.answers.append(frame)
        if frame.get("repeat"):
            self.repeats += 1
        self.pending.pop(sent.id, None)

    # ------------------------------------------------------------ intents

    async def intend(self, kind: str, **body) -> Sent:
        sent = Sent(new_id(), kind, {})
        sent.frame = {"type": kind, "id": sent.id, **body}
        self.intents[sent.id] = sent
        self.pending[sent.id] = sent
        await self.transmit(sent)
        return sent

    async def transmit(self, sent: Sent) -> None:
        sent.connection = self.connections
        if await self.send(sent.frame):
            sent.sends += 1

    async def resend_pending(self) -> None:
        """Every intent sent on an earlier connection and never answered."""
        for sent in list(self.pending.values()):
            if sent.connection < self.connections:
                self.resends += 1
                await self.transmit(sent)

    async def traffic(self, stop: asyncio.Event, rate: float) -> None:
        """Intents at about `rate` a second, while the client is in the room."""
        while not stop.is_set() and not self.leaving:
            await asyncio.sleep(self.rng.expovariate(rate))
            if self.synced and not stop.is_set() and not self.leaving:
                await self.act()

    async def act(self) -> None:
        role, draw = self.user["role"], self.rng.random()
        if role == "observer" or draw < 0.35:
            await self.intend("chat", text=f"{self.name} says {new_id()}")
        elif draw < 0.65:
            hidden = role == "gm" and self.rng.random() < 0.4
            await self.intend("roll", request=ROLL, visibility="gm" if hidden else "public")
        else:
            token = self.rng.choice(self.tokens)
            x, y = self.move_target(token)
            await self.intend("token.move", token=token, x=x, y=y)

    def move_target(self, token: int) -> tuple[int, int]:
        """A square the token is surely not on: a move there would change
        nothing and leave no event to count. Each tab of a user keeps to its
        own columns (even or odd) and never names its own last square twice;
        the first row and the last, where the tokens start, are avoided."""
        columns = range(self.tab % 2, MAP_SIDE, 2)
        while True:
            square = (self.rng.choice(columns), self.rng.randrange(1, MAP_SIDE - 1))
            if square != self.last_square.get(token):
                self.last_square[token] = square
                return square
