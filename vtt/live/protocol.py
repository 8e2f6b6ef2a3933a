"""The room's wire protocol, versions 1 to 3 (docs/protocol.md): close codes, the
intents a client may send with their fields, and the frames the server sends.

Parsing is pure: a text frame in, an Intent or a ProtocolError out. What an
intent does lives in vtt.live.intents."""

import json
import math
from dataclasses import dataclass

from vtt.combat.protocol import FIELDS as COMBAT_INTENTS
from vtt.rules.errors import RulesError
from vtt.rules.schema import MISSING, Bool, Choice, Field, Int, List, Obj, validate
from vtt.rules.schema import invalid as field_invalid
from vtt.rules.text import NOT_TEXT, encodable, may_hold_unencodable, unencodable_path
from vtt.tabletop.event_kinds import SCENE_ACTIVATED
from vtt.tabletop.serialize import is_table, table_tokens
from vtt.tabletop.services.chat import MAX_CHAT_CHARS
from vtt.tabletop.services.tokens import UPDATABLE

# 2: a snapshot's tokens come as a table (docs/protocol.md, "Tokens as a
# table"); a client that names no version (or 1), as a page from before 2
# does, still gets the list. 3: a scene change's tokens too (`event_for`).
PROTOCOL_VERSION = 3
VERSIONS = ("1", "2", "3")

MAX_FRAME_BYTES = 16 * 1024
# A drawing's frame carries up to 2000 points (vtt.drawings.bounds).
MAX_DRAWING_FRAME_BYTES = 64 * 1024
LARGE_INTENTS = frozenset({"drawing.stroke", "drawing.add"})
MAX_ID_CHARS = 64

# Close codes (4000-4999 are the application's own).
CLOSE_SERVER_ERROR = 1011
CLOSE_GARBAGE = 4400
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_MEMBER = 4403  # also for a campaign that does not exist: strangers learn nothing
CLOSE_LINK_CLOSED = 4404  # a spectator link unknown, revoked or expired: one code for all
CLOSE_BAD_VERSION = 4406
CLOSE_TOO_SLOW = 4408
CLOSE_SILENT = 4410
CLOSE_FLOODING = 4429

VISIBILITIES = ("public", "gm", "self", "blind")
COORD = 10_000  # a square index beyond any map; the service checks the scene's own bounds
ENTITY_ID = 2**63 - 1


class Anything(Field):
    """A JSON value checked later by someone who knows its shape (the rules
    request is validated by the rules contract itself)."""

    takes_anything = True

    def clean(self, value, path):
        return value


class Text(Field):
    def __init__(self, max_len: int, default=MISSING):
        super().__init__(default)
        self.max_len = max_len

    def clean(self, value, path):
        if not isinstance(value, str):
            raise field_invalid(path, f"{path} must be a string")
        if len(value) > self.max_len:
            raise field_invalid(path, f"{path} must be at most {self.max_len} characters")
        return value


class Number(Field):
    """A finite number, whole or not (a point on the map, in squares)."""

    def __init__(self, lo: float, hi: float, default=MISSING):
        super().__init__(default)
        self.lo, self.hi = lo, hi

    def clean(self, value, path):
        # bool is an int in Python, and JSON's NaN and Infinity are no place.
        if type(value) not in (int, float) or not math.isfinite(value):
            raise field_invalid(path, f"{path} must be a number")
        if not self.lo <= value <= self.hi:
            raise field_invalid(path, f"{path} must be between {self.lo} and {self.hi}")
        return value


class Mapping(Field):
    """An object of string keys to string values (a roll's `fill`)."""

    def __init__(self, max_items=20, default=None):
        super().__init__(default)
        self.max_items = max_items

    def clean(self, value, path):
        if not isinstance(value, dict) or len(value) > self.max_items:
            raise field_invalid(path, f"{path} must be an object of at most {self.max_items} keys")
        for key, item in value.items():
            if not isinstance(item, str) or len(item) > 120:
                raise field_invalid(f"{path}.{key}", f"{path}.{key} must name a sheet entry")
        return value


class Nullable(Field):
    """The inner field, or null (a token's link to a character, cut)."""

    def __init__(self, inner: Field):
        super().__init__(inner.default)
        self.inner = inner

    def clean(self, value, path):
        return None if value is None else self.inner.clean(value, path)


