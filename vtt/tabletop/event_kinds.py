"""Every kind of room event, declared once (`Kind`): its name, its payload
(the fields checked at append, and the type its readers get), who sees it
and which version of it, the scene it is about, what its broadcast carries
besides its text and how a payload logged in an older shape is read today.

append_event refuses a kind not declared here and a payload that does not
match its declaration (both are programming errors) and has the policy
decide the event's audience from the declaration, once; vtt.tabletop.policy
renders each event by its kind's sight; vtt.live.render adds what the
declaration says to the broadcast; readers get the typed payload as
`event.payload`. docs/protocol.md lists the same table; the browser applies
them in static/js/room/state.js, whose kinds static/js/room/kinds.js lists
(written from here: `python -m vtt.tabletop.kinds_js`).

Payloads are checked with the rules package's declarative fields
(vtt.rules.schema): unknown keys and missing required ones fail, as do
wrong types. Opaque parts (a rules request, a sheet, an attack's steps) are
checked as objects only: their own modules validate them."""

import copy
import dataclasses
import keyword
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, make_dataclass
from enum import StrEnum
from typing import ClassVar

from vtt.rules import RulesError
from vtt.rules.schema import MISSING, Bool, Choice, Field, Int, List, Obj, validate

from . import models
from .models import Role, Visibility
from .serialize import TOKEN_DEFAULTS, is_table, token_metas, tokens_table

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
COMBAT_ATTACK = "combat.attack"
COMBAT_DAMAGE = "combat.damage"
COMBAT_DECLINED = "combat.declined"
COMBAT_WEAPON_REPAIRED = "combat.weapon_repaired"
UNDO = "undo"
REVEAL = "reveal"
TRAILS_CLEARED = "trails.cleared"
FOG_CHANGED = "fog.changed"
LIGHT_CHANGED = "light.changed"
MARKER_ADDED = "marker.added"
MARKER_REMOVED = "marker.removed"
SESSION_STARTED = "session.started"
SESSION_ENDED = "session.ended"
HANDOUT_SHARED = "handout.shared"

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


class Fog(StrEnum):
    """What an event does to fog of war beyond the tokens it is about
    (vtt.fog.vision.annotate_event reads it; docs/vision.md)."""

    NONE = "none"
    # A token moved: where it went is carried in the annotation, and what
    # its group sees is worked out again.
    MOVE = "move"
    # A token left the map: no group sees it any more.
    GONE = "gone"
    # The room is on another map: every group's view starts again.
    NEW_SCENE = "new_scene"
    # The GM edited the fog: every group's explored area is read again.
    REFRESH = "refresh"
    # A fight's turn order: a group not seeing a combatant is not told of it.
    FIGHT = "fight"
    # A roll for a character: about that character's tokens on the scene.
    CHARACTER = "character"


class Copy(StrEnum):
    """The version of an event that players get when its audience includes
    them (vtt.tabletop.policy makes each; the GM always gets it whole)."""

    FULL = "full"
    # A map's tokens without those players do not see: the hidden ones, and
    # on a fog scene those out of their group's view (its whole sight).
    MAP = "map"
    # A turn order without hidden combatants (its `players_view`), and on a
    # fog scene without those out of their group's view.
    FIGHT = "fight"
    # A token going out of their sight: "token.removed" {"token_id"}.
    REMOVED = "removed"


class Unseen(StrEnum):
    """What a member outside an event's audience receives."""

    REDACTED = "redacted"  # {"seq", "type": "redacted"}
    # A blind roll's roller: that it was made, nothing of its dice
    # (vtt.tabletop.policy.blind_announcement).
    ANNOUNCED = "announced"


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
# A status marker (vtt.tabletop.serialize.marker_data): one of the game's
# conditions (`condition_id`) or a free one ("").
MARKER = Obj(
    {
        "id": ID,
        "token_id": ID,
        "condition_id": Text(),
        "icon": Text(),
        "label": Text(),
        "gm_only": Bool(),
    }
)
MAX_MARKERS = 100  # a token carries a dozen; an imported entry, never more than this
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
        # Its status markers, where it comes into someone's sight whole (a
        # scene change, a token revealed or coming into view); the players'
        # copy leaves out the GM's secret ones (policy). Absent elsewhere.
        "markers": optional(List(MARKER, max_len=MAX_MARKERS)),
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
        if name != "markers"  # a move brings none: it is no token coming into sight
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

