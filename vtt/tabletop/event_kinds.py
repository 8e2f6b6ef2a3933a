"""Every kind of room event, declared once: its name, the shape of its
payload and who sees it. append_event refuses a kind not declared here and a
payload that does not match its declaration (both are programming errors);
vtt.tabletop.policy renders each event by its kind's sight; docs/protocol.md
lists the same table; the browser applies them in static/js/room/state.js.

Payloads are checked with the rules package's declarative fields
(vtt.rules.schema): unknown keys and missing required ones fail, as do
wrong types. Opaque parts (a rules request, a sheet, an attack's steps) are
checked as objects only: their own modules validate them."""

import copy
from dataclasses import dataclass
from enum import StrEnum

from vtt.rules import RulesError
from vtt.rules.schema import MISSING, Bool, Choice, Field, Int, List, Obj, validate

from .models import Role, Visibility

# ------------------------------------------------------------------ names

ROLL = "roll"
CHAT = "chat"
WHISPER = "whisper"
CAMPAIGN_UPDATED = "campaign.updated"
MEMBER_JOINED = "member.joined"
MEMBER_UPDATED = "member.updated"
MEMBER_REMOVED = "member.removed"
CHARACTER_CREATED = "character.created"
CHARACTER_UPDATED = "character.updated"
CHARACTER_REMOVED = "character.removed"
CHARACTER_DELETED = "character.deleted"
SCENE_CREATED = "scene.created"
SCENE_UPDATED = "scene.updated"
SCENE_DELETED = "scene.deleted"
SCENE_ACTIVATED = "scene.activated"
TOKEN_CREATED = "token.created"
TOKEN_MOVED = "token.moved"
TOKEN_UPDATED = "token.updated"
TOKEN_HIDDEN = "token.hidden"
TOKEN_REVEALED = "token.revealed"
TOKEN_DELETED = "token.deleted"
ENCOUNTER_STARTED = "encounter.started"
ENCOUNTER_INITIATIVE = "encounter.initiative"
ENCOUNTER_UPDATED = "encounter.updated"
ENCOUNTER_TURN = "encounter.turn"
ENCOUNTER_ENDED = "encounter.ended"
# The events carrying a whole turn order (`encounter`).
ENCOUNTER_KINDS = (
    ENCOUNTER_STARTED,
    ENCOUNTER_INITIATIVE,
    ENCOUNTER_UPDATED,
    ENCOUNTER_TURN,
    ENCOUNTER_ENDED,
)
COMBAT_ATTACK = "combat.attack"
COMBAT_DAMAGE = "combat.damage"
COMBAT_DECLINED = "combat.declined"
COMBAT_WEAPON_REPAIRED = "combat.weapon_repaired"
UNDO = "undo"
REVEAL = "reveal"
TRAILS_CLEARED = "trails.cleared"
FOG_CHANGED = "fog.changed"
LIGHT_CHANGED = "light.changed"
SESSION_STARTED = "session.started"
SESSION_ENDED = "session.ended"

# What a recipient may get instead of an event (never stored).
REDACTED = "redacted"
TOKEN_REMOVED = "token.removed"
SIGHT_CHANGED = "sight.changed"

# The key under which append_event stores the fog annotation of an event on
# a fog scene (vtt.fog.vision.annotate). No payload declares it and no
# view carries it: event_view turns it into what each group may learn.
SIGHT = "sight"


class Sight(StrEnum):
    """How an event's recipients are decided (vtt.tabletop.policy.event_view)."""

    # By the event's visibility: public, gm, self, blind (a blind roll's
    # roller gets the bare announcement).
    VISIBILITY = "visibility"
    # By the visibility (another scene: the GM's) and the token's `hidden`:
    # players see a token vanish when it is hidden, nothing of it after.
    TOKEN = "token"
    # By the visibility; players get `players_view` instead when present.
    PLAYERS_VIEW = "players_view"
    # Its actor and the one member the payload's `to` names, whatever their
    # roles: nobody else, the GM included (unless the GM is one of the two).
    ADDRESSED = "addressed"


# ------------------------------------------------------------------ payload fields