def _id(default=None):
    return Int(1, ENTITY_ID) if default is None else Int(1, ENTITY_ID, default=default)


_TOKEN_FIELDS = {
    "name": Text(120),
    "x": Int(-COORD, COORD),
    "y": Int(-COORD, COORD),
    "size": Int(),  # its bounds are the token service's
    "color": Text(7),
    "hidden": Bool(),
    "character_id": Int(1, ENTITY_ID),
    "controllers": List(Int(1, ENTITY_ID), max_len=50),
    "sight_ft": Int(),  # bounds: the token service's
    "light_ft": Int(),
}


def _optional(fields: dict) -> dict:
    """The same fields, every one optional (absent ones are left out)."""
    return {name: _Optional(field) for name, field in fields.items()}


class _Optional(Field):
    ABSENT = object()

    def __init__(self, inner: Field):
        super().__init__(self.ABSENT)
        self.inner = inner

    def clean(self, value, path):
        return self.inner.clean(value, path)


_DRAWING_FIELDS = {
    "shape": Anything(),
    "layer": Anything(default="shared"),
    "color": Anything(),
    "width": Anything(),
    "points": Anything(),
    "text": Anything(default=""),
}

# Every intent and its fields (besides `type` and `id`).
INTENTS: dict[str, dict] = {
    "roll": {
        "request": Anything(),
        "visibility": Choice(*VISIBILITIES, default="public"),
        "character": Int(1, ENTITY_ID, default=None),
        "fill": Mapping(),
        # Hex from the roller's browser that goes into the dice (docs/dice.md);
        # the service checks its form.
        "nonce": Nullable(Text(128, default=None)),
    },
    "token.move": {
        "token": _id(),
        "x": Int(-COORD, COORD),
        "y": Int(-COORD, COORD),
        "version": Int(default=None),  # its bounds are the token service's
    },
    "token.drag": {"token": _id(), "x": Int(-COORD, COORD), "y": Int(-COORD, COORD)},
    "token.create": {
        "scene": Int(1, ENTITY_ID, default=None),
        **{k: f for k, f in _TOKEN_FIELDS.items() if k in ("name", "x", "y")},
        **_optional({k: f for k, f in _TOKEN_FIELDS.items() if k not in ("name", "x", "y")}),
    },
    "token.update": {
        "token": _id(),
        "changes": Obj(
            _optional(
                {k: _TOKEN_FIELDS[k] for k in UPDATABLE}
                | {"character_id": Nullable(_TOKEN_FIELDS["character_id"])}
            )
        ),
    },
    "token.hide": {"token": _id(), "hidden": Bool(default=True)},
    "token.delete": {"token": _id()},
    "scene.activate": {"scene": _id()},
    # Status markers (docs/protocol.md): what a marker is, its bounds and
    # who may add it are the marker service's.
    "marker.add": {
        "token": _id(),
        "condition_id": Anything(default=None),
        "icon": Anything(default=None),
        "label": Anything(default=None),
        "gm_only": Anything(default=False),
    },
    "marker.remove": {"marker": _id()},
    # Area templates (docs/protocol.md): their bounds and who may place
    # them are the template service's (vtt.areas.services).
    "template.place": {
        "scene": Int(1, ENTITY_ID, default=None),
        "shape": Anything(),
        "x": Anything(),
        "y": Anything(),
        "size": Anything(),
        "angle": Anything(default=0),
        "label": Anything(default=""),
        "gm_only": Anything(default=False),
    },
    "template.remove": {"template": _id()},
    # Fog of war (docs/vision.md): bounds and rights are the services'.
    "door.set": {
        "scene": Int(1, ENTITY_ID, default=None),
        "wall": Int(0, 10_000),
        "state": Choice("open", "closed", "locked"),
    },
    # The GM's wall edits (docs/vision.md): `was` is the segment's ends as
    # the GM saw them; bounds and rights are the services'.
    "wall.add": {"scene": Int(1, ENTITY_ID, default=None), "wall": Anything()},
    "wall.change": {
        "scene": Int(1, ENTITY_ID, default=None),
        "index": Int(0, 10_000),
        "was": Anything(),
        "wall": Anything(),
    },
    "wall.delete": {
        "scene": Int(1, ENTITY_ID, default=None),
        "index": Int(0, 10_000),
        "was": Anything(),
    },
    "fog.edit": {
        "scene": Int(1, ENTITY_ID, default=None),
        "action": Choice("reset", "reveal", "cover"),
        "rect": Anything(default=None),
        "group": Nullable(Text(24, default=None)),
    },
    "vision.preview": {"group": Nullable(Text(24, default=None))},
    # Lights (docs/vision.md): their fields' bounds and rights are the services'.
    "light.place": {
        "scene": Int(1, ENTITY_ID, default=None),
        "token": Int(1, ENTITY_ID, default=None),
        "light": Anything(),
    },
    "light.update": {"light": _id(), "changes": Anything()},
    "light.remove": {"light": _id()},
    # Play sessions (docs/dice.md): the GM's.
    "session.start": {},
    "session.end": {},
    # `nonce`: the browser's, for a line that is a roll (docs/dice.md).
    "chat": {
        "text": Text(MAX_CHAT_CHARS * 2),
        "nonce": Nullable(Text(128, default=None)),
        # The page's current character (the tray's "For"), for a roll of
        # one of the member's several characters (vtt.live.chat_commands).
        "character": Int(1, ENTITY_ID, default=None),
    },
    "resync": {"since": Int(0, 2**63 - 1)},
    "ping": {},
    # A point of the room's map shown to the others for a moment, never
    # stored (vtt.live.pings); `pull` (the GM's) pans their maps there.
    # `scene`: the map the sender points at; bounds are the map's own.
    "map.ping": {
        "x": Number(-COORD, COORD),
        "y": Number(-COORD, COORD),
        "scene": Int(1, ENTITY_ID, default=None),
        "pull": Bool(default=False),
    },
    # Drawings (docs/protocol.md, "Drawings"): a stroke's live preview,
    # never stored, and the finished drawing's changes; the bounds of a
    # drawing and who may draw are the drawing service's (vtt.drawings).
    "drawing.stroke": {
        "stroke": Text(40),
        "scene": Int(1, ENTITY_ID, default=None),
        # The index in the stroke of `points`' first: a pen's preview
        # carries the points since the last one (docs/protocol.md).
        "from": Int(0, ENTITY_ID, default=0),
        **_DRAWING_FIELDS,
    },
    "drawing.add": {
        "scene": Int(1, ENTITY_ID, default=None),
        "stroke": Text(40, default=""),
        **_DRAWING_FIELDS,
    },
    # `drawing`: its id (a frame's own `id` is the intent's).
    "drawing.move": {"drawing": _id(), "dx": Anything(), "dy": Anything()},
    "drawing.remove": {"drawing": _id()},
    "drawing.clear": {
        "scene": Int(1, ENTITY_ID, default=None),
        "layer": Anything(default="all"),
    },
}

