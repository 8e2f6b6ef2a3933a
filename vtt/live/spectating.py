"""A spectator's socket: a room watched through a GM's link, by someone
with no account (docs/realtime.md, "Spectators").

It is a member's socket in every way that costs the server: the same hub,
the same frame texts rendered once per visibility class (an observer's,
through the party's sight), the same shared snapshot reads (every
spectator of a room asks for the same view, so those joining together
share one). What differs:

- It enters by its link's token, not a session: the link must be open
  (not revoked, not expired), and its socket closes when it is revoked
  (the hub's `room.link_closed`) or at its expiry, with 4404.
- Its viewer is an observer of no user (SPECTATOR): no whisper is to or
  from it, no roll is its own, so hidden, self and blind rolls reach it
  redacted, and a GM's drawings, notes and markers never.
- It may not act: every intent but a ping and a resync is refused with
  `forbidden`, "a spectator watches only", and the socket stays.
- With a delay, everything the room sends it (its snapshot included) is
  held that many seconds before it goes out, so it always shows the table
  as it was at least that long ago; pongs and refusals go at once (they
  tell nothing of the room), and drag previews are dropped.
- It is counted in the room's presence, never named."""

import asyncio
import collections
import logging
from dataclasses import dataclass
from urllib.parse import parse_qs

from django.utils import timezone

from vtt.spectators.selectors import link_for_token, link_is_open
from vtt.tabletop.models import Role

from . import admission, db, handshake, protocol
from .broadcast import publish
from .consumer import RoomConsumer
from .delivery import Delivery
from .hub import dumps

logger = logging.getLogger(__name__)

SPECTATOR = 0  # the user id of no user: a spectator is never an event's actor or addressee
NAME = "Spectator"
REFUSAL = "a spectator watches only"
# Frames held back for a delayed spectator, at most: past it the socket is
# closed as a client too slow (it reconnects and starts from a snapshot).
MAX_HELD_FRAMES = 20_000
MAX_HELD_BYTES = 16 * 1024 * 1024
# How often a socket asks whether its link is still open: a revocation
# closes it at once through the hub; this is for a word pub/sub lost.
LINK_CHECK = 60.0


@dataclass(frozen=True)
class Watching:
    link: dict  # selectors.link_for_token
    version: int
    since: int | None


async def admit(scope, token: str) -> Watching | handshake.Refused:
    """Whether a socket may watch through `token`'s link: the same connect
    limit per address as a member's, then the link, open now."""
    if not admission.connect_limits.allow(handshake._client_address(scope)):
        return handshake.Refused(
            protocol.CLOSE_FLOODING, "too many connections from your address; wait"
        )
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    version = query.get("v", ["1"])[0]
    if version not in protocol.VERSIONS:
        return handshake.Refused(protocol.CLOSE_BAD_VERSION)
    link = await db.run(link_for_token, token)
    if link is None:
        return handshake.Refused(protocol.CLOSE_LINK_CLOSED, "this link is no longer valid")
    return Watching(link, int(version), handshake._whole(query.get("since", [None])[0]))


def place_of(link: dict) -> dict:
    """A spectator's place in the room, as a member's reads (room_reads.membership)."""
    return {
        "campaign": link["campaign"],
        "role": Role.OBSERVER,
        "user": {"id": SPECTATOR, "name": NAME},
        "own_vision": False,
    }


