"""A stroke being drawn, shown to the others as it grows: relayed through
the hub like a drag preview or a ping and never stored (the finished
drawing is `drawing.add`, vtt.drawings.services). A preview carries the
points since the previous one and `from`, the index of its first: a long
freehand stroke is not sent again whole ten times a second to everyone.
A line's or a box's preview, two points, comes whole (`from` 0).

It goes to those who would see the drawing: a GM-layer stroke to the GMs,
on a fog scene to the sight groups whose map shows some of the preview's
points (vtt.fog.points) and the GMs, else to everyone. Who may draw is policy's,
the bounds the drawing service's own (vtt.drawings.bounds). What a stroke
needs of the room (its map, the table's `drawing` setting, each group's
areas) is read once and kept a moment (KEEP_SECONDS) per room: strokes
come twenty a second per member drawing."""

import asyncio
import functools
import logging
import threading
import time
from dataclasses import dataclass

from vtt.core.errors import ServiceError
from vtt.drawings import bounds
from vtt.drawings.services import draw_refusal
from vtt.fog.points import groups_showing, sight_areas
from vtt.tabletop import policy
from vtt.tabletop.models import Campaign

from . import db, protocol
from .limits import STROKE_BURST, STROKE_RATE, STROKE_SEND_RATE, MemberBuckets, TokenBucket
from .pings import MAX_MEMBERS_KEPT

logger = logging.getLogger(__name__)

KEEP_SECONDS = 1.0  # how stale a room's map, setting and fog may be for a preview

buckets = MemberBuckets(STROKE_RATE, STROKE_BURST, MAX_MEMBERS_KEPT)
_rooms: dict[int, tuple[float, "RoomMap"]] = {}
_reading: dict[int, asyncio.Task] = {}  # a room's map being read, for every stroke that waits
_lock = threading.Lock()


@dataclass(frozen=True)
class RoomMap:
    scene: int | None
    width: int
    height: int
    settings: dict
    areas: dict | None  # a fog scene's groups' areas (sight_areas); None: no fog


def read_room(room: int) -> RoomMap:
    row = (
        Campaign.objects.filter(pk=room)
        .values(
            "settings",
            "active_scene_id",
            "active_scene__width",
            "active_scene__height",
            "active_scene__fog",
        )
        .first()
    )
    if row is None or row["active_scene_id"] is None:
        return RoomMap(None, 0, 0, {}, None)
    scene = row["active_scene_id"]
    return RoomMap(
        scene,
        row["active_scene__width"],
        row["active_scene__height"],
        row["settings"] or {},
        sight_areas(scene) if row["active_scene__fog"] else None,
    )


def kept_map(room: int) -> RoomMap | None:
    """The room's map as read less than KEEP_SECONDS ago, or None."""
    kept = _rooms.get(room)
    if kept is not None and time.monotonic() - kept[0] < KEEP_SECONDS:
        return kept[1]
    return None


async def room_map(room: int) -> RoomMap:
    """The room's map, read again once KEEP_SECONDS have passed. Strokes
    that come while it is being read wait for that one read: each reading
    it again (six members drawing at once, a busy database) would pile up
    reads of the same row just when the process has least to spare."""
    found = kept_map(room)
    if found is not None:
        return found
    loop = asyncio.get_running_loop()
    reading = _reading.get(room)
    if reading is None or reading.get_loop() is not loop:
        reading = _reading[room] = loop.create_task(_read_and_keep(room))
        reading.add_done_callback(functools.partial(_read_done, room))
    # Shielded: a stroke whose socket closes stops waiting, not the others' read.
    return await asyncio.shield(reading)


def _read_done(room: int, reading: asyncio.Task) -> None:
    if _reading.get(room) is reading:
        del _reading[room]


async def _read_and_keep(room: int) -> RoomMap:
    now = time.monotonic()
    found = await db.run(read_room, room)
    with _lock:
        _rooms[room] = (now, found)
        while len(_rooms) > MAX_MEMBERS_KEPT:
            _rooms.pop(next(iter(_rooms)))
    return found


def forget_all() -> None:
    """Forget every bucket and room kept (a test's fresh database reuses ids)."""
    buckets.clear()
    _reading.clear()
    with _lock:
        _rooms.clear()


async def stroke(member, intent: protocol.Intent) -> None:
    """Carry out a `drawing.stroke` from the socket whose delivery is
    `member`: an ack to the sender and the preview to those who would see
    the drawing, or an error frame (the socket stays)."""
    relay(member, intent, await room_map(member.room))


