"""Reads, filtered by who is asking. The REST API lists through these and
the live rooms build their snapshots with them, so both hide the same things:
other campaigns, NPCs from players, hidden tokens, rolls a viewer may not see."""

from django.db.models import QuerySet

from . import policy
from .models import Campaign, Character, Invite, Marker, Membership, Roll, Scene, Token
from .serialize import roll_event_data, user_data
from .visibility import Viewer


def campaigns_of(user) -> QuerySet:
    return Campaign.objects.filter(memberships__user=user).order_by("name", "id")


def membership_of(user, campaign_id: int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user_id=user.pk)
        .first()
    )


def viewer_of(member: Membership) -> Viewer:
    return policy.member_viewer(member, member.campaign.settings)


def members_of(campaign_id: int) -> QuerySet:
    return Membership.objects.filter(campaign_id=campaign_id).select_related("user")


def invites_of(campaign_id: int) -> QuerySet:
    return Invite.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-id")


def characters_for(viewer: Viewer, campaign_id: int) -> QuerySet:
    characters = Character.objects.filter(
        policy.visible_characters_q(viewer), campaign_id=campaign_id
    )
    return characters.select_related("owner", "campaign").order_by("name", "id")


def scenes_for(viewer: Viewer, campaign_id: int) -> QuerySet:
    """The GM sees every map; the others the one the room is on."""
    scenes = Scene.objects.filter(policy.visible_scenes_q(viewer), campaign_id=campaign_id)
    return scenes.order_by("created_at", "id")


def tokens_seen(viewer: Viewer, scene_id: int) -> QuerySet:
    """The tokens of a scene that `viewer` sees (policy.sees_token), by id."""
    return Token.objects.filter(policy.visible_tokens_q(viewer), scene_id=scene_id).order_by("id")


def tokens_for(viewer: Viewer, scene_id: int) -> QuerySet:
    """tokens_seen, with what token_data reads of each."""
    return tokens_seen(viewer, scene_id).select_related("character").prefetch_related("controllers")


def markers_for(viewer: Viewer, campaign_id: int, scene_id: int | None = None) -> QuerySet:
    """The campaign's status markers `viewer` sees (policy.sees_marker), of
    one scene's tokens when `scene_id` is given."""
    markers = Marker.objects.filter(token__scene__campaign_id=campaign_id)
    if scene_id is not None:
        markers = markers.filter(token__scene_id=scene_id)
    return markers.filter(policy.visible_markers_q(viewer)).order_by("token_id", "id")


def scene_markers(viewer: Viewer, scene_id: int) -> QuerySet:
    """The status markers of one scene's tokens that `viewer` sees."""
    markers = Marker.objects.filter(token__scene_id=scene_id)
    return markers.filter(policy.visible_markers_q(viewer)).order_by("token_id", "id")


def conditions_on(character) -> list[str]:
    """The conditions a character's tokens on the room's scene are marked
    with, as its rolls take them (vtt.dice.rolls): not a GM-only marker's,
    whose effect on a roll would tell the player of it."""
    scene_id = character.campaign.active_scene_id
    if scene_id is None:
        return []
    found = Marker.objects.filter(
        token__character_id=character.pk, token__scene_id=scene_id, gm_only=False
    ).exclude(condition="")
    return sorted(set(found.values_list("condition", flat=True)))


def rolls_for(viewer: Viewer, campaign_id: int) -> QuerySet:
    """Newest first: the rolls the viewer sees in full, and their own blind
    rolls (shown only as having been made); under fog only those the room
    showed them (policy.visible_rolls_q, which mirrors roll_sight)."""
    rolls = Roll.objects.filter(policy.visible_rolls_q(viewer), campaign_id=campaign_id)
    # By id, the order they were recorded in: the list pages on it (keyset).
    return rolls.select_related("roller", "character", "campaign", "event").order_by("-id")


def _roll_common(roll: Roll) -> dict:
    return {
        "id": roll.pk,
        "campaign_id": roll.campaign_id,
        "created_at": roll.created_at.isoformat(),
        "visibility": roll.visibility,
    }


def roll_announcement(roll: Roll) -> dict:
    """That a roll was made, by whom, of what action: nothing of its dice."""
    announcement = policy.blind_announcement(
        {"request": roll.request, "roller": user_data(roll.roller)}
    )
    return _roll_common(roll) | {
        "roll_id": roll.pk,
        "roller": announcement["roller"],
        "character": None,
        "request": None,
        "result": None,
        "physical": False,
        "draw": None,
        "blind": True,
        "system": announcement["system"],
        "action": announcement["action"],
    }


def roll_view(roll: Roll, viewer: Viewer) -> dict | None:
    """The roll as `viewer` may see it (policy.roll_sight, the room's answer
    for its entry): in full, as the bare announcement of their own blind
    roll, or not at all."""
    sight = policy.roll_sight(viewer, roll)
    if sight == policy.IN_FULL:
        request = roll.request if isinstance(roll.request, dict) else {}
        return (
            _roll_common(roll)
            | roll_event_data(roll)
            | {"blind": False, "system": request.get("system"), "action": request.get("action")}
        )
    if sight == policy.AS_MADE:
        return roll_announcement(roll)
    return None


def token_name(moved: dict) -> str:
    """The name of a token.moved's token: in the entry when it carries the
    token whole (logged before moves were slim), else the token's own, or
    "A token" once it is gone."""
    if "name" in moved:
        return moved["name"]
    name = Token.objects.filter(pk=moved["id"]).values_list("name", flat=True).first()
    return name or "A token"
