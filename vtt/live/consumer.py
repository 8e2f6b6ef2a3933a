"""The room consumer: one per websocket, and its transport only: accept,
parse, send, close. Who may enter is vtt.live.handshake; a frame that
changes the room goes to the command layer (vtt.live.commands); what the
member is handed (snapshot, resync, the room's events, drag and vision
previews) is the socket's delivery (vtt.live.delivery), which the process's
hub hands the room's frames to, already encoded; the delivery also takes
the intents that change nothing (`take`). Under daphne, pings and drag and
stroke previews are read off the socket and answered in the reactor's
callback (vtt.live.inbox, `answer_now`) when nothing of the socket's is
waiting ahead of them; every other frame comes through dispatch.

However a socket ends (a disconnect, a handler that raised, the task
cancelled by the server), it leaves its room: out of the hub, out of
presence. A handler that raises on a frame answers `server_error` and the
socket stays."""

import asyncio
import contextlib
import logging
import uuid

from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer

from . import admission, commands, handshake, protocol
from .delivery import Delivery
from .inbox import Inbox
from .limits import REFUSED_COST, ConnectionLimits
from .outbox import Outbox

logger = logging.getLogger(__name__)


class RoomConsumer(AsyncConsumer):
    # No channel of its own: the Hub delivers (see the module docstring).
    channel_layer_alias = "vtt.live: deliveries come through the hub"
    busy = False  # dispatching a message: frames wait their turn behind it
    inbox = None
    delivery: Delivery | None = None  # once admitted

    async def __call__(self, scope, receive, send):
        self.receive = receive  # read while joining too (handshake.join_watching)
        try:
            await super().__call__(scope, receive, send)
        except GeneratorExit:  # the loop is being torn down: nothing can run
            raise
        except BaseException:
            # A crash or a cancelled task (a disconnect leaves in dispatch):
            # shielded, so the leaving finishes.
            await asyncio.shield(self.leave_room())
            raise

    @property
    def joined(self) -> bool:
        return self.delivery is not None and self.delivery.joined

    async def dispatch(self, message):
        kind = message["type"]
        if kind == "websocket.disconnect":
            await self.leave_room()
            raise StopConsumer()
        self.busy = True
        try:
            if kind == "websocket.receive":
                await self.on_frame(message.get("text"), message.get("bytes"))
            elif kind == "websocket.connect":
                early = await handshake.join_watching(
                    self.on_connect(), self.receive, self._leaving, self._left_while_joining
                )
                if early is None:  # the client left while joining
                    await self.leave_room()
                    raise StopConsumer()
                for frame in early:
                    await self.dispatch(frame)
        except StopConsumer:
            raise
        except Exception:
            logger.exception("room %s: %s failed", getattr(self, "room", "?"), kind)
            if kind == "websocket.receive" and self.joined:
                self.reply_error(None, "server_error", "the server could not do that")
            else:
                await self.close(protocol.CLOSE_SERVER_ERROR, flush=False)
        finally:
            self.busy = False
            if kind == "websocket.receive" and self.inbox is not None:
                self.inbox.done()

    # ------------------------------------------------------------ accepting

    def _leaving(self):
        self.closing = True

    def _left_while_joining(self, joining: asyncio.Task):
        if not joining.cancelled():
            joining.exception()  # retrieved: the client is gone, nobody to tell
        if self.joined:
            asyncio.ensure_future(self.leave_room())

    async def on_connect(self):
        self.conn_id = uuid.uuid4().hex
        self.closing = False
        self.limits = ConnectionLimits()
        self.tasks: set[asyncio.Task] = set()
        self.heard = asyncio.get_running_loop().time()
        self.outbox = Outbox(self.base_send, self.too_slow)
        admission.waiting(self.conn_id)
        # Under daphne, frames are read off the socket here (vtt.live.inbox);
        # set up before the accept, so no frame can come before it.
        server_side = self.outbox.protocol
        if server_side is not None:
            handshake.refuse_large_messages(server_side)
        self.inbox = None if server_side is None else Inbox(server_side, self.answer_now)
        # A close code can only be given once the handshake is accepted.
        await self.base_send({"type": "websocket.accept"})
        await self.enter()

    async def enter(self):
        """Admit the socket to its room (a spectator's by its link: spectating)."""
        self.room = self.scope["url_route"]["kwargs"]["campaign_id"]
        admitted = await handshake.admit(self.scope, self.room)
        if isinstance(admitted, handshake.Refused):
            return await self.close(admitted.code, reason=admitted.reason)
        self.user_id = self.scope["user"].pk
        self.delivery = Delivery(self, admitted.place, admitted.version)
        if not await self.delivery.join(admitted.since):
            return await self.close(protocol.CLOSE_NOT_MEMBER)

    # ------------------------------------------------------------ receiving

    async def on_frame(self, text, data):
        if not self.joined or self.closing:
            return
        self.heard = asyncio.get_running_loop().time()
        try:
            intent = protocol.parse_frame(text, data)
        except protocol.ProtocolError as error:
            self.answer_frame(error.frame())
            if error.malformed and not self.limits.forgive_garbage():
                await self.close(protocol.CLOSE_GARBAGE)
            return
        if not self.limits.allow_intent():
            self.reply_error(intent.id, "rate_limited", "too many intents; slow down")
            if not self.limits.forgive_garbage(REFUSED_COST):
                await self.close(protocol.CLOSE_FLOODING)
            return
        if not await self.delivery.take(intent):  # a command: it changes the room
            self.outbox.push(await commands.carry_out(self.delivery, intent))

    def answer_now(self, text: str) -> bool:
        """A text frame straight off the socket (vtt.live.inbox): answered
        here when it is a well-formed ping, drag or stroke preview within
        the rate limit and nothing of this socket's is being dispatched; otherwise
        False, and it goes through dispatch in its turn like any frame."""
        if self.busy or not self.joined or self.closing:
            return False
        try:
            intent = protocol.parse_frame(text, None)
        except protocol.ProtocolError:
            return False
        act = self.delivery.at_once(intent)
        if act is None or not self.limits.allow_intent():
            return False
        self.heard = asyncio.get_running_loop().time()
        try:
            act()
        except Exception:
            logger.exception("room %s: %s failed", self.room, intent.type)
            self.reply_error(intent.id, "server_error", "the server could not do that")
        return True

    def reply_error(self, id_, code, message, field=None):
        self.answer_frame(protocol.error_frame(id_, code, message, field))

    def answer_frame(self, text: str):
        """An answer to the socket's own frame (a spectator's is never delayed)."""
        self.outbox.push(text)

    # ------------------------------------------------------------ closing

    async def close(self, code: int, flush: bool = True, reason: str = ""):
        """Close with `code` (and `reason`); with `flush`, after the frames
        already queued (the error that explains the close) have gone out."""
        if self.closing:
            return
        self.closing = True
        admission.admitted(self.conn_id)
        if flush:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.outbox.drain(), 1.0)
        self.outbox.close()
        await self.outbox.send_close(code, reason)

    def silent_for(self) -> float:
        """Seconds since the client last sent a frame (the hub closes it past a bound)."""
        return asyncio.get_running_loop().time() - self.heard

    def silent(self):
        if not self.closing:
            self.spawn(self.close(protocol.CLOSE_SILENT, flush=False))

    def broken(self):
        """Handing this socket a frame failed: it is closing under us."""
        if not self.closing:
            self.spawn(self.close(protocol.CLOSE_SERVER_ERROR, flush=False))

    def too_slow(self):
        if not self.closing:
            # Worth an operator's eye: a client (or a proxy) that stopped reading.
            logger.warning(
                "room %s: closing a socket of user %s that stopped reading (%s)",
                self.room,
                self.user_id,
                protocol.CLOSE_TOO_SLOW,
            )
            self.spawn(self.close(protocol.CLOSE_TOO_SLOW, flush=False))

    async def leave_room(self):
        """Out of the hub and out of presence; safe to call more than once."""
        self.closing = True
        if getattr(self, "conn_id", None) is not None:
            admission.admitted(self.conn_id)
        if getattr(self, "outbox", None) is not None:
            self.outbox.close()
        if self.inbox is not None:
            self.inbox.close()
        for task in list(getattr(self, "tasks", ())):
            task.cancel()
        if self.delivery is not None:
            await self.delivery.leave()

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task):
        self.tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        # A task that failed left this socket in a state nobody knows: close
        # it, and the client resyncs when it reconnects.
        logger.error("room %s: a socket's task failed", self.room, exc_info=task.exception())
        self.broken()