def relay(member, intent: protocol.Intent, here: RoomMap) -> None:
    """The stroke checked against the room's map `here` and relayed; the
    socket answers one at once with this when it has the map at hand
    (kept_map), as it answers a drag preview."""
    fields = intent.fields
    bucket = buckets.of(member.room, member.user_id)
    if not bucket.take():
        wait = max(bucket.wait(), 0.05)
        return member.reply_error(
            intent.id, "rate_limited", f"too many strokes: wait {wait:.2f} s and draw again"
        )
    try:
        preview = _preview(member, here, fields)
    except ServiceError as error:
        return member.reply_error(intent.id, error.code, error.message, error.field)
    drawn, key = preview
    gm_layer = policy.drawing_for_gms(drawn.layer)
    groups = None
    if here.areas is not None and not gm_layer:
        groups = groups_showing(here.areas, drawn.points)
    frame = {
        "type": "drawing.stroke",
        "scene": here.scene,
        "stroke": key,
        "from": fields["from"],
        "by": member.me_public,
        "shape": drawn.shape,
        "layer": drawn.layer,
        "color": drawn.color,
        "width": drawn.width,
        "points": drawn.points,
        "text": drawn.text,
    }
    member.strokes.hold(key, frame, gm_layer, groups)
    # A stroke sent without an id wants no answer but a refusal (a drag's way).
    if intent.id is not None:
        member.outbox.push(protocol.ack_frame(intent.id, intent.type, scene=here.scene))


def _preview(member, here: RoomMap, fields: dict):
    if here.scene is None:
        raise ServiceError("invalid", "the room has no map on the table to draw on", "scene")
    if fields.get("scene") not in (None, here.scene):
        raise ServiceError("invalid", "the room is on another map now", "scene")
    key = bounds.stroke_key(fields["stroke"])
    if not key:
        raise ServiceError("invalid", "stroke: name the stroke", "stroke")
    drawn = bounds.clean(
        shape=fields["shape"],
        layer=fields["layer"],
        color=fields["color"],
        width=fields["width"],
        points=fields["points"],
        text=fields["text"],
        map_width=here.width,
        map_height=here.height,
        preview=True,
        start=fields["from"],
    )
    if not policy.may_draw(member.viewer, here.settings, drawn.layer):
        raise ServiceError("forbidden", draw_refusal(member.viewer, drawn.layer), "layer")
    return drawn, key


class StrokeRelay:
    """A socket's stroke previews on their way out: at most
    STROKE_SEND_RATE a second leave it; a newer preview of a stroke joins
    the one held meanwhile (a pen's carry only the points since the last:
    they are put after the held ones), so under load the others see the
    stroke grow in larger steps. Encoded only when it goes."""

    def __init__(self, member):
        self.member = member  # the socket's delivery (vtt.live.delivery.Delivery)
        self.pending: dict[str, tuple] = {}  # stroke key -> (frame, gm_only, groups)
        self.flush: asyncio.TimerHandle | None = None
        self.bucket = TokenBucket(STROKE_SEND_RATE, 1)

    def hold(self, key: str, frame: dict, gm_only: bool, groups) -> None:
        held = self.pending.get(key)
        if held is not None and frame["from"] > held[0]["from"]:
            frame, groups = _joined(held, frame, groups)
        self.pending[key] = (frame, gm_only, groups)
        if self.flush is not None:
            return
        if self.bucket.take():
            self.send()
        else:
            self.flush = asyncio.get_running_loop().call_later(self.bucket.wait(), self.send_later)

    def forget(self, key: str) -> None:
        """The finished drawing is on its way: a held preview would come
        after it and draw the stroke again."""
        self.pending.pop(key, None)

    def cancel(self) -> None:
        if self.flush is not None:
            self.flush.cancel()

    def send_later(self) -> None:
        self.flush = None
        self.bucket.take()
        try:
            self.send()
        except Exception:
            logger.exception("room %s: held stroke previews could not go out", self.member.room)
            self.member.broken()

    def send(self) -> None:
        member = self.member
        strokes, self.pending = self.pending, {}
        for frame, gm_only, groups in strokes.values():
            # No key: a socket's queue must not let one part of a stroke
            # replace another (drags, whole each, have one).
            member.hub.publish_preview(
                member.room,
                protocol.dumps(frame),
                origin=member.conn_id,
                gm_only=gm_only,
                groups=groups,
            )


def _joined(held: tuple, frame: dict, groups) -> tuple[dict, list | None]:
    """A held preview and a later one of its stroke as one: the held points
    up to where the later one starts, then its points; seen by the groups
    of either (None: no fog, everyone)."""
    first = held[0]
    points = first["points"][: frame["from"] - first["from"]] + frame["points"]
    if held[2] is not None and groups is not None:
        groups = sorted(set(held[2]) | set(groups))
    return {**frame, "from": first["from"], "points": points}, groups
