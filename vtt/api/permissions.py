"""Read access for the API views. Writes are checked by the services
themselves; reads go through vtt.tabletop.selectors with these guards, so a
non-member learns nothing (404, the same answer as for an id naming
nothing: services.access.find) and a player never reads what the GM hides."""

from vtt.core.errors import NotAllowed
from vtt.tabletop import policy, selectors
from vtt.tabletop.models import Campaign, Character, Invite, Roll, Scene
from vtt.tabletop.services.access import as_gm, find, unknown
from vtt.tabletop.services.characters import character_for
from vtt.tabletop.services.tokens import token_for
from vtt.tabletop.visibility import Viewer


def campaign_access(user, campaign_id: int) -> tuple[Campaign, Viewer]:
    member = selectors.membership_of(user, campaign_id)
    if member is None:
        raise unknown("campaign")
    return member.campaign, selectors.viewer_of(member)


def gm_access(user, campaign_id: int, doing: str) -> tuple[Campaign, Viewer]:
    campaign, viewer = campaign_access(user, campaign_id)
    if not policy.runs_table(viewer):
        raise NotAllowed(f"only a GM may {doing}")
    return campaign, viewer


def character_access(user, character_id: int) -> tuple[Character, Viewer]:
    character, member = character_for(character_id, user)
    return character, selectors.viewer_of(member)


def scene_access(user, scene_id: int) -> tuple[Scene, Viewer]:
    """The GM sees every scene of the campaign, the others the active one."""
    scene, member = find(
        Scene.objects.select_related("campaign"), scene_id, user, "scene", with_campaign=True
    )
    viewer = selectors.viewer_of(member)
    if not policy.sees_scene(viewer, scene):
        raise unknown("scene")
    return scene, viewer


def token_access(user, token_id: int):
    token, member = token_for(token_id, user)
    scene_access(user, token.scene_id)
    return token, selectors.viewer_of(member)


def roll_access(user, roll_id: int) -> tuple[dict, Viewer]:
    roll, member = find(
        Roll.objects.select_related("roller", "character", "campaign", "event"),
        roll_id,
        user,
        "roll",
        with_campaign=True,
    )
    viewer = selectors.viewer_of(member)
    view = selectors.roll_view(roll, viewer)
    if view is None:
        raise unknown("roll")
    return view, viewer


def invite_access(user, invite_id: int) -> Invite:
    invite, member = find(Invite.objects, invite_id, user, "invite")
    as_gm(member, "manage invites")
    return invite
