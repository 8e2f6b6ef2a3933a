"""The process's side of every room: one subscription per room per process,
not one per socket.

Each server process (each event loop) has one Hub. It holds one channel of
the channel layer, added to the group of every room that has a connection
here. A room's broadcast arrives once per process and the hub hands the
ready frame texts to its local connections in sequence order:

- The layer may deliver out of order (two processes commit 5 and 6, and 6
  is published first) or lose a message (Redis pub/sub is at-most-once). The
  hub holds an event that comes early, and if the gap is still open after a
  short grace it reads the missing events from the log. Late duplicates are
  dropped. Its connections therefore see every sequence number once, in order.
- A heartbeat compares each room's last forwarded number with the log now
  and then, so even a lost *last* event shows up within seconds; it also
  keeps this process's presence entries alive (putting back what a
  restarted Redis lost) and closes sockets that have gone silent.
- One connection that fails to take a frame never stops the others of the
  room from getting it.

Publishing goes through the hub too when the change was made on its loop's
worker thread: one ordered publisher per process, no extra event loop.

Drag previews, the bulk of a room's traffic, go through Redis only when
another process serves the room too. Each hub says so in the room's group
when it opens the room and at every heartbeat, and answers a newcomer at
once; a process not heard from for a few heartbeats counts as gone. Alone,
a hub hands a preview to its own sockets directly: the round trip through
Redis and back was a quarter of a process holding many small rooms. A
preview is never logged and may be merged away anyway, so the one a newcomer
misses before it is heard (or for a heartbeat, if Redis lost its word) is
no loss. A committed event goes to the process's own sockets at once too,
and through Redis only when the room is shared or not open here: a
newcomer that misses one reads it from the log, as it would a lost
broadcast. Presence and vision frames are published as before."""

import asyncio
import collections
import contextlib
import contextvars
import logging

from channels.layers import get_channel_layer

from . import db, receipts, room_reads
from . import presence as presence_store
from .outbox import text_frame
from .protocol import dumps

logger = logging.getLogger(__name__)

GROUP_PREFIX = "vtt-room."
GAP_GRACE = 0.05  # seconds to wait for an early event's predecessors
HEARTBEAT = 3.0
REPAIR_PAGE = 500
# A socket that sends nothing for this long is closed (clients ping after
# a second of quiet; a half-open connection never will).
SILENCE_LIMIT = 75.0
PRUNE_EVERY = 20  # heartbeats between two clean-ups of expired intent receipts
RECOUNT_BEATS = 3  # heartbeats that send the online list after presence was rebuilt
NEIGHBOUR_BEATS = 3  # heartbeats without a word before another process counts as gone


def room_group(room: int) -> str:
    return f"{GROUP_PREFIX}{room}"