class DelayedOutbox:
    """An outbox that holds every frame `delay` seconds before handing it
    to the socket's own (`outbox`), in order, with one task per socket."""

    def __init__(self, outbox, delay: float, on_overflow):
        self.outbox = outbox
        self.delay = delay
        self.protocol = outbox.protocol
        self._on_overflow = on_overflow
        self._held: collections.deque = collections.deque()  # (due, text)
        self._bytes = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.closed = False

    def push(self, text: str, key=None, wire: bytes | None = None) -> None:
        if self.closed or key is not None:
            return  # a drag preview is worth nothing late
        if len(self._held) >= MAX_HELD_FRAMES or self._bytes + len(text) > MAX_HELD_BYTES:
            self.close()
            self._on_overflow()
            return
        loop = asyncio.get_running_loop()
        self._held.append((loop.time() + self.delay, text))
        self._bytes += len(text)
        if self._task is None:
            self._task = loop.create_task(self._release())
        self._wake.set()

    async def _release(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            while not self._held:
                self._wake.clear()
                await self._wake.wait()
            due, text = self._held[0]
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            self._held.popleft()
            self._bytes -= len(text)
            self.outbox.push(text)

    @property
    def pending(self) -> int:
        return len(self._held) + self.outbox.pending

    async def drain(self) -> None:
        await self.outbox.drain()  # what is held back is not waited for

    def close(self) -> None:
        self.closed = True
        self._held.clear()
        self._bytes = 0
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.outbox.close()

    async def send_close(self, code: int, reason: str = "") -> None:
        await self.outbox.send_close(code, reason)


class SpectatorDelivery(Delivery):
    """A member's delivery for a viewer with no membership: what joining,
    presence and the socket's own asks are for a spectator."""

    watching = True

    def __init__(self, socket, link: dict, version: int):
        super().__init__(socket, place_of(link), version)
        self.user = None  # whoever the browser is logged in as, it watches as no one
        self.link = link

    async def join(self, since: int | None) -> bool:
        await self.hub.join(self)
        self.joined = True
        await self.count_in()
        if since is None:
            await self.send_snapshot("connect")
        else:
            await self.send_resync(since, None, welcome=True)
        return True

    async def count_in(self):
        try:
            count = await self.presence.watcher_join(self.room, self.conn_id)
        except Exception:  # not worth a failed connect: the heartbeat counts it
            logger.warning("presence: could not count a spectator in", exc_info=True)
            return
        self.hub.publish_aside(self.room, spectators_frame(count))

    async def presence_out(self):
        """Counted out, never named."""
        try:
            count = await self.presence.watcher_leave(self.room, self.conn_id)
            self.hub.publish_aside(self.room, spectators_frame(count))
        except Exception:
            logger.exception("presence: could not count a spectator out")

    def answer(self, intent: protocol.Intent):
        """A ping is answered at once (its `seq` says nothing of a delayed
        room); a drag preview is refused."""
        if intent.type == "ping":
            pong = {"type": "pong", "id": intent.id}
            if not self.link["delay_seconds"]:
                pong["seq"] = self.last_seq
            self.socket.live_outbox.push(protocol.dumps(pong))
        else:
            self.socket.reply_error(intent.id, "forbidden", REFUSAL)

    async def take(self, intent: protocol.Intent) -> bool:
        """A ping and a resync are answered; every other intent is refused,
        before anything of the room is read or written: none is a command."""
        if intent.type == "ping":
            self.answer(intent)
        elif intent.type == "resync":
            await self.send_resync(intent.fields["since"], intent.id)
        else:
            self.reply_error(intent.id, "forbidden", REFUSAL)
        return True

    def at_once(self, intent: protocol.Intent):
        """Only a ping is answered straight off the socket; the rest is refused in turn."""
        return (lambda: self.answer(intent)) if intent.type == "ping" else None

    def reply_error(self, id_, code, message, field=None, **extra):
        self.socket.live_outbox.push(protocol.error_frame(id_, code, message, field, **extra))

    def link_closed(self, link_id: int):
        if link_id == self.link["id"]:
            self.removed = True  # not one more frame of the room
            self.socket.spawn(self.socket.close(protocol.CLOSE_LINK_CLOSED, flush=False))

    def membership_changed(self, role):
        return None  # no membership to change


def spectators_frame(count: int) -> str:
    """How many watch the room: presence's count, with no names."""
    return dumps({"type": "presence", "state": "spectators", "count": count})


class SpectatorConsumer(RoomConsumer):
    """The room's consumer for a socket that watches through a link."""

    link: dict | None = None

    async def enter(self):
        self.live_outbox = self.outbox  # pongs and refusals: never held back
        token = self.scope["url_route"]["kwargs"]["token"]
        admitted = await admit(self.scope, token)
        if isinstance(admitted, handshake.Refused):
            return await self.close(admitted.code, reason=admitted.reason)
        self.link = admitted.link
        self.room = self.link["campaign_id"]
        self.user_id = SPECTATOR
        if self.link["delay_seconds"]:
            self.outbox = DelayedOutbox(self.outbox, self.link["delay_seconds"], self.too_slow)
        self.delivery = SpectatorDelivery(self, self.link, admitted.version)
        self.spawn(self.keep_link())
        await self.delivery.join(admitted.since)

    async def keep_link(self):
        """Close at the link's expiry, or once it is found revoked."""
        expires_at = self.link["expires_at"]
        while True:
            wait = LINK_CHECK
            if expires_at is not None:
                wait = min(wait, max((expires_at - timezone.now()).total_seconds(), 0))
            await asyncio.sleep(wait)
            if not await db.run(link_is_open, self.link["id"]):
                break
        self.delivery.removed = True  # not one more frame of the room
        await self.close(protocol.CLOSE_LINK_CLOSED, flush=False, reason="the link is closed")

    def answer_frame(self, text: str):
        self.live_outbox.push(text)


def on_link_closed(sender, campaign_id: int, link_id: int, **kwargs) -> None:
    """A link revoked (vtt.spectators.signals): to every process serving the
    room, whose hub closes the sockets watching through it."""
    publish({"type": "room.link_closed", "room": campaign_id, "link": link_id})
