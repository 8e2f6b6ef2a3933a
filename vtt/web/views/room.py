"""The live room: battle map, dice tray, attacks, turn order, roll log,
chat and who is online. The page is a shell; its modules fill it from the
websocket snapshot (and combat's REST reads for trails and the encounter)."""

from django.shortcuts import render
from django.urls import reverse

from vtt import games
from vtt.games.conditions import ICONS
from vtt.markers.services import MAX_MARKER_LABEL
from vtt.tabletop import policy
from vtt.tabletop.models import Character, Membership
from vtt.tabletop.serialize import user_data

from ..access import membership_or_404
from ..room_config import character_summary
from ..tray_spec import tray_spec


def _root(name: str) -> str:
    """A REST path up to its object's id ("/api/tokens/"), for the page to add one."""
    return reverse(name, args=[0]).removesuffix("0/")


def room(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    is_gm = policy.runs_table(membership)
    viewer = policy.member_viewer(membership)
    track = games.kit(campaign.game).wound_track
    characters = Character.objects.filter(campaign=campaign).select_related("owner")
    config = {
        "campaign": {"id": campaign.pk, "name": campaign.name, "game": campaign.game},
        "settings": campaign.settings or {},
        # How the page reads a character's wound state (static/js/room/wounds.js).
        "wound_track": track.browser() if track else None,
        "me": {"id": request.user.pk, "name": request.user.get_username(), "role": membership.role},
        # What the page may offer this member (policy.capabilities): the
        # scripts draw their controls from it and decide nothing themselves.
        "may": policy.capabilities(membership),
        "socket": f"/ws/campaigns/{campaign.pk}/",
        "api": {
            "odds": reverse("odds"),
            "adjudicate": reverse("adjudicate"),
            # Combat's REST root: range bands, trails and the running encounter.
            "combat": reverse("combat-attacks").removesuffix("attacks/"),
            # A character's REST root: the sheet tab spends and awards counters there.
            "character": _root("character"),
            "undo": reverse("combat-undo", args=[campaign.pk]),
            # A token's REST root: the GM's token dialog sends its picture there.
            "token": _root("token"),
            # A scene's REST root: the GM tab turns its fog and lighting there.
            "scene": _root("scene"),
            # The Handouts tab: the campaign's list (and where the GM makes
            # them), and a handout's REST root (its share).
            "handouts": reverse("handouts", args=[campaign.pk]),
            "handout": _root("handout"),
        },
        # What a free marker may be (vtt.markers.services).
        "markers": {"icons": list(ICONS), "label_max": MAX_MARKER_LABEL},
        # A play session's page (its number and "/" added): its rolls, checked.
        "pages": {"sessions": reverse("web:sessions", args=[campaign.pk])},
        "characters": [
            character_summary(c, campaign.game, campaign.settings)
            for c in characters
            # NPCs are the GM's, even one the GM handed to a player's name.
            if policy.sees_character(viewer, c)
        ],
    }
    if is_gm:
        # Who may control a token: the token dialog's checkboxes.
        config["members"] = [
            # `sight`: the groups they see through, for the "see as" choice.
            {**user_data(m.user), "role": m.role, "sight": policy.sight_groups(m)}
            for m in Membership.objects.filter(policy.takes_part_q(), campaign=campaign)
            .select_related("user")
            .order_by("role", "user__username")
        ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "is_gm": is_gm,
        "config": config,
        "tray": tray_spec(campaign.game),
    }
    return render(request, "web/room.html", context)
