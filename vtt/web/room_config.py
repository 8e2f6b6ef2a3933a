"""What the room page hands its modules at start: the characters' public
data (sheet, weapons, resources, as every member may read them), never
gm_notes, never a hidden token (those come, per viewer, from the websocket
snapshot)."""

from vtt import games
from vtt.tabletop.models import Character


def character_summary(character: Character, game: str, settings: dict | None = None) -> dict:
    sheet = character.sheet or {}
    kit = games.kit(game)
    return {
        "id": character.pk,
        "name": character.name,
        "kind": character.kind,
        "owner_id": character.owner_id,
        "sheet": sheet,
        "entries": kit.entries(sheet),
        "weapons": [w for w in (character.weapons or []) if isinstance(w, dict)],
        "resources": character.resources or {},
        "wounds": kit.wounds(character.resources or {}, settings or {}),
    }
