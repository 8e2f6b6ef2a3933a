"""A member's pings: a point of the room's map shown for a moment to
everyone who can see it, with the pinger's name and colour; the GM's may
also pull the others' maps there. Relayed through the hub like a drag
preview and never stored: a ping is not in the log, not replayed, not in
the journal (docs/realtime.md, "Pings").

Who may ping and pull is policy's; the point must be on the map the room is
on; on a fog scene only the sight groups whose map shows the ground there
(vtt.fog.points) are sent it, besides the GMs. Each member has a bucket of
pings in this process, shared by their sockets (PING_RATE, PING_BURST)."""

from dataclasses import dataclass

from vtt.fog.points import groups_seeing
from vtt.tabletop import policy
from vtt.tabletop.models import Campaign, Membership
from vtt.tabletop.services.errors import ServiceError

from . import db, protocol
from .limits import PING_BURST, PING_RATE, MemberBuckets

# A pinger's colour: by their place among the campaign's members (the order
# they joined), so a table of up to ten has ten colours, the same on every page.
COLOURS = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#fabed4",
    "#ffe119",
)

MAX_MEMBERS_KEPT = 10_000  # buckets kept in a process (the longest idle go)

buckets = MemberBuckets(PING_RATE, PING_BURST, MAX_MEMBERS_KEPT)


def forget_all() -> None:
    """Forget every member's bucket (a test's fresh database reuses ids)."""
    buckets.clear()


@dataclass(frozen=True)
class Spot:
    scene: int
    groups: list[str] | None  # the sight groups that see it; None: no fog, everyone
    colour: str


def spot_of(room: int, user_id: int, x: float, y: float, scene: int | None) -> Spot:
    """Where a ping lands, or a ServiceError naming the field: the room's
    map, the point on it, who sees it, and the pinger's colour."""
    row = (
        Campaign.objects.filter(pk=room)
        .values(
            "active_scene_id",
            "active_scene__width",
            "active_scene__height",
            "active_scene__fog",
        )
        .first()
    )
    if row is None or row["active_scene_id"] is None:
        raise ServiceError("invalid", "the room has no map on the table to ping", "scene")
    scene_id = row["active_scene_id"]
    if scene is not None and scene != scene_id:
        raise ServiceError("invalid", "the room is on another map now", "scene")
    width, height = row["active_scene__width"], row["active_scene__height"]
    if not 0 <= x <= width:
        raise ServiceError("out_of_bounds", f"x must be on the map: 0 to {width}", "x")
    if not 0 <= y <= height:
        raise ServiceError("out_of_bounds", f"y must be on the map: 0 to {height}", "y")
    groups = groups_seeing(scene_id, x, y) if row["active_scene__fog"] else None
    seats = list(
        Membership.objects.filter(campaign_id=room).order_by("pk").values_list("user_id", flat=True)
    )
    place = seats.index(user_id) if user_id in seats else 0
    return Spot(scene_id, groups, COLOURS[place % len(COLOURS)])


async def ping(member, intent: protocol.Intent) -> None:
    """Carry out a `map.ping` from the socket whose delivery is `member`:
    an ack to the sender and the ping to those who see the point, or an
    error frame (the socket stays)."""
    fields = intent.fields
    if not policy.may_ping(member.viewer):
        return member.reply_error(intent.id, "forbidden", "an observer watches: no pings")
    if fields["pull"] and not policy.may_pull_view(member.viewer):
        return member.reply_error(
            intent.id, "forbidden", "only the GM may pull everyone's view", "pull"
        )
    bucket = buckets.of(member.room, member.user_id)
    if not bucket.take():
        wait = max(bucket.wait(), 0.1)
        return member.reply_error(
            intent.id, "rate_limited", f"too many pings: wait {wait:.1f} s and ping again"
        )
    x, y = fields["x"], fields["y"]
    try:
        spot = await db.run(spot_of, member.room, member.user_id, x, y, fields.get("scene"))
    except ServiceError as error:
        return member.reply_error(intent.id, error.code, error.message, error.field)
    text = protocol.dumps(
        {
            "type": "map.ping",
            "scene": spot.scene,
            "x": x,
            "y": y,
            "by": member.me_public,
            "color": spot.colour,
            "pull": fields["pull"],
        }
    )
    # The latest ping of a member replaces one not yet sent to a slow socket.
    member.hub.publish_preview(
        member.room,
        text,
        origin=member.conn_id,
        groups=spot.groups,
        key=f"ping:{member.user_id}",
    )
    # The sender's page draws its own pulse from the ack, in its colour.
    member.outbox.push(
        protocol.ack_frame(intent.id, intent.type, scene=spot.scene, color=spot.colour)
    )
