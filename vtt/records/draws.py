"""What a log entry shows of the dice it threw, for checking them against
the session's revealed seed (docs/dice.md). Pure: an entry's kind and
payload in (as stored, or as one viewer received it), throws out.

Where the draw and the dice sit in each kind's payload:

- `roll`: `draw`, and the result's `dice`;
- `combat.attack`, `combat.damage`: the attack's `draw`, and the `dice` of
  each of its steps in order (one draw for the whole attack);
- `encounter.initiative`: each item of `rolls` its own `draw` and `dice`;
- `reveal`: the entry it carries.

A blind roll's announcement, a redacted entry and anything logged before
sessions were kept carry no draw, and give nothing."""

from vtt.rules.session_dice import first_mismatch
from vtt.tabletop import event_kinds

# The kinds whose entries may carry throws.
THROWING = (
    event_kinds.ROLL,
    event_kinds.COMBAT_ATTACK,
    event_kinds.COMBAT_DAMAGE,
    event_kinds.ENCOUNTER_INITIATIVE,
    event_kinds.REVEAL,
)


def _faces(result) -> list[int]:
    return [d["face"] for d in (result or {}).get("dice", [])]


def _throw(draw: dict, faces: list[int], words: str, by=None, character=None) -> dict:
    """One throw as the checks read it: a derived one has its nonce, a
    physical one says so and has none. `by` is the member who threw it when
    the entry names them; `character` the name of the one it was thrown for."""
    physical = bool(draw.get("physical"))
    return {
        "session": draw["session"],
        "roll": draw["roll"],
        "nonce": None if physical else draw.get("nonce"),
        "nonce_by": None if physical else draw.get("nonce_by"),
        "physical": physical,
        "faces": faces,
        "words": words,
        "by": by,
        "character": character,
    }


def throws(kind: str, data) -> list[dict]:
    """The throws an entry of `kind` with payload `data` shows, in order."""
    if not isinstance(data, dict):
        return []
    if kind == event_kinds.REVEAL:
        return throws(data.get("type"), data.get("data"))
    if kind == event_kinds.ROLL:
        draw = data.get("draw")
        if not draw:
            return []
        character = (data.get("character") or {}).get("name")
        words = data.get("sentence", "")
        return [_throw(draw, _faces(data.get("result")), words, data.get("roller"), character)]
    if kind in (event_kinds.COMBAT_ATTACK, event_kinds.COMBAT_DAMAGE):
        attack = data.get("attack") or {}
        draw = attack.get("draw")
        if not draw:
            return []
        faces = [face for step in attack.get("steps", []) for face in _faces(step.get("result"))]
        words = attack.get("sentence") or (
            f"{attack['attacker']['name']} attacks {attack['target']['name']}"
        )
        return [_throw(draw, faces, words, attack.get("by"), attack["attacker"]["name"])]
    if kind == event_kinds.ENCOUNTER_INITIATIVE:
        # The entry does not name who rolled: that is its log entry's actor.
        return [
            _throw(
                r["draw"],
                _faces(r.get("result")),
                f"{r['name']}: initiative {r['initiative']}",
                character=r["name"],
            )
            for r in data.get("rolls", [])
            if r.get("draw")
        ]
    return []


def mismatch(seed: bytes, throw: dict) -> int | None:
    """The index of the first die of a derived throw that the seed does not
    give (None: every die matches)."""
    return first_mismatch(seed, throw["session"], throw["roll"], throw["nonce"], throw["faces"])