class Text(Field):
    def clean(self, value, path):
        if not isinstance(value, str):
            raise RulesError("invalid", f"{path} must be text", path)
        return value


class Object(Field):
    """A JSON object whose inside another module validates."""

    def clean(self, value, path):
        if not isinstance(value, dict):
            raise RulesError("invalid", f"{path} must be an object", path)
        return value


class Json(Field):
    takes_anything = True

    def clean(self, value, path):
        return value


class Nullable(Field):
    def __init__(self, field: Field, default=MISSING):
        super().__init__(default)
        self.field = field

    def clean(self, value, path):
        return None if value is None else self.field.clean(value, path)


def optional(field: Field) -> Field:
    """A key that may be left out (never None when present)."""
    field = copy.copy(field)
    field.default = None
    return field


ID = Int(lo=1)
USER = Obj({"id": ID, "name": Text()})
NAMED = Obj({"id": ID, "name": Text()})
SQUARE = List(Int(lo=0), min_len=2, max_len=2)
# A stored picture's URLs (vtt.tabletop.serialize.picture_data).
PICTURE = Obj({"url": Text(), "thumb_128": Text(), "thumb_256": Text()})
TOKEN = Obj(
    {
        "id": ID,
        "scene_id": ID,
        "character_id": Nullable(ID),
        "name": Text(),
        "x": Int(lo=0),
        "y": Int(lo=0),
        "size": Int(lo=1),
        "hidden": Bool(),
        "color": Text(),
        # Sight in the dark and light carried, in feet (events logged before
        # fog of war lack both).
        "sight_ft": optional(Int(lo=0)),
        "light_ft": optional(Int(lo=0)),
        "controllers": List(ID, max_len=50),
        "version": Int(lo=1),
        # What the map draws in it: its own art, its character's portrait
        # ("character"), or null. (Events logged before pictures lack both.)
        "art": Nullable(PICTURE),
        "art_from": Nullable(Choice("token", "character")),
    }
)
# token.moved's token: what a move changes, the rest being as the reader
# holds it (vtt.tabletop.serialize.token_moved_data). Entries logged before
# moves were slim carry the whole token: the other fields, optional here.
MOVED_TOKEN = Obj(
    {
        name: field
        if name in ("id", "scene_id", "x", "y", "version", "hidden")
        else optional(field)
        for name, field in TOKEN.fields.items()
    }
)
SCENE_TOKENS_MAX = 10_000  # a scene change carries every token of its map
SCENE = Obj(
    {
        "id": ID,
        "name": Text(),
        "width": Int(lo=1),
        "height": Int(lo=1),
        "background": Nullable(Text()),
        "walls": List(Json(), max_len=2000),
        "fog": optional(Bool()),
        "lit": optional(Bool()),
        "lighting": optional(Choice("lit", "dim", "dark")),
        "baked_lighting": optional(Bool()),
    }
)
SCENE_TOKENS = List(TOKEN, max_len=SCENE_TOKENS_MAX)
# A scene's tokens as a snapshot's table (vtt.tabletop.serialize.token_table).
TOKEN_TABLE = Obj(
    {
        "fields": List(Text(), min_len=6, max_len=50),
        "defaults": Object(),
        "rows": List(List(Json(), min_len=6, max_len=50), max_len=SCENE_TOKENS_MAX),
    }
)


# What every reader of such a table looks up by name (the players' copy
# filters on `hidden`: an imported log entry must have it).
TABLE_NEEDS = ("id", "name", "x", "y", "color", "version", "controllers", "hidden")


class SceneTokens(Field):
    """A scene change's tokens: a table; a list in entries logged before
    tables (protocol version 3), which still read as they were."""

    def clean(self, value, path):
        if not isinstance(value, dict):
            return SCENE_TOKENS.clean(value, path)
        table = TOKEN_TABLE.clean(value, path)
        fields, defaults = table["fields"], table["defaults"]
        missing = [field for field in TABLE_NEEDS if field not in fields]
        if missing:
            raise RulesError("invalid", f"{path}.fields lacks {missing[0]}", f"{path}.fields")
        shortest = min((len(row) for row in table["rows"]), default=len(fields))
        if len(set(fields)) != len(fields) or any(f not in defaults for f in fields[shortest:]):
            raise RulesError("invalid", f"{path}: a field a row leaves out needs a default", path)
        return table