ROLES = Choice(*Role.values)


# ------------------------------------------------------------------ the declarations


class Payload:
    """An event's payload as its readers get it (`event.payload`): a frozen
    dataclass per kind, one attribute per declared field (a field named
    like a Python word takes a trailing underscore: `from_`). Nested
    objects (a token, a scene) stay the dicts the wire carries."""

    # attribute -> the key it is stored under
    keys: ClassVar[dict[str, str]] = {}

    @classmethod
    def of(cls, data: Mapping) -> "Payload":
        return cls(**{attr: data[key] for attr, key in cls.keys.items() if key in data})

    @classmethod
    def of_view(cls, data: Mapping) -> "Payload":
        """What a member received of it (a players' version may leave fields
        out): the fields it leaves out read as None."""
        return cls(**{attr: data.get(key) for attr, key in cls.keys.items()})

    def as_dict(self) -> dict:
        """The payload as a dict of its stored keys: a field that may be left
        out is left out when it is None."""
        return {
            self.keys[f.name]: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) is not None or f.default is dataclasses.MISSING
        }


def payload_type(name: str, payload: dict) -> type[Payload]:
    """The dataclass of a kind's payload, from its declared fields: a field
    that may be left out defaults to None."""
    spec, keys = [], {}
    for key, declared in payload.items():
        attr = f"{key}_" if keyword.iskeyword(key) else key
        keys[attr] = key
        if declared.default is MISSING:
            spec.append((attr, object))
        else:
            spec.append((attr, object, field(default=declared.default)))
    words = name.replace(".", "_").replace("-", "_").split("_")
    cls_name = "".join(word.capitalize() for word in words) + "Payload"
    return make_dataclass(
        cls_name,
        spec,
        bases=(Payload,),
        frozen=True,
        kw_only=True,
        namespace={"keys": keys},
    )


# The scene an event is seen on, when its append names none: (payload, the
# room's scene id) -> a scene id or None. On a fog scene the room is on, an
# event seen there is annotated with what each sight group saw of it.
SceneRule = Callable[[Mapping, int | None], int | None]


def on_no_scene(data: Mapping, room_scene_id: int | None) -> None:
    return None


def on_the_room_scene(data: Mapping, room_scene_id: int | None) -> int | None:
    """About what is on the room's map, or about who looks at it (the table's
    settings, its members): seen on the room's scene."""
    return room_scene_id


def on_its_scene(data: Mapping, room_scene_id: int | None) -> int:
    """A scene change: about the scene it goes to."""
    return data["scene"]["id"]


def on_the_room_scene_if_for_a_character(data: Mapping, room_scene_id: int | None):
    """A roll for a character is about the room's scene (its tokens)."""
    return room_scene_id if data.get("character") else None


# What a kind's broadcast carries besides its texts, for the live rooms'
# connections to keep: (its payload, the event, whether players see it, as
# its stored audience says) -> keys to add to the message.
Broadcast = Callable[["Payload", object, bool], dict]


def adds_nothing(payload, event, players_see: bool) -> dict:
    return {}


def _token_meta(payload, players_see: bool, gone: bool = False) -> dict:
    token = payload.token
    # Kept on the server side of the socket: lets a connection check drags.
    return {
        "token": {
            "id": token["id"],
            # A move's token has none (it did not change them): None keeps
            # those the connection holds.
            "controllers": token.get("controllers"),
            # Whether players see it (its audience, decided at append).
            "hidden": not players_see,
            "version": token["version"],
            "gone": gone,
        }
    }


def adds_the_token(payload, event, players_see: bool) -> dict:
    return _token_meta(payload, players_see)


def adds_the_token_gone(payload, event, players_see: bool) -> dict:
    return _token_meta(payload, players_see, gone=True)


