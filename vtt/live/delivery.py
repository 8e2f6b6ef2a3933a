"""Delivery: what one socket's member is handed, and when. It joins the
room (the hub, presence), sends the snapshot or the missed events, holds
the room's live frames back while one is read and releases them once the
client holds everything before them, then forwards each event as this
member may see it. It keeps the socket's token table (vtt.live.token_table)
and relays its drag and stroke previews (vtt.live.drags,
vtt.live.drawing_strokes) and, for a GM, the view of a sight group. Frames go out through the socket's outbox.

The hub hands deliveries to this object directly (push_event, push_aside,
push_aside_message), already encoded; a failure to take one ends the
socket (`broken`), as one of the socket's own does."""

import asyncio
import contextlib
import logging

from vtt.fog import vision
from vtt.fog.vision import PARTY
from vtt.tabletop import policy
from vtt.tabletop.serialize import table_tokens
from vtt.tabletop.visibility import Viewer

from . import admission, db, drawing_strokes, pings, protocol, room_reads, token_table
from .drags import DragRelay
from .drawing_strokes import StrokeRelay
from .hub import get_hub, presence_frame
from .presence import get_presence
from .render import text_for

logger = logging.getLogger(__name__)

MAX_BUFFERED = 5000  # live messages held while a snapshot or resync is read
# Intents taken at once off the socket when nothing of its is waiting ahead.
AT_ONCE = frozenset({"ping", "token.drag"})


