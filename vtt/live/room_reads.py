"""What the live rooms read from the database: who may join, the snapshot a
fresh connection gets, and pages of the log for a resync. Plain synchronous
functions; the consumer and the hub call them through vtt.live.db.run."""

from vtt.combat.services.decisions import pending_for
from vtt.drawings.selectors import drawings_seen
from vtt.drawings.serialize import drawing_data
from vtt.fog import vision
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import events_since
from vtt.tabletop.models import Campaign, Membership, RoomEvent, Token
from vtt.tabletop.policy import event_view
from vtt.tabletop.selectors import markers_for, tokens_seen
from vtt.tabletop.serialize import (
    marker_data,
    scene_data,
    table_tokens,
    token_metas,
    token_table,
    user_data,
)
from vtt.tabletop.visibility import Viewer

from .render import render_event

LOG_TAIL = 50
PAGE = 200
RESYNC_LIMIT = 2000  # further behind than this, a snapshot is cheaper than the pages


class NoSuchCampaign(Exception):
    pass


class NotMember(Exception):
    pass


def campaign_summary(campaign: Campaign) -> dict:
    return {"id": campaign.pk, "name": campaign.name, "game": campaign.game}


def membership(campaign_id: int, user) -> dict:
    """The room's description and the user's place in it, or an exception."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NoSuchCampaign(campaign_id)
    member = Membership.objects.filter(campaign_id=campaign_id, user_id=user.pk).first()
    if member is None:
        raise NotMember(campaign_id)
    return {
        "campaign": campaign_summary(campaign),
        "role": member.role,
        "user": user_data(user),
        "own_vision": own_vision(campaign.settings),
    }


def own_vision(settings) -> bool:
    """Whether each player sees a fog scene through their own tokens."""
    return bool((settings or {}).get("own_vision"))


def role_of(campaign_id: int, user_id: int) -> str | None:
    return (
        Membership.objects.filter(campaign_id=campaign_id, user_id=user_id)
        .values_list("role", flat=True)
        .first()
    )


def current_seq(campaign_id: int) -> int:
    seq = Campaign.objects.filter(pk=campaign_id).values_list("event_seq", flat=True).first()
    return seq or 0


def current_seqs(campaign_ids) -> dict[int, int]:
    return dict(Campaign.objects.filter(pk__in=list(campaign_ids)).values_list("pk", "event_seq"))


def visible_tokens(scene_id: int | None, viewer: Viewer) -> list[dict]:
    """The scene's tokens `viewer` sees: the REST list's read (policy.sees_token)."""
    return table_tokens(visible_table(scene_id, viewer))


def visible_table(scene_id: int | None, viewer: Viewer) -> dict:
    """visible_tokens as a table (serialize.token_table): what a snapshot sends."""
    if scene_id is None:
        return token_table(Token.objects.none(), None)
    return token_table(tokens_seen(viewer, scene_id), scene_id)


def active_tokens(campaign_id: int, viewer: Viewer) -> tuple[list[dict], dict | None]:
    """The room's scene's tokens `viewer` sees, and on a fog scene the
    groups each sees for (vision.token_eyes)."""
    campaign = Campaign.objects.select_related("active_scene").get(pk=campaign_id)
    scene = campaign.active_scene
    if scene is None:
        return [], None
    tokens = visible_tokens(scene.pk, viewer)
    return tokens, vision.token_eyes(campaign, tokens) if scene.fog else None


def snapshot(campaign_id: int, viewer: Viewer, preview: str | None = None) -> dict:
    """The room as `viewer` may see it now. Read in one transaction so the
    sequence number matches the state. A GM who previews a group's view
    (`preview`) gets that group's vision; a player their own group's.
    `tokens` is the table a snapshot sends, `metas` what the socket keeps
    of each of them (serialize.token_metas: its own table, to check drags).
    The log's scene changes keep only their scene: the snapshot's `scene`
    and `tokens` are newer than their tokens."""
    from django.db import transaction

    with transaction.atomic():
        campaign = Campaign.objects.select_related("active_scene").get(pk=campaign_id)
        scene = campaign.active_scene
        tail = list(
            RoomEvent.objects.filter(campaign_id=campaign_id, seq__lte=campaign.event_seq).order_by(
                "-seq"
            )[:LOG_TAIL]
        )
        table = visible_table(scene.pk if scene else None, viewer)
        metas = token_metas(table)
        return {
            "seq": campaign.event_seq,
            "campaign": campaign_summary(campaign),
            # The scene with the drawings on it the viewer sees (vtt.drawings).
            "scene": {**scene_data(scene), "drawings": scene_drawings(viewer, scene)}
            if scene
            else None,
            "tokens": table,
            # The status markers of the tokens it carries (policy.sees_marker).
            "markers": [marker_data(m) for m in markers_for(viewer, campaign_id, scene.pk)]
            if scene
            else [],
            "metas": metas,
            "log": [in_snapshot(event_view(event, viewer)) for event in reversed(tail)],
            "vision": vision_for(scene.pk if scene else None, viewer, preview),
            # Only the tokens the viewer holds are ever asked about.
            "eyes": vision.token_eyes(campaign, metas) if scene and scene.fog else None,
            # What waits for this member to decide (the room bar's queue).
            "decisions": pending_for(campaign_id, viewer),
        }


def scene_drawings(viewer: Viewer, scene) -> list[dict]:
    return [drawing_data(d) for d in drawings_seen(viewer, scene)]


def in_snapshot(view: dict) -> dict:
    """A log entry as a snapshot's log carries it: a scene change without
    its tokens (a client skips it; each held thousands of tokens)."""
    if view["type"] != event_kinds.SCENE_ACTIVATED:
        return view
    return {**view, "data": {"scene": view["data"]["scene"]}}


def vision_for(scene_id: int | None, viewer: Viewer, preview: str | None = None) -> dict | None:
    """The vision frame's content for a member: their group's, or for a GM
    the group they preview (none unless they do)."""
    group = preview if policy.runs_table(viewer) else viewer.group
    return vision.vision_of(scene_id, group)


def sight_groups(campaign_id: int) -> list[str]:
    """The groups that see the campaign's fog scenes now (vision.groups_of)."""
    settings = Campaign.objects.values_list("settings", flat=True).get(pk=campaign_id)
    return vision.groups_of(vision.players_of(campaign_id), settings)


