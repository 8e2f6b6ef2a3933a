"""Characters: player characters owned by a player, NPCs run by the GM.

A player creates and edits only their own player characters (name, sheet,
weapons); resources change through resource_spend or a GM; gm_notes and NPCs
are the GM's alone. Sheets are checked against the game (vtt.games.sheets)
and stored normalised."""

from django.contrib.auth import get_user_model
from django.db import transaction

from vtt.core import shapes
from vtt.games import sheets
from vtt.pictures import images

from .. import event_kinds, policy
from ..events import append_event
from ..models import Character, Membership, Token, Visibility
from ..serialize import character_public_data
from .access import actor, find, require_participant, unknown
from .errors import NotAllowed, ServiceError
from .tokens import token_changed

PLAYER_FIELDS = {"name", "sheet", "weapons"}
GM_FIELDS = PLAYER_FIELDS | {"kind", "owner_id", "resources", "gm_notes"}


def character_event(character: Character, kind: str, by, data: dict | None = None):
    """NPCs are the GM's business: their events reach the GM only."""
    visibility = Visibility.GM if character.kind == Character.Kind.NPC else Visibility.PUBLIC
    append_event(
        campaign=character.campaign,
        kind=kind,
        data=data if data is not None else {"character": character_public_data(character)},
        actor=actor(by),
        visibility=visibility,
    )


def _owner(campaign_id: int, owner_id, path: str = "owner_id"):
    if owner_id is None:
        return None
    if type(owner_id) is not int:
        raise shapes.invalid(path, "must be a user id or null")
    member = Membership.objects.filter(
        policy.takes_part_q(), campaign_id=campaign_id, user_id=owner_id
    ).first()
    if member is None:
        raise shapes.invalid(path, "must be a GM or player of this campaign")
    return get_user_model().objects.get(pk=owner_id)


def _gm_notes(value) -> str:
    if not isinstance(value, str):
        raise shapes.invalid("gm_notes", "must be text")
    if len(value) > 20000:
        raise shapes.invalid("gm_notes", "must be at most 20000 characters")
    return shapes.storable(value, "gm_notes")


def character_create(
    *,
    campaign_id: int,
    by,
    name: str,
    kind: str = Character.Kind.PC,
    owner_id: int | None = None,
    sheet: dict | None = None,
    weapons: list | None = None,
    resources: dict | None = None,
    gm_notes: str = "",
) -> Character:
    member = require_participant(campaign_id, by, doing="create characters", with_campaign=True)
    campaign = member.campaign
    kind = shapes.choice(kind, "kind", Character.Kind.values)
    if not policy.runs_table(member):
        if kind != Character.Kind.PC:
            raise NotAllowed("only a GM may create NPCs", "kind")
        if owner_id not in (None, by.pk):
            raise NotAllowed("a player creates characters for themselves", "owner_id")
        if resources is not None:
            raise NotAllowed("only a GM may set resources", "resources")
        if gm_notes:
            raise NotAllowed("only a GM may write GM notes", "gm_notes")
        owner_id = by.pk
    character = Character(
        campaign=campaign,
        name=shapes.text(name, "name", 120),
        kind=kind,
        owner=_owner(campaign_id, owner_id),
        sheet=sheets.clean_sheet(campaign.game, sheet, campaign.settings),
        weapons=sheets.clean_weapons(campaign.game, weapons),
        resources=sheets.clean_resources(campaign.game, resources, campaign.settings),
        gm_notes=_gm_notes(gm_notes),
    )
    with transaction.atomic():
        character.save()
        character_event(character, event_kinds.CHARACTER_CREATED, by)
    return character


def character_for(character_id: int, by) -> tuple[Character, Membership]:
    """The character if `by` may see it: NPCs exist for GMs only."""
    character, member = find(
        Character.objects.select_related("campaign", "owner"), character_id, by, "character"
    )
    if not policy.sees_character(policy.member_viewer(member), character):
        raise unknown("character")
    return character, member


def character_update(*, character_id: int, by, **fields) -> Character:
    """Change some of name, kind, owner_id, sheet, weapons, resources and
    gm_notes. A given sheet replaces the stored one (normalised)."""
    character, member = character_for(character_id, by)
    for field in fields:
        if field not in GM_FIELDS:
            raise ServiceError("unknown_field", f"{field} is not a known field", field)
        if not policy.runs_table(member) and field not in PLAYER_FIELDS:
            raise NotAllowed(f"only a GM may change {field}", field)
    if not policy.may_edit_character(member, character):
        raise NotAllowed("a player edits only their own characters")
    campaign = character.campaign
    clean = {}
    if "name" in fields:
        clean["name"] = shapes.text(fields["name"], "name", 120)
    if "kind" in fields:
        clean["kind"] = shapes.choice(fields["kind"], "kind", Character.Kind.values)
    if "owner_id" in fields:
        clean["owner"] = _owner(campaign.pk, fields["owner_id"])
    if "sheet" in fields:
        clean["sheet"] = sheets.clean_sheet(campaign.game, fields["sheet"], campaign.settings)
    if "weapons" in fields:
        clean["weapons"] = sheets.clean_weapons(campaign.game, fields["weapons"])
    if "gm_notes" in fields:
        clean["gm_notes"] = _gm_notes(fields["gm_notes"])
    with transaction.atomic():
        character = Character.objects.select_for_update().get(pk=character.pk)
        if "resources" in fields:
            clean["resources"] = sheets.clean_resources(
                campaign.game, fields["resources"], campaign.settings, base=character.resources
            )
        was_pc = character.kind == Character.Kind.PC
        for name, value in clean.items():
            setattr(character, name, value)
        character.save()
        visible_change = bool(set(clean) - {"gm_notes"})
        if visible_change and was_pc and character.kind == Character.Kind.NPC:
            # Became an NPC: the players see it leave, as with a hidden token.
            append_event(
                campaign=campaign,
                kind=event_kinds.CHARACTER_REMOVED,
                data={"character": {"id": character.pk, "name": character.name}},
                actor=actor(by),
            )
        if visible_change:
            character_event(character, event_kinds.CHARACTER_UPDATED, by)
    return character


def character_delete(*, character_id: int, by) -> None:
    character, member = character_for(character_id, by)
    if not policy.may_edit_character(member, character):
        raise NotAllowed("a player deletes only their own characters")
    with transaction.atomic():
        character_event(
            character,
            event_kinds.CHARACTER_DELETED,
            by,
            data={"character": {"id": character.pk, "name": character.name}},
        )
        # Tokens that showed its portrait show none once it is gone.
        linked = Token.objects.select_for_update().filter(character_id=character.pk)
        showing = [t.pk for t in linked.order_by("pk") if not t.art] if character.portrait else []
        images.forget_pictures([character])
        character.delete()
        bare = Token.objects.filter(pk__in=showing).select_related("scene__campaign")
        for token in bare.order_by("pk"):
            token_changed(token, by)
