"""The way back from dying, where a game has one: in Xero Sum a player gives
up every Insight Die to recover one Wound Point and one Resilience Point per
die and be saved from Dying. The game's wound track (vtt.games.wounds) says
whether the character is dying and what the resources become; this service
checks who asks and writes it in one transaction with one room event, a
`character.updated` as for every other change of resources (so undo puts
it back)."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.tabletop import event_kinds
from vtt.tabletop.models import Character, Role
from vtt.tabletop.services.characters import character_event, character_for
from vtt.tabletop.services.errors import NotAllowed, ServiceError


def character_save_from_dying(*, character_id: int, by) -> Character:
    """Save a dying character the game's way (the owner or a GM)."""
    if type(character_id) is not int:
        raise shapes.invalid("character", "must be a character id")
    character, member = character_for(character_id, by)
    if member.role == Role.OBSERVER:
        raise NotAllowed("an observer may not spend a character's resources", "character")
    if member.role != Role.GM and character.owner_id != getattr(by, "pk", None):
        raise NotAllowed("only the character's owner or a GM may save it", "character")
    with transaction.atomic():
        locked = (
            Character.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .get(pk=character.pk)
        )
        track = games.kit(locked.campaign.game).wound_track
        if track is None:
            raise ServiceError(
                "no_rescue", "this game has no way to be saved from dying", "character"
            )
        locked.resources = track.rescue(locked.resources, locked.campaign.settings)
        locked.save(update_fields=["resources", "updated_at"])
        character_event(locked, event_kinds.CHARACTER_UPDATED, by)
    return locked