def room_vision(campaign_id: int, viewer: Viewer, preview: str | None = None) -> dict | None:
    scene_id = Campaign.objects.values_list("active_scene_id", flat=True).get(pk=campaign_id)
    return vision_for(scene_id, viewer, preview)


def resync_plan(campaign_id: int, since: int) -> str | None:
    """Why a client at `since` should get a snapshot instead of pages, or None."""
    latest = current_seq(campaign_id)
    if since > latest:
        return "unknown_seq"
    if latest - since > RESYNC_LIMIT:
        return "too_far_behind"
    # A scene change carries the new map's tokens, and pages replay it like
    # any event; one logged before it did (no "tokens") cannot be replayed.
    untold = (
        RoomEvent.objects.filter(
            campaign_id=campaign_id, seq__gt=since, kind=event_kinds.SCENE_ACTIVATED
        )
        .exclude(data__has_key="tokens")
        .exists()
    )
    return "scene_changed" if untold else None


def views_since(campaign_id: int, after: int, viewer: Viewer, limit: int = PAGE) -> list[dict]:
    return [event_view(event, viewer) for event in events_since(campaign_id, after, limit)]


def rendered_since(campaign_id: int, after: int, limit: int = PAGE) -> list[dict]:
    """Log entries after `after`, as broadcast messages (the hub's gap repair)."""
    return [render_event(event) for event in events_since(campaign_id, after, limit)]