# Combat's intents (attack, undo, reveal, token.reset, encounter.*...): docs/combat.md.
INTENTS.update(COMBAT_INTENTS)

# Intents that only pass something along, without the database.
FORWARDING = frozenset({"token.drag", "ping", "vision.preview", "map.ping", "drawing.stroke"})


@dataclass(frozen=True)
class Intent:
    type: str
    id: str | int | None
    fields: dict


class ProtocolError(Exception):
    """A frame the server cannot act on. `malformed` ones count against the
    connection's allowance for garbage."""

    def __init__(self, code, message, field=None, id=None, malformed=False, extra=None):
        super().__init__(message)
        self.code, self.message, self.field = code, message, field
        self.id, self.malformed, self.extra = id, malformed, extra or {}

    def frame(self) -> str:
        return error_frame(self.id, self.code, self.message, self.field, **self.extra)


def _clean_id(frame: dict):
    value = frame.get("id")
    if value is None:
        return None
    if (type(value) is int and abs(value) < 2**53) or (
        isinstance(value, str) and len(value) <= MAX_ID_CHARS
    ):
        return value
    raise ProtocolError(
        "invalid", f"id must be a string of at most {MAX_ID_CHARS} characters or an integer", "id"
    )


def parse_frame(text: str | None, raw_bytes: bytes | None = None) -> Intent:
    """One client frame as an Intent, or a ProtocolError to send back."""
    if text is None:
        size = len(raw_bytes or b"")
        if size > MAX_FRAME_BYTES:
            raise ProtocolError("too_large", _too_large(size), malformed=True)
        raise ProtocolError("bad_frame", "frames must be JSON text, not binary", malformed=True)
    # A str of n characters encodes to at most 4n UTF-8 bytes: count only when it matters.
    size = 0
    if len(text) * 4 > MAX_FRAME_BYTES:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_DRAWING_FRAME_BYTES:
            raise ProtocolError(
                "too_large", _too_large(size, MAX_DRAWING_FRAME_BYTES), malformed=True
            )
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        # Nested too deep to decode is as unreadable as broken JSON.
        raise ProtocolError("bad_json", "the frame is not valid JSON", malformed=True) from None
    if not isinstance(frame, dict):
        raise ProtocolError("bad_frame", "a frame must be a JSON object", malformed=True)
    if may_hold_unencodable(text):
        _refuse_unencodable(frame)
    kind = frame.get("type")
    id_ = None
    try:
        id_ = _clean_id(frame)
    except ProtocolError as exc:
        exc.malformed = True
        raise
    if not isinstance(kind, str):
        raise ProtocolError("bad_frame", "a frame needs a string type", "type", id_, True)
    if size > MAX_FRAME_BYTES and kind not in LARGE_INTENTS:
        raise ProtocolError("too_large", _too_large(size), malformed=True)
    fields = INTENTS.get(kind)
    if fields is None:
        raise ProtocolError(
            "unknown_intent", f"{kind[:40]!r} is not an intent of protocol 1", "type", id_, True
        )
    body = {k: v for k, v in frame.items() if k not in ("type", "id")}
    try:
        clean = validate(fields, body)
    except RulesError as exc:
        raise ProtocolError(exc.code, exc.message, exc.field, id_) from None
    return Intent(kind, id_, _drop_absent(clean))