def adds_the_map(payload, event, players_see: bool) -> dict:
    """The new map's tokens (all of them: each connection keeps in its own
    table those its member may see, to check drag previews against)."""
    tokens = payload.tokens
    # Upgraded: a table, even for a change logged before tables.
    scene = {"id": payload.scene["id"], "tokens": token_metas(tokens)}
    annotation = event.data.get(SIGHT)
    if annotation is not None:
        # A fog scene: which tokens each group sees, and what each sees for.
        scene["seen"] = {g: m["enter"] for g, m in annotation["groups"].items()}
        scene["eyes"] = annotation.get("eyes") or {}
    return {"scene": scene}


def adds_own_vision(payload, event, players_see: bool) -> dict:
    """Each connection's sight group follows the table's settings."""
    settings = payload.campaign.get("settings") or {}
    return {"own_vision": bool(settings.get("own_vision"))}


def adds_the_member(payload, event, players_see: bool) -> dict:
    """A member's new role (None: gone), for their connections to follow."""
    return {"member": {"user_id": payload.user["id"], "role": getattr(payload, "role", None)}}


# How a payload logged in an older shape reads today (the log is never
# rewritten): stored dict -> the current shape, before its type is made.
Upgrade = Callable[[dict], dict]

# The points of the map an event is about, in squares ([[x, y], ...]), for
# a kind about a place rather than a token (a drawing): on a fog scene a
# sight group whose map shows none of them does not see the event.
Where = Callable[[Mapping], list]
# For such a kind that moves what it is about: where it was (`was`), and
# what a group that saw it there but does not see where it went gets
# instead (`gone`: payload -> (kind, data)), as a token leaving one's view
# arrives as "token.removed".
Gone = Callable[[Mapping], tuple]


def as_logged(data: dict) -> dict:
    return data


def _token_now(token: dict) -> dict:
    """A token logged before pictures: no art."""
    if "art" in token and "art_from" in token:
        return token
    return {"art": None, "art_from": None, **token}


def token_upgraded(data: dict) -> dict:
    return {**data, "token": _token_now(data["token"])}


def map_upgraded(data: dict) -> dict:
    """A scene change logged before tables (protocol version 3) listed its
    tokens: read as today's table (its `players_view` stays as logged)."""
    tokens = data["tokens"]
    if is_table(tokens):
        return data
    defaults = {**TOKEN_DEFAULTS, "scene_id": data["scene"]["id"]}
    return {**data, "tokens": tokens_table([_token_now(t) for t in tokens], defaults)}


