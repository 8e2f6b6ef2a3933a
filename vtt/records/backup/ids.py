"""New ids for an imported campaign, inside the JSON the log keeps.

A room event's payload names tokens, scenes, characters, users... by id
(the shapes in vtt.tabletop.event_kinds). Undo, reveal, vision and the
browser's model of the room read those ids back, so an import rewrites
them to the new rows' ids. Which key names what is declared here once, by
the key names the payloads use; the walk is the same for every kind (and
for a `reveal` entry's copy of another entry).

The log itself is numbered again on import, so the keys that name one of
its entries by seq (an undo's `undo_of`, a reveal's `of_seq`, an attack's
own `seq`) are rewritten through the same map, old seq -> new seq.

An id of something deleted before the export (a token removed mid-fight,
a member who left) has no new row. It gets a stand-in counted down from
2**53 - 1, the largest id a browser holds exactly: far above any id the
database hands out, so it never names a row of this server, and the same
old id always gets the same stand-in."""

from collections.abc import Callable

from vtt.tabletop.serialize import is_table, table_tokens, tokens_table

TOKEN, SCENE, CHARACTER = "tabletop.token", "tabletop.scene", "tabletop.character"
CAMPAIGN, ROLL, USER = "tabletop.campaign", "tabletop.roll", "user"
ATTACK, ENCOUNTER, COMBATANT = "combat.attack", "combat.encounter", "combat.combatant"
DRAWING = "drawings.drawing"

# A key whose value is an object (or a list of objects) whose "id" names a row.
OBJECTS = {
    "token": TOKEN,
    "tokens": TOKEN,
    "scene": SCENE,
    "character": CHARACTER,
    "campaign": CAMPAIGN,
    "attack": ATTACK,
    "encounter": ENCOUNTER,
    "order": COMBATANT,
    "user": USER,
    "roller": USER,
    "owner": USER,
    "from": USER,
    "to": USER,
    "by": USER,
    "drawing": DRAWING,
}
# Of those, the keys whose value may be the bare id instead (a drawing's scene).
BARE = {"scene"}
# Kinds whose payload's own "id" and "ids" name rows of a table (a drawing
# removed, a scene's drawings cleared): their other keys walk as any.
NAMED_BY_KIND = {"drawing.removed": DRAWING, "drawing.cleared": DRAWING}
# A key whose value is an id (or a list of ids).
IDS = {
    "token_id": TOKEN,
    "scene_id": SCENE,
    "active_scene_id": SCENE,
    "character_id": CHARACTER,
    "campaign_id": CAMPAIGN,
    "roll_id": ROLL,
    "attack_id": ATTACK,
    "encounter_id": ENCOUNTER,
    "combatant_id": COMBATANT,
    "current": COMBATANT,
    "user_id": USER,
    "controllers": USER,
}
# A key whose value is the seq of an entry of the same log.
SEQS = ("undo_of", "of_seq", "seq")
SEQ = "seq"
# The fog-of-war annotation append_event keeps on an event (vision.annotate).
SIGHT = "sight"
STAND_IN_TOP = 2**53 - 1


class NewIds:
    """old id -> new id, per table; stand-ins for rows that are gone."""

    def __init__(self, maps: dict[str, dict[int, int]]):
        self.maps = maps
        self.stand_ins: dict[tuple[str, int], int] = {}

    def of(self, table: str, old):
        if not isinstance(old, int) or isinstance(old, bool):
            return old
        new = self.maps.get(table, {}).get(old)
        if new is None:
            key = (table, old)
            if key not in self.stand_ins:
                self.stand_ins[key] = STAND_IN_TOP - len(self.stand_ins)
            new = self.stand_ins[key]
        return new

    def group(self, name):
        """A sight group: "party", or "u<user id>" (vision.group_of)."""
        if isinstance(name, str) and name[:1] == "u" and name[1:].isdigit():
            return f"u{self.of(USER, int(name[1:]))}"
        return name


def rewrite(value, ids: NewIds, urls: dict[str, str]):
    """`value` with every id it names replaced, and every stored picture's
    old URL by its new one."""
    return _walk(value, None, ids, urls.get)


def rewrite_event(kind: str, data, ids: NewIds, urls: dict[str, str]):
    """A log entry's payload rewritten (`rewrite`), and the ids its kind
    names at its top (NAMED_BY_KIND)."""
    out = rewrite(data, ids, urls)
    table = NAMED_BY_KIND.get(kind)
    if table is not None and isinstance(out, dict):
        for key in ("id", "ids"):
            if key in out:
                out[key] = _ids(out[key], table, ids)
    return out


def _walk(value, table, ids: NewIds, url: Callable):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "id" and table:
                out[key] = ids.of(table, item)
            elif key == SIGHT and isinstance(item, dict) and "groups" in item:
                out[key] = _sight(item, ids, url)
            elif key == "tokens" and is_table(item):
                out[key] = _table(item, ids, url)
            elif key in SEQS:
                out[key] = _ids(item, SEQ, ids)
            elif key in IDS:
                out[key] = _ids(item, IDS[key], ids)
            elif key in BARE and isinstance(item, int) and not isinstance(item, bool):
                out[key] = ids.of(OBJECTS[key], item)
            elif key in OBJECTS:
                out[key] = _walk(item, OBJECTS[key], ids, url)
            else:
                out[key] = _walk(item, None, ids, url)
        return out
    if isinstance(value, list):
        # A list under an object key holds objects of that table.
        return [_walk(item, table, ids, url) for item in value]
    if isinstance(value, str):
        return url(value, value)
    return value


def seqs_named(value):
    """Every seq `value` names under a SEQS key, however deep (a reveal's
    copy of an attack names the attack's)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if key in SEQS and isinstance(inner, int) and not isinstance(inner, bool):
                    yield inner
                else:
                    stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)


def _table(table: dict, ids: NewIds, url) -> dict:
    """A table of tokens (a scene change's): each row read as its token,
    rewritten, and written back in the table's form."""
    defaults = _walk(table["defaults"], None, ids, url)
    tokens = _walk(table_tokens(table), TOKEN, ids, url)
    return tokens_table(tokens, defaults)


def _ids(value, table, ids: NewIds):
    if isinstance(value, list):
        return [ids.of(table, item) for item in value]
    return ids.of(table, value)


def _sight(sight: dict, ids: NewIds, url) -> dict:
    out = dict(sight)
    out["scene"] = ids.of(SCENE, sight.get("scene"))
    out["groups"] = {
        ids.group(group): {
            key: _ids(item, TOKEN, ids) if isinstance(item, list) else item
            for key, item in seen.items()
        }
        for group, seen in (sight.get("groups") or {}).items()
    }
    out["tokens"] = _walk(sight.get("tokens", []), TOKEN, ids, url)
    out["views"] = [ids.group(g) for g in sight.get("views", [])]
    out["eyes"] = {
        str(ids.of(TOKEN, int(t))) if str(t).isdigit() else t: [ids.group(g) for g in groups]
        for t, groups in (sight.get("eyes") or {}).items()
    }
    return out
