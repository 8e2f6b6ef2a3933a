"""The room consumer: one per websocket. It admits members only, sends the
snapshot or the missed events, carries out intents through the services and
forwards the room's events, each as this member may see it.

Deliveries do not come through a channel of their own: the process's Hub
(vtt.live.hub) hands them over, already encoded, so a broadcast costs one
layer message per process and a forwarded text per socket. Handlers that
only forward skip Channels' per-message database clean-up hop; every
database call goes through vtt.live.db, which does its own. The other way,
under daphne, pings and drag previews are read off the socket and answered
in the reactor's callback (vtt.live.inbox, `answer_now`) when nothing of the
socket's is waiting ahead of them; every other frame comes through dispatch.

However a socket ends (a disconnect, a handler that raised, the task
cancelled by the server), it leaves its room: out of the hub, out of
presence. A handler that raises on a frame answers `server_error` and the
socket stays."""

import asyncio
import contextlib
import logging
import uuid
from types import SimpleNamespace
from urllib.parse import parse_qs

from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from django.conf import settings

from vtt.accounts.client_address import client_address
from vtt.rules import RulesError
from vtt.tabletop import policy, vision
from vtt.tabletop.models import Role
from vtt.tabletop.serialize import table_tokens, token_data
from vtt.tabletop.services.errors import ServiceError, StaleVersion
from vtt.tabletop.visibility import Viewer
from vtt.tabletop.vision import PARTY

from . import admission, db, group_commit, intents, protocol, room_reads
from .hub import get_hub, presence_frame
from .inbox import Inbox
from .limits import DRAG_BURST, DRAG_RATE, REFUSED_COST, ConnectionLimits, TokenBucket
from .outbox import Outbox
from .presence import get_presence
from .render import text_for

logger = logging.getLogger(__name__)

MAX_BUFFERED = 5000  # live messages held while a snapshot or resync is read
JOIN_CANCEL_WAIT = 2.0  # seconds a cancelled joining is given to end


# Intents answered without waiting for anything: taken at once off the
# socket when nothing of the socket's is waiting ahead of them.
AT_ONCE = frozenset({"ping", "token.drag"})


