"""Records kept beside the room log, written in the same transaction as each
log entry: the trail of every token's moves (this turn's, or its last few
outside an encounter), and each character's resources after every change
(the "before" state undo restores).

They follow the log rather than the services that write it, so a move or a
spent point made anywhere (REST, the live room, the admin) is covered:
append_event calls them for their kinds (registered by the combat app)."""

from django.db import connection

from vtt.db import rows
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.events import register_projector
from vtt.tabletop.models import RoomEvent

from .models import Encounter, ResourceState, TrailStep

CHARACTER_KINDS = (kinds.CHARACTER_CREATED, kinds.CHARACTER_UPDATED)
# Outside an encounter a token's trail is its last few steps: where it just
# went, not everywhere it has been all evening (docs/combat.md).
FREE_STEPS = 5


def record_move(event: RoomEvent) -> None:
    data = event.data  # the shape token.moved declares
    token, start = data["token"], data["from"]
    if data.get("reset", False):
        # Back where the turn began: the trail starts again from there.
        TrailStep.objects.filter(token_id=token["id"]).delete()
        return
    if "undo_of" in data:
        undone = TrailStep.objects.filter(token_id=token["id"], seq=data["undo_of"])
        if undone.delete()[0]:
            return
    step = {
        "scene_id": token["scene_id"],
        "token_id": token["id"],
        "seq": event.seq,
        "from_x": start[0],
        "from_y": start[1],
        "to_x": token["x"],
        "to_y": token["y"],
    }
    with connection.cursor() as cursor:
        cursor.execute(OVERWRITE, {**step, "keep": FREE_STEPS})
        if cursor.rowcount:
            return
    rows.insert(connection, TrailStep(**step))  # every move of an encounter writes one
    compact(step["scene_id"], step["token_id"])


# One statement, written out: the ORM's delete() (its collector, the
# compiled subqueries) cost more than the statement itself, on every move.
STEPS, ENCOUNTERS = TrailStep._meta.db_table, Encounter._meta.db_table
COMPACT = (
    f"DELETE FROM {STEPS} WHERE scene_id = %(scene_id)s AND token_id = %(token_id)s"
    f" AND seq < (SELECT seq FROM {STEPS} WHERE scene_id = %(scene_id)s AND token_id = %(token_id)s"
    " ORDER BY seq DESC LIMIT 1 OFFSET %(keep)s)"
    f" AND NOT EXISTS (SELECT 1 FROM {ENCOUNTERS} WHERE scene_id = %(scene_id)s AND ended_at IS NULL)"
)


# Outside an encounter, a token that has its FREE_STEPS steps already
# takes the oldest one's row for the new step: no insert and no delete, and
# (no indexed column changes) an in-place update whose old version the page
# reclaims itself, so the table stays a few pages however long the room plays.
OVERWRITE = (
    f"UPDATE {STEPS} SET seq = %(seq)s, from_x = %(from_x)s, from_y = %(from_y)s,"
    " to_x = %(to_x)s, to_y = %(to_y)s"
    f" WHERE id = (SELECT id FROM {STEPS} WHERE scene_id = %(scene_id)s AND token_id = %(token_id)s"
    " ORDER BY seq LIMIT 1)"
    f" AND (SELECT count(*) FROM {STEPS} WHERE scene_id = %(scene_id)s AND token_id = %(token_id)s)"
    " = %(keep)s"
    f" AND NOT EXISTS (SELECT 1 FROM {ENCOUNTERS} WHERE scene_id = %(scene_id)s AND ended_at IS NULL)"
)


def compact(scene_id: int, token_id: int) -> None:
    """Outside an encounter, forget the token's steps before its last
    FREE_STEPS, so the table holds a few rows per token however long the
    room has played. One statement on the trail's index; during an
    encounter the turn's path is kept whole (a turn change clears it)."""
    with connection.cursor() as cursor:
        cursor.execute(
            COMPACT, {"scene_id": scene_id, "token_id": token_id, "keep": FREE_STEPS - 1}
        )


def remember_resources(character_id: int, seq: int, resources: dict) -> None:
    ResourceState.objects.update_or_create(
        character_id=character_id, seq=seq, defaults={"resources": resources}
    )


def record_character(event: RoomEvent) -> None:
    character = event.data["character"]
    remember_resources(character["id"], event.seq, character["resources"])


def register() -> None:
    register_projector((kinds.TOKEN_MOVED,), record_move)
    register_projector(CHARACTER_KINDS, record_character)
