"""Status markers on tokens: one of the game's declared conditions, or a
GM's free marker (an icon of the fixed set and a few words), either of
them GM-only for a secret. Each add and each removal is one room event,
seen as its token is (policy.sees_marker)."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.games.conditions import ICONS
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Marker, RoomEvent, Token
from vtt.tabletop.serialize import marked_token, marker_data
from vtt.tabletop.services.access import actor, find, require_member, unknown
from vtt.tabletop.services.errors import NotAllowed, ServiceError

MAX_MARKER_LABEL = 40  # a free marker's words: a badge's tooltip, not a note
MAX_MARKERS_PER_TOKEN = 12  # badges around one token, and then some


def _seen_token(campaign_id: int, token_id, member) -> Token:
    """The campaign's token `member` sees, or a field error: a marker names
    its token in the request, so an unknown one is bad input (the same
    answer whether there is none or the GM keeps it from them)."""
    token = (
        Token.objects.select_related("scene__campaign")
        .filter(pk=token_id, scene__campaign_id=campaign_id)
        .first()
        if type(token_id) is int
        else None
    )
    viewer = policy.member_viewer(member, member.campaign.settings)
    if token is None or not policy.sees_token(viewer, token):
        raise shapes.invalid("token", "no such token")
    return token


def _what(kit, condition, icon, label) -> tuple[str, str, str]:
    """(condition id, icon, label) of the marker asked for."""
    if condition not in (None, ""):
        if icon not in (None, "") or label not in (None, ""):
            raise shapes.invalid(
                "condition_id", "give a condition, or an icon and a label, not both"
            )
        if not isinstance(condition, str) or kit.condition(condition) is None:
            known = ", ".join(c.name for c in kit.conditions) or "none"
            raise shapes.invalid("condition_id", f"is not one of this game's conditions ({known})")
        found = kit.condition(condition)
        return found.id, found.icon, found.name
    icon = shapes.choice(icon, "icon", ICONS)
    label = shapes.text(label, "label", MAX_MARKER_LABEL)
    return "", icon, label


def marker_add(
    *,
    campaign_id: int,
    token_id: int,
    by,
    condition_id: str | None = None,
    icon: str | None = None,
    label: str | None = None,
    gm_only: bool = False,
) -> Marker:
    """Put a marker on a token (policy.may_mark_token): one of the game's
    conditions (`condition_id`), or a free one (`icon`, `label`)."""
    member = require_member(campaign_id, by, with_campaign=True)
    token = _seen_token(campaign_id, token_id, member)
    gm_only = shapes.boolean(gm_only, "gm_only")
    condition, icon, label = _what(games.kit(member.campaign.game), condition_id, icon, label)
    if not policy.may_mark_token(member, token, condition=bool(condition), gm_only=gm_only):
        raise NotAllowed(_refusal(member, condition, gm_only))
    with transaction.atomic():
        token = Token.objects.select_for_update().select_related("scene__campaign").get(pk=token.pk)
        mine = Marker.objects.filter(token=token)
        if mine.count() >= MAX_MARKERS_PER_TOKEN:
            raise ServiceError(
                "too_many", f"a token carries at most {MAX_MARKERS_PER_TOKEN} markers", "token"
            )
        if condition and mine.filter(condition=condition).exists():
            raise ServiceError("already_marked", f"{token.name} is {label} already", "condition_id")
        marker = Marker.objects.create(
            token=token,
            condition=condition,
            icon=icon,
            label=label,
            gm_only=gm_only,
            added_by=actor(by),
        )
        _event(token, marker, event_kinds.MARKER_ADDED, by)
    return marker


def marker_remove(*, marker_id: int, by) -> None:
    """Take a marker off its token: whoever may put such a marker there."""
    marker, member = find(
        Marker.objects.select_related("token__scene__campaign"),
        marker_id,
        by,
        "marker",
        campaign="token.scene.campaign_id",
    )
    token = marker.token
    viewer = policy.member_viewer(member, token.scene.campaign.settings)
    if not policy.sees_marker(viewer, marker, token):
        raise unknown("marker")
    allowed = policy.may_mark_token(
        member, token, condition=bool(marker.condition), gm_only=marker.gm_only
    )
    if not allowed:
        raise NotAllowed(_refusal(member, marker.condition, marker.gm_only))
    with transaction.atomic():
        token = Token.objects.select_for_update().select_related("scene__campaign").get(pk=token.pk)
        _event(token, marker, event_kinds.MARKER_REMOVED, by)
        marker.delete()


def marker_undo(added: RoomEvent, by) -> RoomEvent:
    """Undo a marker.added (the GM's undo, vtt.combat.services.undo, which
    asked policy and holds the room's lock): the marker comes off again,
    by a marker.removed naming the entry it undoes."""
    marker = (
        Marker.objects.select_related("token__scene__campaign")
        .filter(pk=added.payload.marker["id"])
        .first()
    )
    if marker is None:
        raise ServiceError("cannot_undo", "the marker has been taken off since", "seq")
    token = (
        Token.objects.select_for_update().select_related("scene__campaign").get(pk=marker.token_id)
    )
    undo = _event(token, marker, event_kinds.MARKER_REMOVED, by, undo_of=added.seq)
    marker.delete()
    return undo


def _event(token: Token, marker: Marker, kind: str, by, **extra) -> RoomEvent:
    data = {"token": marked_token(token), "marker": marker_data(marker), **extra}
    return append_event(
        campaign=token.scene.campaign,
        kind=kind,
        data=data,
        actor=actor(by),
        visibility=policy.marker_audience(marker.gm_only),
        scene_id=token.scene_id,
    )


def _refusal(member, condition: str, gm_only: bool) -> str:
    if not policy.takes_part(member):
        return "an observer may not mark tokens"
    if gm_only:
        return "only a GM may keep a marker secret"
    if not condition:
        return "only a GM may add a free marker"
    return "you do not control this token"