class RoomConsumer(AsyncConsumer):
    # No channel of its own: the Hub delivers (see the module docstring).
    channel_layer_alias = "vtt.live: deliveries come through the hub"
    busy = False  # dispatching a message: frames wait their turn behind it
    inbox = None

    async def __call__(self, scope, receive, send):
        self.receive = receive  # read while joining too (connect_watching)
        try:
            await super().__call__(scope, receive, send)
        except GeneratorExit:  # the loop is being torn down: nothing can run
            raise
        except BaseException:
            # A crash or a cancelled task (a disconnect leaves in dispatch):
            # shielded, so the leaving finishes.
            await asyncio.shield(self.leave_room())
            raise

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
                early = await self.connect_watching()
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

    # ------------------------------------------------------------ joining

    async def connect_watching(self) -> list | None:
        """on_connect, while reading what the client sends meanwhile: a
        client that leaves stops its joining at once (a snapshot it would
        never read must not hold a turn, nor the process's shutdown of the
        socket). Returns the frames that came meanwhile, to be dispatched
        in their order, or None when the client left."""
        joining = asyncio.ensure_future(self.on_connect())
        early: list = []
        try:
            while True:
                reading = asyncio.ensure_future(self.receive())
                await asyncio.wait((joining, reading), return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()  # a queue's get gives nothing up when cancelled
                    with contextlib.suppress(asyncio.CancelledError):
                        await reading
                    break
                message = reading.result()
                if message["type"] == "websocket.disconnect":
                    self.closing = True
                    joining.cancel()
                    # Not waited for long: a call into a Redis client that
                    # lost its server may sit on its cancellation. Should
                    # the joining end in the room after all, it leaves then.
                    await asyncio.wait((joining,), timeout=JOIN_CANCEL_WAIT)
                    joining.add_done_callback(self._left_while_joining)
                    return None
                early.append(message)
                if joining.done():
                    break
        except BaseException:
            joining.cancel()
            raise
        joining.result()  # its failure is dispatch's to report
        return early

    def _left_while_joining(self, joining: asyncio.Task):
        if not joining.cancelled():
            joining.exception()  # retrieved: the client is gone, nobody to tell
        if self.joined:
            asyncio.ensure_future(self.leave_room())

    async def on_connect(self):
        self.conn_id = uuid.uuid4().hex
        self.joined = False
        self.closing = False
        self.removed = False  # removed from the campaign: closing soon
        self.syncing = True
        self.buffer: list = []
        self.last_seq = 0
        self.tokens: dict[int, dict] = {}
        self.pending_drags: dict[int, tuple[int, int]] = {}
        self.drag_flush: asyncio.TimerHandle | None = None
        self.drag_bucket = TokenBucket(DRAG_RATE, DRAG_BURST)
        self.limits = ConnectionLimits()
        self.tasks: set[asyncio.Task] = set()
        self.sync_lock = asyncio.Lock()
        self.heard = asyncio.get_running_loop().time()
        self.outbox = Outbox(self.base_send, self.too_slow)
        admission.waiting(self.conn_id)
        # Under daphne, frames are read off the socket here (vtt.live.inbox);
        # set up before the accept, so no frame can come before it.
        server_side = self.outbox.protocol
        if server_side is not None:
            refuse_large_messages(server_side)
        self.inbox = None if server_side is None else Inbox(server_side, self.answer_now)
        # A close code can only be given once the handshake is accepted.
        await self.base_send({"type": "websocket.accept"})
        if not admission.connect_limits.allow(_client_address(self.scope)):
            return await self.close(
                protocol.CLOSE_FLOODING, reason="too many connections from your address; wait"
            )

        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.close(protocol.CLOSE_UNAUTHENTICATED)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        version = query.get("v", ["1"])[0]
        if version not in protocol.VERSIONS:
            return await self.close(protocol.CLOSE_BAD_VERSION)
        self.version = int(version)
        since = _whole(query.get("since", [None])[0])
        self.room = self.scope["url_route"]["kwargs"]["campaign_id"]
        try:
            place = await db.run(room_reads.membership, self.room, user)
        except (room_reads.NoSuchCampaign, room_reads.NotMember):
            # One answer for both: a stranger learns nothing of which exist.
            return await self.close(protocol.CLOSE_NOT_MEMBER)

        self.user = user
        self.user_id = user.pk
        self.own_vision = place["own_vision"]
        self.preview: str | None = None  # the sight group a GM looks through
        self.role = place["role"]
        self.me = {**place["user"], "role": self.role}
        self.campaign = place["campaign"]
        self.hub = get_hub()
        self.presence = get_presence()
        await self.hub.join(self)
        self.joined = True
        # A change of role between admission and the join came in no message
        # to this socket; from the join on, every change does.
        role = await db.run(room_reads.role_of, self.room, self.user_id)
        if role is None:
            return await self.close(protocol.CLOSE_NOT_MEMBER)
        self.role = role
        self.me = {**place["user"], "role": role}
        if await self.presence_join(place["user"]):
            self.hub.publish_aside(
                self.room, presence_frame("join", place["user"]), about=self.user_id
            )
        if since is None:
            await self.send_snapshot("connect")
        else:
            await self.send_resync(since, None, welcome=True)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def group(self) -> str:
        """The sight group this member sees a fog scene through."""
        return vision.group_of(self.role, self.user_id, {"own_vision": self.own_vision}) or PARTY

    @property
    def viewer(self) -> Viewer:
        return Viewer(self.user_id, self.role, self.group)

    @property
    def vision_group(self) -> str:
        """Whose vision frames this socket gets: its group's, or for a GM
        the group they preview."""
        return self.preview if self.is_gm else self.group

    async def presence_join(self, user: dict) -> bool:
        """Count this socket online. Presence is not worth a failed connect:
        if its store is away, the hub's heartbeat counts the socket later."""
        try:
            return await self.presence.join(self.room, user, self.conn_id)
        except Exception:
            logger.warning("presence: could not record that %s joined", self.user_id, exc_info=True)
            return False

    async def online(self) -> list[dict]:
        try:
            return await self.presence.online(self.room)
        except Exception:
            logger.warning("presence: could not read room %s", self.room, exc_info=True)
            return [self.me_public]

    @property
    def me_public(self) -> dict:
        return {"id": self.me["id"], "name": self.me["name"]}

    async def send_snapshot(self, reason: str, id_=None):
        # One snapshot or resync at a time: each holds live frames until it settles.
        async with self.sync_lock, self.settling():
            await self._send_snapshot(reason, id_)

    @contextlib.asynccontextmanager
    async def settling(self):
        """A snapshot or resync that fails leaves the client with part of a
        history and this socket holding frames back: close it (1011, which
        clients retry), and the client starts again from what it holds."""
        try:
            yield
        except admission.Gone:
            pass  # the socket is closing: nobody to send it to
        except Exception:
            logger.exception("room %s: a snapshot or resync failed", self.room)
            self.broken()

    async def _send_snapshot(self, reason: str, id_=None):
        self.syncing = True
        # Keyed by the member's view: sockets of one member asking at once
        # (tabs, reconnects) share one read; another member's differs.
        view = (self.viewer, self.preview)
        state = await admission.turns().run(
            self.room, view, self.still_wanted, room_reads.snapshot, self.room, *view
        )
        online = await self.online()
        eyes = state["eyes"]
        self.tokens = {t["id"]: _token_meta(t, eyes) for t in state["metas"]}
        frame = {
            "type": "snapshot",
            "protocol": self.version,
            "seq": state["seq"],
            "reason": reason,
            "campaign": state["campaign"],
            "you": self.me,
            "scene": state["scene"],
            # Version 1 (a page from before tables) reads a list.
            "tokens": state["tokens"] if self.version >= 2 else table_tokens(state["tokens"]),
            "log": state["log"],
            "online": online,
            "vision": state["vision"],
            "decisions": state["decisions"],
        }
        if id_ is not None:
            frame["id"] = id_
        self.outbox.push(protocol.dumps(frame))
        self.settle(state["seq"])

    async def send_resync(self, since: int, id_, welcome: bool = False):
        """The events after `since`, in pages, then the live ones held meanwhile."""
        async with self.sync_lock, self.settling():
            await self._send_resync(since, id_, welcome)

    async def _send_resync(self, since: int, id_, welcome: bool):
        self.syncing = True
        reason = await db.run(room_reads.resync_plan, self.room, since)
        if welcome:
            online = await self.online()
            seq = await db.run(room_reads.current_seq, self.room)
            welcome_frame = {
                "type": "welcome",
                "protocol": self.version,
                "seq": seq,
                "campaign": self.campaign,
                "you": self.me,
                "online": online,
            }
            if reason is None:
                self.outbox.push(protocol.dumps(welcome_frame))
        if reason is not None:
            return await self._send_snapshot(reason, id_)
        # This socket's table of the tokens its member may see: as they are
        # now, then every event held meanwhile applied on top (push_event),
        # scene changes included.
        tokens, eyes = await db.run(room_reads.active_tokens, self.room, self.viewer)
        self.tokens = {t["id"]: _token_meta(t, eyes) for t in tokens}
        after = since
        while True:
            views = await db.run(room_reads.views_since, self.room, after, self.viewer)
            more = len(views) == room_reads.PAGE
            if views:
                after = views[-1]["seq"]
            views = [protocol.event_for(view, self.version) for view in views]
            page = {"type": "resync", "id": id_, "since": since, "events": views, "more": more}
            self.outbox.push(protocol.dumps(page))
            if not more:
                break
        # The view is state, not history: the pages bring the tokens, this
        # the fog as it is now.
        await self.send_vision()
        self.settle(after)

    async def send_vision(self):
        frame = await db.run(room_reads.room_vision, self.room, self.viewer, self.preview)
        if frame is not None:
            self.outbox.push(protocol.dumps({"type": "vision", **frame}))

    def still_wanted(self) -> bool:
        return not self.closing

    def settle(self, seq: int):
        """The client now holds everything up to `seq`: release what was held."""
        admission.admitted(self.conn_id)
        self.last_seq = seq
        held, self.buffer = self.buffer, []
        self.syncing = False
        for item in held:
            if item[0] == "event":
                self.push_event(item[1])
            else:
                self.outbox.push(item[1], key=item[2])

    # ------------------------------------------------------------ delivering

    def push_event(self, message: dict):
        """A room event from the hub (in sequence order)."""
        if self.closing or self.removed:
            return
        if self.syncing:
            if len(self.buffer) >= MAX_BUFFERED:
                return self.too_slow()
            self.buffer.append(("event", message))
            return
        seq = message["seq"]
        if seq <= self.last_seq:
            # Already in a snapshot or a resync page, which told the client;
            # this socket's own tables follow it still (its member's place,
            # its tokens).
            self.note_tokens(message)
            self.note_member(message)
            self.note_vision_setting(message)
            return
        if seq != self.last_seq + 1:
            # Never expected (the hub orders and repairs), but if it happens
            # the client still gets every number once: read the gap.
            self.buffer.append(("event", message))
            self.spawn(self.send_resync(self.last_seq, None))
            self.syncing = True
            return
        self.last_seq = seq
        self.note_tokens(message)
        self.outbox.push(text_for(message, self.role, self.user_id, self.group, self.version))
        frames = message.get("vision")
        if frames:
            mine = frames.get(self.vision_group)
            if mine is not None:
                self.outbox.push(mine)
        self.note_member(message)
        self.note_vision_setting(message)

    def push_aside(self, text: str, key=None, wire: bytes | None = None):
        """Something outside the log (presence, drag previews); `wire`, its
        frame's bytes when the sender made them once for every socket."""
        if self.closing or self.removed:
            return
        if self.syncing:
            if len(self.buffer) >= MAX_BUFFERED:
                return self.too_slow()
            self.buffer.append(("aside", text, key))
            return
        self.outbox.push(text, key=key, wire=wire)

    def push_aside_message(self, message: dict, wire: bytes | None = None):
        if message.get("origin") == self.conn_id or message.get("about") == self.user_id:
            return
        if message.get("gm_only") and not self.is_gm:
            return
        groups = message.get("groups")
        if groups is not None and not self.is_gm and self.group not in groups:
            return  # a fog scene's drag: the groups it sees for watch it
        if "vision" in message and message["vision"] != self.vision_group:
            return  # a group's vision: its members', and a GM looking as it
        self.push_aside(message["text"], message.get("key"), wire)

    def note_tokens(self, message: dict):
        token = message.get("token")
        if token is not None:
            if "seen_by" in message:
                token = {**token, "seen_by": message["seen_by"], "eyes": message.get("eyes", [])}
            self.note_token(token)
        change = (message.get("sight") or {}).get(self.group)
        if change is not None and not self.is_gm:
            for meta in change["enter"]:
                self.tokens[meta["id"]] = meta
            for token_id in change["leave"]:
                self.tokens.pop(token_id, None)
        if message.get("scene") is not None:
            # A scene change: the table becomes the new map's tokens, as the
            # event carries them (later token events apply on top).
            self.tokens = dict(_scene_table(message["scene"], self.is_gm, self.group))

    def note_token(self, meta: dict):
        seen_by = meta.get("seen_by")
        players_see = not meta["hidden"] and (seen_by is None or self.group in seen_by)
        if meta["gone"] or not policy.sees_if(self.viewer, players_see=players_see):
            self.tokens.pop(meta["id"], None)
        elif meta["controllers"] is None:
            # A move (its controllers did not change): those held stay, and
            # a token not held stays unknown (it came into view, if it did,
            # in the event's sight change).
            held = self.tokens.get(meta["id"])
            if held is not None:
                self.tokens[meta["id"]] = {**meta, "controllers": held["controllers"]}
        else:
            self.tokens[meta["id"]] = meta

    def note_vision_setting(self, message: dict):
        """The table changed whether each player sees through their own
        tokens: a player's group changes, and what they hold of the scene
        with it, so they start again from a snapshot."""
        own = message.get("own_vision")
        if own is None or own == self.own_vision:
            return
        before = self.group
        self.own_vision = own
        if self.group != before:
            self.spawn(self.send_snapshot("vision_changed"))

    def note_member(self, message: dict):
        member = message.get("member")
        if member is not None and member["user_id"] == self.user_id:
            self.membership_changed(member["role"])

    def membership_changed(self, role: str | None):
        """Applied at once, so the very next event (even one handed over in
        the same batch) is rendered for the new role."""
        if role is None:
            # Removed from the campaign: not one more frame of the room.
            self.removed = True
            self.spawn(self.close(protocol.CLOSE_NOT_MEMBER))
        elif role != self.role:
            self.role = role
            self.preview = None
            self.me = {**self.me, "role": role}
            if role != Role.GM:
                viewer = self.viewer
                self.tokens = {
                    i: t
                    for i, t in self.tokens.items()
                    if policy.sees_if(viewer, players_see=not t["hidden"])
                }
            self.spawn(self.send_snapshot("role_changed"))

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

    # ------------------------------------------------------------ receiving

    async def on_frame(self, text, data):
        if not self.joined or self.closing:
            return
        self.heard = asyncio.get_running_loop().time()
        try:
            intent = protocol.parse_frame(text, data)
        except protocol.ProtocolError as error:
            self.outbox.push(error.frame())
            if error.malformed and not self.limits.forgive_garbage():
                await self.close(protocol.CLOSE_GARBAGE)
            return
        if not self.limits.allow_intent():
            self.reply_error(intent.id, "rate_limited", "too many intents; slow down")
            if not self.limits.forgive_garbage(REFUSED_COST):
                await self.close(protocol.CLOSE_FLOODING)
            return
        if intent.type in AT_ONCE:
            self.answer(intent)
        elif intent.type == "resync":
            await self.send_resync(intent.fields["since"], intent.id)
        elif intent.type == "vision.preview":
            await self.preview_vision(intent)
        else:
            await self.carry_out(intent)

    def answer_now(self, text: str) -> bool:
        """A text frame straight off the socket (vtt.live.inbox): answered
        here when it is a well-formed ping or drag preview within the rate
        limit and nothing of this socket's is being dispatched; otherwise
        False, and it goes through dispatch in its turn like any frame."""
        if self.busy or not self.joined or self.closing:
            return False
        try:
            intent = protocol.parse_frame(text, None)
        except protocol.ProtocolError:
            return False
        if intent.type not in AT_ONCE or not self.limits.allow_intent():
            return False
        self.heard = asyncio.get_running_loop().time()
        try:
            self.answer(intent)
        except Exception:
            logger.exception("room %s: %s failed", self.room, intent.type)
            self.reply_error(intent.id, "server_error", "the server could not do that")
        return True

    def answer(self, intent: protocol.Intent):
        """A ping or a drag preview: nothing to wait for."""
        if intent.type == "ping":
            self.outbox.push(
                protocol.dumps({"type": "pong", "id": intent.id, "seq": self.last_seq})
            )
        else:
            self.drag(intent)

    async def carry_out(self, intent: protocol.Intent):
        token = intent.fields.get("token")
        known = frozenset((token,)) if token in self.tokens else frozenset()
        asker = intents.Asker(self.user, self.room, known)
        if intent.type == "token.move":
            self.pending_drags.pop(intent.fields["token"], None)
        try:
            extra, repeat = await group_commit.writer(self.room).carry_out(
                intents.once(asker, intent)
            )
        except StaleVersion as error:
            current = await db.run(token_data, error.token)
            self.reply_error(intent.id, error.code, error.message, error.field, token=current)
        except (ServiceError, RulesError) as error:
            self.reply_error(intent.id, error.code, error.message, error.field)
        except Exception:
            logger.exception("intent %s failed in room %s", intent.type, self.room)
            self.reply_error(intent.id, "server_error", "the server could not do that")
        else:
            if repeat:
                extra = {**extra, "repeat": True}
            self.outbox.push(protocol.ack_frame(intent.id, intent.type, **extra))

    def reply_error(self, id_, code, message, field=None, **extra):
        self.outbox.push(protocol.error_frame(id_, code, message, field, **extra))

    async def preview_vision(self, intent: protocol.Intent):
        """A GM looks at the fog scene as a group sees it (None: stops)."""
        if not self.is_gm:
            return self.reply_error(intent.id, "forbidden", "only a GM may preview a view")
        group = intent.fields["group"]
        if group is not None and group not in await db.run(room_reads.sight_groups, self.room):
            return self.reply_error(
                intent.id, "invalid", 'no such group: "party", or "u<user id>" of a player', "group"
            )
        self.preview = group
        self.outbox.push(protocol.ack_frame(intent.id, intent.type))
        if self.preview is not None:
            await self.send_vision()

    # ------------------------------------------------------------ drag previews

    def drag(self, intent: protocol.Intent):
        fields = intent.fields
        token = self.tokens.get(fields["token"])
        if token is None:
            return self.reply_error(intent.id, "not_found", "no such token", "token")
        if not policy.controls_token(self.viewer, token):
            return self.reply_error(intent.id, "forbidden", "you do not control this token")
        # Coalesced: previews wait only when they come faster than DRAG_RATE,
        # and then the latest position of each token wins.
        self.pending_drags[fields["token"]] = (fields["x"], fields["y"])
        if self.drag_flush is not None:
            return
        if self.drag_bucket.take():
            self.flush_drags()
        else:
            self.drag_flush = asyncio.get_running_loop().call_later(
                self.drag_bucket.wait(), self.flush_drags_later
            )

    def flush_drags_later(self):
        self.drag_flush = None
        self.drag_bucket.take()
        try:
            self.flush_drags()
        except Exception:
            logger.exception("room %s: held drag previews could not go out", self.room)
            self.broken()

    def flush_drags(self):
        drags, self.pending_drags = self.pending_drags, {}
        for token_id, (x, y) in drags.items():
            token = self.tokens.get(token_id)
            if token is None:
                continue
            text = protocol.dumps(
                {
                    "type": "token.drag",
                    "token": token_id,
                    "x": x,
                    "y": y,
                    "by": self.user_id,
                    "version": token["version"],
                }
            )
            # On a fog scene only the groups the token sees for watch it
            # go: where it passes may be out of anyone else's view.
            eyes = token.get("eyes")
            self.hub.publish_preview(
                self.room,
                text,
                origin=self.conn_id,
                gm_only=token["hidden"] or eyes == [],
                groups=eyes,
                key=f"drag:{token_id}",
            )

    # ------------------------------------------------------------ leaving

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
        server_side = self.outbox.protocol
        if server_side is not None:
            # autobahn's sendClose, which daphne's close goes through, takes
            # from an application only 1000 and 3000-4999 and raises on the
            # rest: a 1011 left the socket open and silent. Its close frame
            # takes any code, as daphne's own 1011 after a crash does.
            with contextlib.suppress(Exception):
                server_side.sendCloseFrame(code=code, reasonUtf8=reason.encode()[:123] or None)
            return
        message = {"type": "websocket.close", "code": code}
        if reason:
            message["reason"] = reason
        with contextlib.suppress(Exception):
            await self.base_send(message)

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

    async def leave_room(self):
        """Out of the hub and out of presence; safe to call more than once."""
        self.closing = True
        if getattr(self, "conn_id", None) is not None:
            admission.admitted(self.conn_id)
        if getattr(self, "outbox", None) is not None:
            self.outbox.close()
        if getattr(self, "drag_flush", None) is not None:
            self.drag_flush.cancel()
        if self.inbox is not None:
            self.inbox.close()
        for task in list(getattr(self, "tasks", ())):
            task.cancel()
        if getattr(self, "joined", False):
            self.joined = False
            try:
                await self.hub.leave(self)
            except Exception:
                logger.exception("room %s: the hub could not let a socket go", self.room)
            try:
                if await self.presence.leave(self.room, self.user_id, self.conn_id):
                    self.hub.publish_aside(
                        self.room, presence_frame("leave", self.me_public), about=self.user_id
                    )
            except Exception:
                logger.exception("presence: could not record that %s left", self.user_id)

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


def refuse_large_messages(server_side) -> None:
    """A message of settings.WEBSOCKET_MESSAGE_LIMIT bytes or more (or a
    frame, however the message is cut) ends the socket with 1009 and
    autobahn's reason. autobahn's default for a limit passed is to drop the
    connection without a word; with `failByDrop` off it closes with the
    code instead (bad UTF-8 and other protocol errors likewise get theirs).
    Set before the handshake is accepted: no frame is read before it."""
    largest = settings.WEBSOCKET_MESSAGE_LIMIT - 1
    server_side.maxMessagePayloadSize = server_side.maxFramePayloadSize = largest
    server_side.failByDrop = False


def _scene_table(scene: dict, is_gm: bool, group: str) -> dict[int, dict]:
    """A scene change's tokens a member may see, by id: made once per kind
    of member (the GM, each sight group) and kept on the message, which
    every socket of the room in this process is handed; each socket copies
    it. The records are never changed in place, only replaced."""
    tables = scene.setdefault("tables", {})
    key = "gm" if is_gm else f"@{group}"
    if key not in tables:
        if "metas" not in scene:
            eyes = scene.get("eyes")
            if eyes is not None:
                eyes = {int(token_id): groups for token_id, groups in eyes.items()}
            scene["metas"] = [_token_meta(t, eyes) for t in scene.get("tokens") or ()]
        seen = (scene.get("seen") or {}).get(group)
        tables[key] = {
            t["id"]: t
            for t in scene["metas"]
            if is_gm or (not t["hidden"] and (seen is None or t["id"] in seen))
        }
    return tables[key]


def _token_meta(token: dict, eyes: dict | None = None) -> dict:
    meta = {
        "id": token["id"],
        "controllers": token.get("controllers") or [],
        "hidden": bool(token.get("hidden")),
        "version": token.get("version"),
        "gone": False,
    }
    if eyes is not None:  # a fog scene: the groups it sees for
        meta["eyes"] = eyes.get(token["id"], [])
    return meta


def _client_address(scope) -> str:
    """The client's address as the rest of the site reads it (behind the
    trusted proxies, X-Forwarded-For): client_address on the scope's
    REMOTE_ADDR and header."""
    meta = {"REMOTE_ADDR": (scope.get("client") or ("",))[0] or ""}
    for name, value in scope.get("headers") or ():
        if name == b"x-forwarded-for":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return client_address(SimpleNamespace(META=meta))


def _whole(value) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        return None
    return number if number >= 0 else None
