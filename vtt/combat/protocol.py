"""Combat's intents in the live room's protocol (docs/combat.md): their
fields, checked like every other intent's. Pure: no Django, like
vtt.live.protocol, which takes these in (INTENTS). What each intent does
is in vtt.combat.intents."""

from vtt.rules.schema import Choice, Field, Int, List
from vtt.rules.schema import invalid as field_invalid

ENTITY_ID = 2**63 - 1
MAX_FACES = 500


class Json(Field):
    """A JSON object checked later by the service (overrides, options)."""

    def __init__(self):
        super().__init__(None)

    def clean(self, value, path):
        if value is not None and not isinstance(value, dict):
            raise field_invalid(path, f"{path} must be an object or null")
        return value


class Text(Field):
    def __init__(self, max_len: int):
        super().__init__(None)
        self.max_len = max_len

    def clean(self, value, path):
        if value is not None and (not isinstance(value, str) or len(value) > self.max_len):
            raise field_invalid(path, f"{path} must be text of at most {self.max_len} characters")
        return value


def _id(optional: bool = False):
    return Int(1, ENTITY_ID, default=None) if optional else Int(1, ENTITY_ID)


def _faces():
    # Any whole numbers: the dice tape itself refuses a bad face (bad_face).
    return List(Int(), max_len=MAX_FACES, default=None)


def _ids():
    return List(Int(1, ENTITY_ID), max_len=100, default=None)


_ATTACK = {
    "attacker_token": _id(),
    "target_token": _id(),
    "weapon": Text(60),
    "overrides": Json(),
    "options": Json(),
}


def _nonce():
    # Hex from the browser that goes into the dice (docs/dice.md); the
    # service checks its form.
    return Text(128)


FIELDS: dict[str, dict] = {
    "attack": {
        **_ATTACK,
        "visibility": Choice("public", "gm", default="public"),
        "faces": _faces(),
        "nonce": _nonce(),
    },
    "attack.preview": _ATTACK,
    # Every token in an area template (vtt.combat.services.area_attacks).
    "attack.area": {
        "attacker_token": _id(),
        "template": _id(),
        "weapon": Text(60),
        "options": Json(),
        "visibility": Choice("public", "gm", default="public"),
    },
    "attack.damage": {"attack": _id(), "amount": Int(0, 9999, default=None)},
    "attack.decline": {"attack": _id()},
    "decisions": {},
    "weapon.repair": {"character": _id(), "weapon": Text(60)},
    # A reaction the game's kit declares (vtt.games.reactions), on an
    # attack or a character; the service checks the values' bounds.
    "reaction": {
        "reaction": Text(40),
        "attack": _id(optional=True),
        "character": _id(optional=True),
        "values": Json(),
    },
    "undo": {"seq": _id(optional=True)},
    "reveal": {"seq": _id()},
    "token.reset": {"token": _id()},
    "trails.clear": {"scene": _id(optional=True)},
    "encounter.start": {"scene": _id(optional=True), "tokens": _ids()},
    "encounter.initiative": {
        "encounter": _id(optional=True),
        "combatants": _ids(),
        "faces": _faces(),
        "nonce": _nonce(),
    },
    "encounter.set": {
        "encounter": _id(optional=True),
        "combatant": _id(),
        "initiative": Int(-10_000, 10_000, default=None),
    },
    "encounter.add": {"encounter": _id(optional=True), "token": _id()},
    "encounter.remove": {"encounter": _id(optional=True), "combatant": _id()},
    "encounter.next": {"encounter": _id(optional=True)},
    "encounter.end": {"encounter": _id(optional=True)},
}