CHARACTER = Obj(
    {
        "id": ID,
        "campaign_id": ID,
        "name": Text(),
        "kind": Choice("pc", "npc"),
        "owner": Nullable(USER),
        "sheet": Object(),
        "entries": List(Object(), max_len=1000),
        "weapons": List(Object(), max_len=1000),
        "resources": Object(),
        "portrait": Nullable(PICTURE),
        # The kit's reading of the resources on its wound track (null: none).
        "wounds": Nullable(Object()),
    }
)
CAMPAIGN = Obj(
    {
        "id": ID,
        "name": Text(),
        "game": Text(),
        "settings": Object(),
        "active_scene_id": Nullable(ID),
    }
)
ENCOUNTER = Obj(
    {
        "id": ID,
        "scene_id": ID,
        "round": Int(),
        "turns": Int(),
        "current": Nullable(ID),
        "turn": Nullable(Int(lo=0)),
        # The turn is a combatant this order leaves out (logged before: absent).
        "unseen_turn": optional(Bool()),
        "order": List(Object(), max_len=1000),
        "ended": Bool(),
        "game_time": Object(),
    }
)
INITIATIVE_ROLLS = List(Object(), max_len=1000)
ENCOUNTER_PLAYERS_VIEW = optional(
    Obj({"encounter": ENCOUNTER, "rolls": optional(INITIATIVE_ROLLS)})
)
# Where a throw's dice come from in its play session (docs/dice.md): derived
# from the session's seed with a nonce, or entered by a person (physical).
DRAW = Obj(
    {
        "session": ID,
        "roll": ID,
        "nonce": optional(Text()),
        "nonce_by": optional(Choice("roller", "server")),
        "physical": optional(Bool()),
    }
)
SIDE = Obj({"token_id": Nullable(ID), "character_id": Nullable(ID), "name": Text()})
ATTACK = Obj(
    {
        "id": ID,
        "campaign_id": ID,
        "scene_id": Nullable(ID),
        "by": Nullable(USER),
        "attacker": SIDE,
        "target": SIDE,
        "system": Text(),
        "weapon": Object(),
        "measure": Object(),
        "sources": Object(),
        "steps": List(Object(), max_len=1000),
        "outcome": Json(),
        "status": Text(),
        "damage": Nullable(Int()),
        "changes": List(Object(), max_len=1000),
        "visibility": Choice(Visibility.PUBLIC, Visibility.GM),
        "physical": Bool(),
        # Attacks made before sessions were kept have none.
        "draw": Nullable(DRAW, default=None),
        "seq": Nullable(ID),
        # The attack in the game's words (vtt.games: the kit's attack_sentence).
        "sentence": optional(Text()),
    }
)
CHANGES = List(Object(), max_len=1000)
# A light on a scene (vtt.tabletop.serialize.light_data): squares, #rrggbb.
LIGHT = Obj(
    {
        "id": ID,
        "token_id": Nullable(ID),
        "x": Json(),
        "y": Json(),
        "bright": Json(),
        "dim": Json(),
        "color": Text(),
        "intensity": Json(),
        "shadows": Bool(),
        "on": Bool(),
    }
)
ROLES = Choice(*Role.values)


# ------------------------------------------------------------------ the declarations


@dataclass(frozen=True)
class Kind:
    name: str
    payload: dict  # field name -> vtt.rules.schema.Field
    sight: Sight
    # The visibilities an event of this kind may be appended with. A kind
    # about something on a scene also takes "gm" (another scene's events).
    visibilities: tuple
    who: str  # who sees it in full, in words (docs/protocol.md)


EVERYONE = (Visibility.PUBLIC,)
PUBLIC_OR_GM = (Visibility.PUBLIC, Visibility.GM)
ON_A_SCENE = "everyone; on a scene the room is not on, the GM only"
NPC_GM = "everyone; about an NPC, the GM only"