class Delivery:
    watching = False  # a spectator's socket (vtt.live.spectating): counted, not named

    def __init__(self, socket, place: dict, version: int):
        self.socket = socket  # the transport: its outbox, close and tasks
        self.outbox = socket.outbox
        self.conn_id = socket.conn_id
        self.room = socket.room
        self.version = version
        self.user = socket.scope["user"]
        self.user_id = socket.user_id  # the member's; a spectator's is no user's
        self.own_vision = place["own_vision"]
        self.preview: str | None = None  # the sight group a GM looks through
        self.campaign = place["campaign"]
        self.profile = place["user"]
        self.seat(place["role"])
        self.joined = False
        self.removed = False  # removed from the campaign: closing soon
        self.syncing = True
        self.buffer: list = []
        self.last_seq = 0
        self.tokens: dict[int, dict] = {}
        self.drags = DragRelay(self)
        self.strokes = StrokeRelay(self)
        self.sync_lock = asyncio.Lock()
        self.hub = get_hub()
        self.presence = get_presence()

    def seat(self, role: str) -> None:
        """The member's place: role and sight group, and the viewer they make."""
        self.role = role
        self.me = {**self.profile, "role": role}
        group = vision.group_of(role, self.user_id, {"own_vision": self.own_vision}) or PARTY
        self.viewer = Viewer(self.user_id, role, group)

    @property
    def group(self) -> str:
        """The sight group this member sees a fog scene through."""
        return self.viewer.group

    @property
    def vision_group(self) -> str:
        """Whose vision frames this socket gets: its group's, or for a GM
        the group they preview."""
        return self.preview if policy.runs_table(self.viewer) else self.group

    @property
    def me_public(self) -> dict:
        return {"id": self.me["id"], "name": self.me["name"]}

    # ------------------------------------------------------------ joining

    async def join(self, since: int | None) -> bool:
        """Into the hub and presence, then the snapshot (or, with `since`,
        the events after it). False when the member was removed meanwhile."""
        await self.hub.join(self)
        self.joined = True
        # A change of role between admission and the join came in no message
        # to this socket; from the join on, every change does.
        role = await db.run(room_reads.role_of, self.room, self.user_id)
        if role is None:
            return False
        self.seat(role)
        if await self.presence_join():
            self.hub.publish_aside(
                self.room, presence_frame("join", self.profile), about=self.user_id
            )
        if since is None:
            await self.send_snapshot("connect")
        else:
            await self.send_resync(since, None, welcome=True)
        return True

    async def presence_join(self) -> bool:
        """Count this socket online. Presence is not worth a failed connect:
        if its store is away, the hub's heartbeat counts the socket later."""
        try:
            return await self.presence.join(self.room, self.profile, self.conn_id)
        except Exception:
            logger.warning("presence: could not record that %s joined", self.user_id, exc_info=True)
            return False

    async def online(self) -> list[dict]:
        try:
            return await self.presence.online(self.room)
        except Exception:
            logger.warning("presence: could not read room %s", self.room, exc_info=True)
            return [self.me_public]

    async def watchers(self) -> int:
        """How many spectators watch the room (counted, never named)."""
        try:
            return await self.presence.watchers(self.room)
        except Exception:
            logger.warning(
                "presence: could not count room %s's spectators", self.room, exc_info=True
            )
            return 0

    async def leave(self):
        """Out of the hub and out of presence; safe to call more than once."""
        self.drags.cancel()
        self.strokes.cancel()
        if not self.joined:
            return
        self.joined = False
        try:
            await self.hub.leave(self)
        except Exception:
            logger.exception("room %s: the hub could not let a socket go", self.room)
        await self.presence_out()

    async def presence_out(self):
        """Say in presence that this socket left (its member, if it was the last)."""
        try:
            if await self.presence.leave(self.room, self.user_id, self.conn_id):
                self.hub.publish_aside(
                    self.room, presence_frame("leave", self.me_public), about=self.user_id
                )
        except Exception:
            logger.exception("presence: could not record that %s left", self.user_id)

    # ------------------------------------------------------------ snapshot and resync

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
        self.tokens = token_table.table_of(state["metas"], state["eyes"])
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
            "templates": state["templates"],
            "log": state["log"],
            "online": online,
            "spectators": await self.watchers(),
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
                "spectators": await self.watchers(),
            }
            if reason is None:
                self.outbox.push(protocol.dumps(welcome_frame))
        if reason is not None:
            return await self._send_snapshot(reason, id_)
        # This socket's table of the tokens its member may see: as they are
        # now, then every event held meanwhile applied on top (push_event),
        # scene changes included.
        tokens, eyes = await db.run(room_reads.active_tokens, self.room, self.viewer)
        self.tokens = token_table.table_of(tokens, eyes)
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
        return not self.socket.closing

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

    # ------------------------------------------------------------ from the hub

    def push_event(self, message: dict):
        """A room event from the hub (in sequence order)."""
        if self.socket.closing or self.removed:
            return
        if self.syncing:
            if len(self.buffer) >= MAX_BUFFERED:
                return self.socket.too_slow()
            self.buffer.append(("event", message))
            return
        seq = message["seq"]
        if seq <= self.last_seq:
            # Already in a snapshot or a resync page, which told the client;
            # this socket's own tables follow it still (its member's place,
            # its tokens).
            self.tokens = token_table.follow(self.tokens, message, self.viewer)
            self.note_member(message)
            self.note_vision_setting(message)
            return
        if seq != self.last_seq + 1:
            # Never expected (the hub orders and repairs), but if it happens
            # the client still gets every number once: read the gap.
            self.buffer.append(("event", message))
            self.socket.spawn(self.send_resync(self.last_seq, None))
            self.syncing = True
            return
        self.last_seq = seq
        self.tokens = token_table.follow(self.tokens, message, self.viewer)
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
        if self.socket.closing or self.removed:
            return
        if self.syncing:
            if len(self.buffer) >= MAX_BUFFERED:
                return self.socket.too_slow()
            self.buffer.append(("aside", text, key))
            return
        self.outbox.push(text, key=key, wire=wire)

    def push_aside_message(self, message: dict, wire: bytes | None = None):
        if message.get("origin") == self.conn_id or message.get("about") == self.user_id:
            return
        if message.get("gm_only") and not policy.runs_table(self.viewer):
            return
        groups = message.get("groups")
        if groups is not None and not policy.sees_if(self.viewer, players_see=self.group in groups):
            return  # a fog scene's drag: the groups it sees for watch it
        if "vision" in message and message["vision"] != self.vision_group:
            return  # a group's vision: its members', and a GM looking as it
        self.push_aside(message["text"], message.get("key"), wire)

    def broken(self):
        self.socket.broken()

    def silent_for(self) -> float:
        return self.socket.silent_for()

    def silent(self):
        self.socket.silent()

    def note_vision_setting(self, message: dict):
        """The table changed whether each player sees through their own
        tokens: a player's group changes, and what they hold of the scene
        with it, so they start again from a snapshot."""
        own = message.get("own_vision")
        if own is None or own == self.own_vision:
            return
        before = self.group
        self.own_vision = own
        self.seat(self.role)
        if self.group != before:
            self.socket.spawn(self.send_snapshot("vision_changed"))

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
            self.socket.spawn(self.socket.close(protocol.CLOSE_NOT_MEMBER))
        elif role != self.role:
            self.seat(role)
            self.preview = None
            if not policy.runs_table(self.viewer):
                self.tokens = token_table.visible_to(self.tokens, self.viewer)
            self.socket.spawn(self.send_snapshot("role_changed"))

    # ------------------------------------------------------------ the socket's own asks

    async def take(self, intent: protocol.Intent) -> bool:
        """Carry out an intent that reads or relays and changes nothing of
        the room (a ping, previews, a resync); False for any other: a
        command (vtt.live.commands)."""
        if intent.type in AT_ONCE:
            self.answer(intent)
        elif intent.type == "resync":
            await self.send_resync(intent.fields["since"], intent.id)
        elif intent.type == "vision.preview":
            await self.preview_vision(intent)
        elif intent.type == "map.ping":
            await pings.ping(self, intent)
        elif intent.type == "drawing.stroke":
            await drawing_strokes.stroke(self, intent)
        else:
            return False
        return True

    def at_once(self, intent: protocol.Intent):
        """What answers `intent` straight off the socket, or None: a ping, a
        drag preview, and a stroke's preview while the room's map is at hand."""
        if intent.type in AT_ONCE:
            return lambda: self.answer(intent)
        here = drawing_strokes.kept_map(self.room) if intent.type == "drawing.stroke" else None
        return None if here is None else lambda: drawing_strokes.relay(self, intent, here)

    def answer(self, intent: protocol.Intent):
        """A ping or a drag preview: nothing to wait for."""
        if intent.type == "ping":
            self.outbox.push(
                protocol.dumps({"type": "pong", "id": intent.id, "seq": self.last_seq})
            )
        else:
            self.drags.drag(intent)

    async def preview_vision(self, intent: protocol.Intent):
        """A GM looks at the fog scene as a group sees it (None: stops)."""
        if not policy.runs_table(self.viewer):
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

    def reply_error(self, id_, code, message, field=None, **extra):
        self.outbox.push(protocol.error_frame(id_, code, message, field, **extra))
