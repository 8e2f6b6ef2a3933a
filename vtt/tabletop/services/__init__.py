"""Every change to the tabletop goes through these services; the REST API,
the live rooms, the admin and the management commands all call them.

Services are named <entity>_<action>, take keyword-only arguments, check
permissions and invariants, write inside a transaction and append the room
event in that same transaction. `by` is the user asking, or SYSTEM for the
server itself (admin site, management commands)."""

from .errors import NotAllowed, NotFound, ServiceError, StaleVersion  # isort: skip
from .access import SYSTEM
from .art import (
    character_clear_portrait,
    character_set_portrait,
    token_clear_art,
    token_set_art,
)
from .campaigns import (
    campaign_create,
    campaign_delete,
    campaign_update,
    campaign_update_settings,
)
from .characters import character_create, character_delete, character_update
from .invites import invite_accept, invite_create, invite_revoke
from .markers import marker_add, marker_remove
from .memberships import membership_add, membership_remove, membership_set_role
from .resources import resource_gain, resource_spend
from .scenes import (
    scene_activate,
    scene_clear_background,
    scene_create,
    scene_delete,
    scene_set_background,
    scene_update,
)
from .tokens import (
    token_create,
    token_delete,
    token_edit,
    token_move,
    token_set_hidden,
    token_update,
)

__all__ = [
    "SYSTEM",
    "NotAllowed",
    "NotFound",
    "ServiceError",
    "StaleVersion",
    "campaign_create",
    "campaign_delete",
    "campaign_update",
    "campaign_update_settings",
    "character_clear_portrait",
    "character_create",
    "character_delete",
    "character_set_portrait",
    "character_update",
    "invite_accept",
    "invite_create",
    "invite_revoke",
    "marker_add",
    "marker_remove",
    "membership_add",
    "membership_remove",
    "membership_set_role",
    "resource_gain",
    "resource_spend",
    "scene_activate",
    "scene_clear_background",
    "scene_create",
    "scene_delete",
    "scene_set_background",
    "scene_update",
    "token_clear_art",
    "token_create",
    "token_delete",
    "token_edit",
    "token_move",
    "token_set_art",
    "token_set_hidden",
    "token_update",
]