class RoomFeed:
    """One room as seen by one process: its local connections and the last
    sequence number handed to them."""

    def __init__(self, hub: "Hub", room: int):
        self.hub, self.room = hub, room
        self.members: set = set()
        self.last: int | None = None  # unknown until the subscription is in place
        self.held: dict[int, dict] = {}
        self.ready = asyncio.Event()
        self.repairing: asyncio.Task | None = None

    def offer(self, message: dict) -> None:
        seq = message["seq"]
        if self.last is not None and seq <= self.last:
            return
        self.held[seq] = message
        self.flush()

    def flush(self) -> None:
        if self.last is None:
            return
        for seq in [s for s in self.held if s <= self.last]:
            del self.held[seq]
        while self.last + 1 in self.held:
            message = self.held.pop(self.last + 1)
            self.last += 1
            for conn in tuple(self.members):
                deliver(conn, conn.push_event, message)
        if self.held and self.repairing is None:
            self.repairing = self.hub.spawn(self._repair())

    async def _repair(self) -> None:
        try:
            await asyncio.sleep(GAP_GRACE)
            await self.catch_up()
        finally:
            self.repairing = None
        if self.held:
            self.flush()

    async def catch_up(self) -> None:
        """Read what the log has beyond the last forwarded number."""
        while self.last is not None:
            if self.held and min(self.held) == self.last + 1:
                self.flush()
                continue
            messages = await db.run(room_reads.rendered_since, self.room, self.last, REPAIR_PAGE)
            if not messages:
                return
            logger.info("room %s: read %d missed event(s) from the log", self.room, len(messages))
            for message in messages:
                self.offer(message)
            if len(messages) < REPAIR_PAGE:
                return


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.layer = get_channel_layer()
        self.rooms: dict[int, RoomFeed] = {}
        self.channel: str | None = None
        self._reader: asyncio.Task | None = None
        self._beat: asyncio.Task | None = None
        self._outgoing: collections.deque = collections.deque()
        self._publisher: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        self._opening = asyncio.Lock()
        self.recounting: dict[int, int] = {}  # room -> beats left to send its online list
        # room -> the other processes' hubs serving it, with when each last said so
        self.neighbours: dict[int, dict[str, float]] = {}

    # ------------------------------------------------------------ membership

    async def join(self, conn) -> None:
        """Start forwarding the room's events to `conn`. Returns once the
        subscription is live: anything committed after this is delivered."""
        feed = self.rooms.get(conn.room)
        if feed is None:
            feed = self.rooms[conn.room] = RoomFeed(self, conn.room)
            try:
                await self._open()
                await self._subscribe(conn.room)
                self._say_here(conn.room)
                feed.last = await db.run(room_reads.current_seq, conn.room)
            except BaseException:
                if self.rooms.get(conn.room) is feed:
                    del self.rooms[conn.room]
                feed.ready.set()
                raise
            feed.ready.set()
            feed.flush()
        else:
            await feed.ready.wait()
            if self.rooms.get(conn.room) is not feed:
                return await self.join(conn)
        feed.members.add(conn)

    async def _subscribe(self, room: int) -> None:
        """Add this process to the room's group, a second time if the first
        fails: a Redis that restarted leaves dead connections in the layer's
        pool, and the first use of one fails and drops it. A failed add is
        undone, or the layer would count the channel in the group and never
        subscribe it. A second failure is the joining socket's to report."""
        group = room_group(room)
        for attempt in (1, 2):
            try:
                await self.layer.group_add(group, self.channel)
                return
            except Exception:
                with contextlib.suppress(Exception):
                    await self.layer.group_discard(group, self.channel)
                if attempt == 2:
                    raise
                logger.warning("room %s: joining its group failed; trying again", room)

    async def leave(self, conn) -> None:
        feed = self.rooms.get(conn.room)
        if feed is None:
            return
        feed.members.discard(conn)
        if not feed.members and feed.ready.is_set():
            del self.rooms[conn.room]
            self.neighbours.pop(conn.room, None)
            if feed.repairing is not None:
                feed.repairing.cancel()
            with contextlib.suppress(Exception):
                await self.layer.group_discard(room_group(conn.room), self.channel)
            if not self.rooms:
                await self._close()

    async def _open(self) -> None:
        async with self._opening:
            if self.channel is None:
                try:
                    self.channel = await self.layer.new_channel("vtt-hub.")
                except Exception:  # a dead pooled connection, as in _subscribe
                    self.channel = await self.layer.new_channel("vtt-hub.")
                self._reader = self.spawn(self._read())
                self._beat = self.spawn(self._heartbeat())

    async def _close(self) -> None:
        """No room is open here any more: give the layer its channel back."""
        async with self._opening:
            if self.rooms or self.channel is None:
                return
            tasks = [t for t in (self._reader, self._beat) if t is not None]
            self._reader = self._beat = self.channel = None
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # ------------------------------------------------------------ receiving

    async def _read(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            try:
                self.dispatch(message)
            except Exception:
                logger.exception("room hub: could not dispatch %s", message.get("type"))

    def dispatch(self, message: dict) -> None:
        feed = self.rooms.get(message.get("room"))
        if feed is None:
            return
        kind = message.get("type")
        if kind == "room.batch":
            for item in message["items"]:
                self.dispatch(item)
        elif kind == "room.event":
            feed.offer(message)
        elif kind == "room.aside":
            # Framed once for the room: a drag preview goes to every member.
            wire = text_frame(message["text"].encode())
            for conn in tuple(feed.members):
                deliver(conn, conn.push_aside_message, message, wire)
        elif kind == "room.link_closed":
            # A spectator link revoked: the sockets watching through it close.
            for conn in tuple(feed.members):
                if conn.watching:
                    deliver(conn, conn.link_closed, message["link"])
        elif kind == "room.hub" and message.get("hub") != self.channel:
            known = self.neighbours.setdefault(feed.room, {})
            newcomer = message["hub"] not in known
            known[message["hub"]] = self.loop.time()
            if newcomer and not message.get("answer"):
                self._say_here(feed.room, answer=True)  # so it hears of us at once

    async def _heartbeat(self) -> None:
        store = presence_store.get_presence()
        beats = 0
        while True:
            await asyncio.sleep(HEARTBEAT)
            beats += 1
            try:
                await self._beat_once(store)
                if beats % PRUNE_EVERY == 0:
                    await db.run(receipts.receipts_prune)
            except Exception:
                logger.exception("room hub heartbeat failed")

    async def _beat_once(self, store) -> None:
        rooms = {r: f for r, f in self.rooms.items() if f.last is not None}
        if not rooms:
            return
        latest = await db.run(room_reads.current_seqs, rooms)
        for room, feed in rooms.items():
            if latest.get(room, 0) > feed.last and feed.repairing is None:
                feed.repairing = self.spawn(self._catch_up(feed))
        for room, feed in rooms.items():
            self._say_here(room)
            members = [(c.user_id, c.conn_id, c.me["name"]) for c in feed.members if not c.watching]
            # Spectators are counted apart, never named (vtt.live.spectating).
            await store.refresh_watchers(room, [c.conn_id for c in feed.members if c.watching])
            # Connections Redis had lost (it restarted empty, or pruned a
            # stalled process) are counted again; whoever left meanwhile was
            # lost without a word. So this process's sockets get the whole
            # list, again for a few beats: the other processes put theirs
            # back within a beat, and pub/sub is not yet back to carry it.
            if await store.refresh(room, members):
                self.recounting[room] = RECOUNT_BEATS
            if self.recounting.get(room):
                self.recounting[room] -= 1
                text = online_frame(await store.online(room))
                for conn in tuple(feed.members):
                    deliver(conn, conn.push_aside, text)
            for user in await store.prune(room):
                self.publish_aside(room, presence_frame("leave", user), about=user["id"])
        for conn in [c for feed in rooms.values() for c in feed.members]:
            if conn.silent_for() > SILENCE_LIMIT:
                conn.silent()

    async def _catch_up(self, feed: RoomFeed) -> None:
        try:
            await feed.catch_up()
        finally:
            feed.repairing = None

    # ------------------------------------------------------------ publishing

    def publish_soon(self, message: dict) -> None:
        """Queue a message for the room's group (on the loop; events come
        through publish_event). One publisher sends the queue in order, and
        whatever piled up while a publish was on its way goes out as one
        batch per room: under load a single layer message carries many
        events, presence and vision frames."""
        self._outgoing.append(message)
        if self._publisher is None or self._publisher.done():
            self._publisher = self.spawn(self._publish_all())

    def publish_event(self, message: dict) -> None:
        """A committed event (on the loop, from the committing thread): to
        this process's sockets of the room at once, and to the room's group
        unless this process serves the room alone. Its own copy coming back
        through Redis would be dropped as already forwarded; sent straight,
        it skips that round trip. A process that opens the room before it is
        heard here reads what it missed from the log at its next event or
        heartbeat, as it does for a broadcast Redis lost."""
        room = message["room"]
        if room not in self.rooms or self.shared(room):
            self.publish_soon(message)
        self.dispatch(message)

    def publish_aside(self, room: int, text: str, **extra) -> None:
        """Something for the room that is not in the log (presence, drags)."""
        self.publish_soon({"type": "room.aside", "room": room, "text": text, **extra})

    def publish_preview(self, room: int, text: str, **extra) -> None:
        """A drag preview: to the room's group when another process serves
        the room, else straight to this process's sockets."""
        message = {"type": "room.aside", "room": room, "text": text, **extra}
        if self.shared(room):
            self.publish_soon(message)
        else:
            self.dispatch(message)

    def shared(self, room: int) -> bool:
        """Whether another process has said lately that it serves the room."""
        known = self.neighbours.get(room)
        if not known:
            return False
        since = self.loop.time() - NEIGHBOUR_BEATS * HEARTBEAT
        for hub, heard in list(known.items()):
            if heard < since:
                del known[hub]
        return bool(known)

    def _say_here(self, room: int, answer: bool = False) -> None:
        """Tell the room's other processes that this one serves it too."""
        message = {"type": "room.hub", "room": room, "hub": self.channel}
        self.publish_soon({**message, "answer": True} if answer else message)

    @property
    def unpublished(self) -> int:
        return len(self._outgoing)

    async def _publish_all(self) -> None:
        while self._outgoing:
            rooms: dict[int, list] = {}
            while self._outgoing:
                message = self._outgoing.popleft()
                rooms.setdefault(message["room"], []).append(message)
            # Every room's batch at once: one after another, each publish
            # waited for its own round trip to Redis, which was the largest
            # single cost of a process holding many small rooms. A room's
            # next batch still waits for this one, so its order holds.
            await asyncio.gather(*(self._publish(room, items) for room, items in rooms.items()))

    async def _publish(self, room: int, items: list) -> None:
        batch = (
            items[0] if len(items) == 1 else {"type": "room.batch", "room": room, "items": items}
        )
        try:
            await self.layer.group_send(room_group(room), batch)
        except Exception:
            # Events are in the log: the room's processes catch up from it.
            logger.exception("room hub: could not publish to room %s", room)

    def call_from_thread(self, func, *args) -> None:
        """Run `func(*args)` on the loop, from a committing thread. In a
        context of its own: the thread's (asgiref's marks, a live intent's
        all_or_nothing) must not follow into the tasks it starts, such as a
        socket's fresh snapshot or a room's fog drawing. Raises RuntimeError
        when the loop has closed."""
        self.loop.call_soon_threadsafe(func, *args, context=contextvars.Context())

    def spawn(self, coro) -> asyncio.Task:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def deliver(conn, push, *args, **kwargs) -> None:
    """Hand one frame to one connection. A connection that fails (a socket
    closing under it) is dropped with an error logged; the connections after
    it in the room still get the frame."""
    try:
        push(*args, **kwargs)
    except Exception:
        logger.exception("room hub: a connection failed to take a frame; closing it")
        conn.broken()


def presence_frame(state: str, user: dict) -> str:
    return dumps({"type": "presence", "state": state, "user": user})


def online_frame(users: list[dict]) -> str:
    """Everyone online, replacing what a client holds."""
    return dumps({"type": "presence", "state": "online", "online": users})


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def get_hub() -> Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        hub = _hubs[loop] = Hub(loop)
    return hub


def running_hub() -> Hub | None:
    """A hub whose loop is running in this process (to publish through)."""
    for loop, hub in list(_hubs.items()):
        if loop.is_running() and not loop.is_closed():
            return hub
    return None
