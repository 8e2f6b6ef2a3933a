"""Writing a chain's results onto characters: each change is kept as
{"character_id", "character", "field", "before", "after"} so the room can
show it and undo can reverse it, and the resources after the event are
remembered (the "before" of whatever comes next). A change that also names
a `weapon` is a weapon the chain broke (its field is the kit's
WeaponChange), not a resource.

"character" is the label the table knows the character by, given with each
change: an NPC's sheet name is the GM's secret, so an attack names an NPC
by its token (see attacks.side_name)."""

from vtt.tabletop.models import Character

from ..models import BrokenWeapon
from ..projection import remember_resources


def lock_characters(*characters) -> dict[int, Character]:
    """The characters' rows, locked, in id order (so two attacks never wait
    on each other in opposite orders)."""
    ids = sorted({c.pk for c in characters if c is not None})
    locked = (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .filter(pk__in=ids)
    )
    return {c.pk: c for c in locked.order_by("pk")}


def apply_changes(changes) -> tuple[list[dict], list[Character]]:
    """Apply (character, field, after, label) changes to the characters' resources."""
    applied, touched = [], {}
    for character, field, after, label in changes:
        before = character.resources.get(field)
        if before == after:
            continue
        resources = {**character.resources, field: after}
        if after is None:
            del resources[field]  # the field was not there before
        character.resources = resources
        touched[character.pk] = character
        applied.append(
            {
                "character_id": character.pk,
                "character": label,
                "field": field,
                "before": before,
                "after": after,
            }
        )
    for character in touched.values():
        character.save(update_fields=["resources", "updated_at"])
    return applied, list(touched.values())


def reverse_changes(changes: list[dict], characters: dict[int, Character]):
    """Put back the `before` of each change, last first."""
    back = []
    for change in reversed(changes):
        if "weapon" in change:
            continue  # a weapon the chain broke, not a resource: the caller mends it
        character = characters.get(change["character_id"])
        if character is None:
            continue  # deleted since: nothing left to restore
        back.append((character, change["field"], change["before"], change["character"]))
    return apply_changes(back)


def remember(characters, seq: int) -> None:
    for character in characters:
        remember_resources(character.pk, seq, character.resources)


def break_weapons(broken, attack) -> list[dict]:
    """Break (character, weapon, label) weapons; the label as in apply_changes."""
    out = []
    for character, weapon, label in broken:
        _, created = BrokenWeapon.objects.get_or_create(
            character=character, weapon=weapon, defaults={"attack": attack}
        )
        if created:
            out.append({"character_id": character.pk, "character": label, "weapon": weapon})
    return out