_DECLARED = (
    Kind(
        ROLL,
        {
            "roll_id": ID,
            "roller": Nullable(USER),
            "character": Nullable(NAMED),
            "request": Object(),
            "result": Object(),
            "physical": Bool(),
            "visibility": Choice(*Visibility.values),
            "sentence": Text(),
            "draw": Nullable(DRAW, default=None),
            # Typed in the chat ("/r 3D"): the chat shows it too. Absent otherwise.
            "chat": optional(Bool()),
        },
        Sight.VISIBILITY,
        tuple(Visibility.values),
        "by the roll's visibility (public, gm, self, blind)",
    ),
    Kind(
        CHAT, {"from": USER, "text": Text(), "html": Text()}, Sight.VISIBILITY, EVERYONE, "everyone"
    ),
    Kind(
        WHISPER,
        {"from": USER, "to": USER, "text": Text(), "html": Text()},
        Sight.ADDRESSED,
        # Stored as the sender's own: any reader that went by the visibility
        # alone would still keep it from the players.
        (Visibility.SELF,),
        "its sender and its recipient only (the GM only when one of the two)",
    ),
    Kind(CAMPAIGN_UPDATED, {"campaign": CAMPAIGN}, Sight.VISIBILITY, EVERYONE, "everyone"),
    Kind(MEMBER_JOINED, {"user": USER, "role": ROLES}, Sight.VISIBILITY, EVERYONE, "everyone"),
    Kind(MEMBER_UPDATED, {"user": USER, "role": ROLES}, Sight.VISIBILITY, EVERYONE, "everyone"),
    Kind(MEMBER_REMOVED, {"user": USER}, Sight.VISIBILITY, EVERYONE, "everyone"),
    Kind(CHARACTER_CREATED, {"character": CHARACTER}, Sight.VISIBILITY, PUBLIC_OR_GM, NPC_GM),
    Kind(CHARACTER_UPDATED, {"character": CHARACTER}, Sight.VISIBILITY, PUBLIC_OR_GM, NPC_GM),
    Kind(
        CHARACTER_REMOVED,
        {"character": NAMED},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone (a PC turned NPC: gone for players)",
    ),
    Kind(CHARACTER_DELETED, {"character": NAMED}, Sight.VISIBILITY, PUBLIC_OR_GM, NPC_GM),
    Kind(SCENE_CREATED, {"scene": SCENE}, Sight.VISIBILITY, PUBLIC_OR_GM, ON_A_SCENE),
    Kind(SCENE_UPDATED, {"scene": SCENE}, Sight.VISIBILITY, PUBLIC_OR_GM, ON_A_SCENE),
    Kind(SCENE_DELETED, {"scene": NAMED}, Sight.VISIBILITY, PUBLIC_OR_GM, ON_A_SCENE),
    Kind(
        SCENE_ACTIVATED,
        {
            "scene": SCENE,
            "tokens": SceneTokens(),
            # Entries logged before tables: what players got instead.
            "players_view": optional(Obj({"scene": SCENE, "tokens": SCENE_TOKENS})),
        },
        Sight.PLAYERS_VIEW,
        EVERYONE,
        "everyone; players get the new map's tokens without the hidden ones"
        " (on a fog scene, only those their group sees)",
    ),
    *(
        Kind(
            name,
            {"token": TOKEN},
            Sight.TOKEN,
            PUBLIC_OR_GM,
            "everyone, unless the token is hidden or on a scene the room is not on:"
            " then the GM only",
        )
        for name in (TOKEN_CREATED, TOKEN_UPDATED, TOKEN_REVEALED, TOKEN_DELETED)
    ),
    Kind(
        TOKEN_MOVED,
        {
            "token": MOVED_TOKEN,
            "from": SQUARE,
            "undo_of": optional(ID),  # an undo put it back
            "reset": optional(Bool()),  # back where the turn began
        },
        Sight.TOKEN,
        PUBLIC_OR_GM,
        "as the other token events",
    ),
    Kind(
        TOKEN_HIDDEN,
        {"token": TOKEN},
        Sight.TOKEN,
        PUBLIC_OR_GM,
        'the GM; players on the room\'s scene get "token.removed" {"token_id"}',
    ),
    *(
        Kind(
            name,
            {"encounter": ENCOUNTER, "players_view": ENCOUNTER_PLAYERS_VIEW},
            Sight.PLAYERS_VIEW,
            PUBLIC_OR_GM,
            ON_A_SCENE + "; players get `players_view` (no hidden combatants) when present",
        )
        for name in (ENCOUNTER_STARTED, ENCOUNTER_UPDATED, ENCOUNTER_TURN, ENCOUNTER_ENDED)
    ),
    Kind(
        ENCOUNTER_INITIATIVE,
        {
            "encounter": ENCOUNTER,
            "rolls": INITIATIVE_ROLLS,
            "physical": Bool(),
            "players_view": ENCOUNTER_PLAYERS_VIEW,
        },
        Sight.PLAYERS_VIEW,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; players get `players_view` (no hidden combatants) when present",
    ),
    Kind(
        COMBAT_ATTACK,
        {"attack": ATTACK},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "by the attack's visibility (hidden token, hidden attack or another scene: the GM)",
    ),
    Kind(
        COMBAT_DAMAGE,
        {
            "attack": ATTACK,
            "changes": CHANGES,
            "status_before": Text(),
            "damage_before": Nullable(Int()),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as its attack",
    ),
    Kind(
        COMBAT_DECLINED,
        {"attack": ATTACK, "status_before": Text()},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as its attack",
    ),
    Kind(
        COMBAT_WEAPON_REPAIRED,
        {"character_id": ID, "character": Text(), "weapon": Text()},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        NPC_GM,
    ),
    Kind(
        UNDO,
        {
            "undo_of": ID,
            "undone": Choice(TOKEN_MOVED, CHARACTER_UPDATED, COMBAT_ATTACK, COMBAT_DAMAGE),
            "changes": CHANGES,
            "attack_id": optional(ID),
            "status": optional(Text()),
            "mended": optional(List(Text(), max_len=1000)),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        "as what it undoes (an NPC's resources: the GM)",
    ),
    Kind(
        FOG_CHANGED,
        {
            "scene_id": ID,
            "action": Choice("reset", "reveal", "cover"),
            "group": Nullable(Text()),
        },
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; each group's new explored area comes in its own vision frame",
    ),
    Kind(
        LIGHT_CHANGED,
        {"light": LIGHT, "action": Choice("placed", "changed", "removed")},
        Sight.VISIBILITY,
        PUBLIC_OR_GM,
        ON_A_SCENE + "; on a fog scene the GM only (players get the change of their view)",
    ),
    Kind(
        REVEAL,
        {
            "of_seq": ID,
            "type": Choice(ROLL, COMBAT_ATTACK, COMBAT_DAMAGE, ENCOUNTER_INITIATIVE),
            "data": Object(),
        },
        Sight.VISIBILITY,
        EVERYONE,
        "everyone (it carries the hidden entry as it was)",
    ),
    Kind(TRAILS_CLEARED, {"scene_id": ID}, Sight.VISIBILITY, EVERYONE, "everyone"),
    Kind(
        SESSION_STARTED,
        {"session": ID, "digest": Text()},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone (the SHA-256 digest of the session's secret seed)",
    ),
    Kind(
        SESSION_ENDED,
        {"session": ID, "digest": Text(), "seed": Text()},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone (the seed, revealed: every roll can be checked)",
    ),
)

KINDS: dict[str, Kind] = {kind.name: kind for kind in _DECLARED}


class UndeclaredEvent(LookupError):
    """An event kind nobody declared: a programming error."""


class InvalidEvent(ValueError):
    """A payload or visibility that does not match its kind's declaration:
    a programming error, never a user's (services validate their input)."""


def check(kind: str, data, visibility: str) -> None:
    """Refuse an event that does not match its declaration."""
    declared = KINDS.get(kind)
    if declared is None:
        raise UndeclaredEvent(f"{kind!r} is not a declared room event kind")
    if visibility not in declared.visibilities:
        raise InvalidEvent(f"a {kind} event may not have visibility {visibility!r}")
    try:
        validate(declared.payload, data)
    except RulesError as error:
        raise InvalidEvent(f"{kind}: {error.message}") from None
