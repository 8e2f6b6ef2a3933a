"""The Insight Die reroll: after a check, one or both of its two original dice
are set aside and Insight Dice are rolled fresh in their place.

The earlier result is never trusted: it is rebuilt from its own request fields
and faces, and any difference (a total edited by hand, a die added) refuses
the reroll."""

from dataclasses import dataclass

from vtt.rules.dice import DiceTape, Roller
from vtt.rules.errors import RulesError, invalid
from vtt.rules.schema import Field, Int, validate

from .consequences import consequence
from .fields import Distinct
from .judgement import moment_in
from .roll import CHECK_ACTIONS, check_resolver, modifier_of, single_roll

ORIGINAL_DICE = 2  # the 3d6 spend's extra die is itself an Insight Die and stays


@dataclass(frozen=True)
class CheckRecord:
    """A check result proven to follow from its own fields and faces."""

    action: str
    fields: dict
    faces: tuple


def _same(a, b) -> bool:
    """Equal and of the same JSON type (so 10.0 or true never pass for 10 or 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _faces(dice, count: int, path: str) -> tuple:
    if not isinstance(dice, list) or len(dice) != count:
        raise invalid(f"{path}.dice", f"{path}.dice must list the {count} dice of that check")
    faces = []
    for i, die in enumerate(dice):
        face = die.get("face") if isinstance(die, dict) else None
        if type(face) is not int or not 1 <= face <= 6:
            raise invalid(f"{path}.dice[{i}].face", f"{path}.dice[{i}].face must be a face 1-6")
        faces.append(face)
    return tuple(faces)


class CheckResult(Field):
    """The `check` field of a reroll: an earlier single-character check result."""

    def clean(self, value, path):
        if not isinstance(value, dict):
            raise invalid(path, f"{path} must be the result of an earlier xerosum check")
        if value.get("system") != "xerosum":
            raise invalid(f"{path}.system", f"{path}.system must be xerosum")
        action = value.get("action")
        if action == "group":
            raise invalid(f"{path}.action", "Insight Dice cannot be used in a Group Check")
        if action not in CHECK_ACTIONS:
            allowed = ", ".join(CHECK_ACTIONS)
            raise invalid(f"{path}.action", f"{path}.action must be one of {allowed}")
        spec = CHECK_ACTIONS[action]
        fields = validate(spec, {k: value[k] for k in spec if k in value}, path)
        faces = _faces(value.get("dice"), ORIGINAL_DICE + fields["insight_extra_die"], path)

        roller = Roller(DiceTape(list(faces)))
        rebuilt = {"system": "xerosum", "action": action}
        rebuilt.update(check_resolver(action)(fields, roller))
        rebuilt["dice"] = roller.dice
        for key in value:
            if key not in rebuilt:
                name = f"{path}.{key}"
                raise RulesError("unknown_field", f"{name} is not part of a {action} result", name)
        for key, expected in rebuilt.items():
            name = f"{path}.{key}"
            if key not in value:
                raise invalid(name, f"{name} is missing: send the {action} result as it was given")
            if not _same(value[key], expected):
                raise invalid(name, f"{name} does not follow from the dice: it is {expected!r}")
        return CheckRecord(action, fields, faces)


FIELDS = {
    "check": CheckResult(),
    "replace": Distinct(Int(0, ORIGINAL_DICE - 1), min_len=1, max_len=ORIGINAL_DICE),
}


def kept_faces(record: CheckRecord, replaced: list) -> tuple:
    return tuple(f for i, f in enumerate(record.faces) if i not in replaced)


def resolve(fields: dict, roller) -> dict:
    record = fields["check"]
    replaced = sorted(fields["replace"])
    counted = list(record.faces)
    for i in replaced:
        counted[i] = roller.die("actor", "insight")["face"]
    read = single_roll(counted, modifier_of(record.fields), spent=len(replaced))
    # The check already granted the die for its own Moment: one per check at most.
    if moment_in(list(record.faces)) is not None:
        read["insight_gained"] = 0
    result = {"rerolled": record.action, "replaced": replaced, "counted_faces": counted}
    result.update(read)
    result.update(consequence(record.action, read["outcome"]))
    return result