@dataclass(frozen=True)
class Kind:
    name: str
    payload: dict  # field name -> vtt.rules.schema.Field: the check at append
    sight: Sight
    # The visibilities an event of this kind may be appended with. A kind
    # about something on a scene also takes "gm" (another scene's events).
    visibilities: tuple
    who: str  # who sees it in full, in words (docs/protocol.md)
    scene: SceneRule = on_no_scene
    players: Copy = Copy.FULL
    unseen: Unseen = Unseen.REDACTED
    broadcast: Broadcast = adds_nothing
    upgrade: Upgrade = as_logged
    fog: Fog = Fog.NONE
    # The payload's key whose token (or a map's tokens, a table) carries
    # its status markers: players' copies leave out the GM-only ones.
    markers_in: str | None = None
    where: Where | None = None
    was: Where | None = None
    gone: Gone | None = None
    # Payload keys only a GM receives (where a moved drawing lay: under fog,
    # a place the others never saw).
    gm_keys: tuple = ()
    payload_class: type[Payload] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "payload_class", payload_type(self.name, self.payload))

    def read(self, data: Mapping) -> Payload:
        """A stored payload as its type, its fog annotation left out and an
        older shape upgraded."""
        data = {key: value for key, value in data.items() if key != SIGHT}
        return self.payload_class.of(self.upgrade(data))

    def read_view(self, data: Mapping) -> Payload:
        """An event's data as a member received it (policy.event_view) as
        this kind's type: fields their version leaves out read as None."""
        data = {key: value for key, value in data.items() if key != SIGHT}
        return self.payload_class.of_view(self.upgrade(data))


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
        scene=on_the_room_scene_if_for_a_character,
        unseen=Unseen.ANNOUNCED,
        fog=Fog.CHARACTER,
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
    # These change who looks through which tokens (own vision, the members):
    # seen on the room's scene, so a fog room's groups follow.
    Kind(
        CAMPAIGN_UPDATED,
        {"campaign": CAMPAIGN},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone",
        scene=on_the_room_scene,
        broadcast=adds_own_vision,
    ),
    Kind(
        MEMBER_JOINED,
        {"user": USER, "role": ROLES},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone",
        scene=on_the_room_scene,
    ),
    Kind(
        MEMBER_UPDATED,
        {"user": USER, "role": ROLES},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone",
        scene=on_the_room_scene,
        broadcast=adds_the_member,
    ),
    Kind(
        MEMBER_REMOVED,
        {"user": USER},
        Sight.VISIBILITY,
        EVERYONE,
        "everyone",
        scene=on_the_room_scene,
        broadcast=adds_the_member,
    ),
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
        scene=on_its_scene,
        players=Copy.MAP,
        broadcast=adds_the_map,
        upgrade=map_upgraded,
        fog=Fog.NEW_SCENE,
        markers_in="tokens",
    ),
    *(
        Kind(
            name,
            {"token": TOKEN},
            Sight.TOKEN,
            PUBLIC_OR_GM,
            "everyone, unless the token is hidden or on a scene the room is not on:"
            " then the GM only",
            broadcast=adds_the_token_gone if name == TOKEN_DELETED else adds_the_token,
            upgrade=token_upgraded,
            fog=Fog.GONE if name == TOKEN_DELETED else Fog.NONE,
            markers_in="token",
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
        # A slim token (what a move changes): nothing to fill in.
        broadcast=adds_the_token,
        fog=Fog.MOVE,
    ),
    Kind(
        TOKEN_HIDDEN,
        {"token": TOKEN},
        Sight.TOKEN,
        PUBLIC_OR_GM,
        'the GM; players on the room\'s scene get "token.removed" {"token_id"}',
        players=Copy.REMOVED,
        broadcast=adds_the_token,
        upgrade=token_upgraded,
    ),
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


def declared(kind: str) -> Kind:
    """The declaration of a kind; UndeclaredEvent for one nobody declared."""
    found = KINDS.get(kind)
    if found is None:
        raise UndeclaredEvent(f"{kind!r} is not a declared room event kind")
    return found


def declare(kind: Kind) -> Kind:
    """Add a kind at run time (a test's own, or a part's that owns one):
    everything the log does with a kind it then does with this one."""
    if kind.name in KINDS and KINDS[kind.name] != kind:
        raise ValueError(f"{kind.name!r} is declared already")
    KINDS[kind.name] = kind
    return kind


def declare_all(kinds) -> None:
    """Declare a part's kinds (its app's ready(): vtt/<part>/kinds.py)."""
    for kind in kinds:
        declare(kind)


def forget(name: str) -> None:
    """Undo declare (a test's kind, once the test is over)."""
    if name in {kind.name for kind in _DECLARED}:
        raise ValueError(f"{name!r} is one of the log's own kinds")
    KINDS.pop(name, None)


def check(kind: str, data, visibility: str) -> None:
    """Refuse an event that does not match its declaration."""
    found = declared(kind)
    if visibility not in found.visibilities:
        raise InvalidEvent(f"a {kind} event may not have visibility {visibility!r}")
    try:
        validate(found.payload, data)
    except RulesError as error:
        raise InvalidEvent(f"{kind}: {error.message}") from None


def read(kind: str, data: Mapping) -> Payload:
    """A stored payload as its kind's type (RoomEvent.payload)."""
    return declared(kind).read(data)


def read_view(kind: str, data: Mapping) -> Payload:
    """A rendered event's data as its kind's type (the journal's reading)."""
    return declared(kind).read_view(data)


# Stored events read their payload through their kind's declaration.
models.read_payloads_with(read)