def _refuse_unencodable(frame: dict) -> None:
    """A lone surrogate could be neither stored nor sent back as UTF-8: the
    frame is garbage, refused naming the place in ASCII. Its id is echoed
    only when the id itself is sound."""
    path = unencodable_path(frame)
    if path is None:
        return
    try:
        id_ = _clean_id(frame)
    except ProtocolError:
        id_ = None
    if isinstance(id_, str) and not encodable(id_):
        id_ = None
    raise ProtocolError("invalid", f"{path} {NOT_TEXT}", path, id_, malformed=True)


def _drop_absent(clean: dict) -> dict:
    out = {}
    for key, value in clean.items():
        if value is _Optional.ABSENT:
            continue
        out[key] = _drop_absent(value) if isinstance(value, dict) and key == "changes" else value
    return out


def _too_large(size: int, limit: int = MAX_FRAME_BYTES) -> str:
    if limit == MAX_DRAWING_FRAME_BYTES:
        return (
            f"the frame is {size} bytes; at most {limit} are allowed"
            f" (a drawing's, of at most 2000 points)"
        )
    return f"the frame is {size} bytes; at most {limit} are allowed"


def dumps(frame: dict) -> str:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def error_frame(id_, code: str, message: str, field=None, **extra) -> str:
    frame = {"type": "error", "id": id_, "code": code, "message": message, "field": field}
    frame.update(extra)
    return dumps(frame)


def ack_frame(id_, intent: str, **extra) -> str:
    frame = {"type": "ack", "id": id_, "intent": intent}
    frame.update(extra)
    return dumps(frame)


def event_frame_text(view: dict) -> str:
    """The frame that carries one log entry as one recipient sees it."""
    return '{"type":"event","event":' + dumps(view) + "}"


def event_for(view: dict, version: int) -> dict:
    """A log entry as a client of `version` reads it: before version 3 a
    scene change's tokens come as a list, each token as events carry it."""
    if version >= 3 or view.get("type") != SCENE_ACTIVATED:
        return view
    data = view["data"]
    if not is_table(data.get("tokens")):
        return view
    return {**view, "data": {**data, "tokens": table_tokens(data["tokens"])}}
