"""Status markers a game declares: its conditions (Stunned, Prone...) and
the rules effect each has where the game's text gives one, as changes to a
rules request's fields (the roll panel shows them in its odds, as it shows
a house rule's). Also the small fixed set of icons every marker is drawn
with, a condition's or a GM's free marker's. No Django here."""

from dataclasses import dataclass, field

# The icons a marker may carry; the browser draws each by this name.
ICONS = ("star", "skull", "shield", "eye", "flag", "heart", "bolt", "drop", "down", "zzz")


@dataclass(frozen=True)
class Condition:
    id: str
    name: str
    icon: str
    # Request field -> what the condition adds to it, for every action of
    # the game that has that field; empty: the rules say nothing of it.
    effect: dict = field(default_factory=dict)
    # The effect as the game says it ("-1D"), for the badge and the tray.
    says: str = ""

    def __post_init__(self):
        if self.icon not in ICONS:
            raise ValueError(f"condition {self.id!r}: unknown icon {self.icon!r}")

    def declaration(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "icon": self.icon,
            "effect": dict(self.effect),
            "says": self.says,
        }


def effect_of(conditions, fields: dict) -> dict[str, int]:
    """What `conditions` add up to on an action whose request has `fields`
    (field name -> its declaration): only the fields the action has."""
    total: dict[str, int] = {}
    for condition in conditions:
        for name, change in condition.effect.items():
            if name in fields:
                total[name] = total.get(name, 0) + change
    return total


def with_effect(request: dict, effect: dict[str, int], fields: dict) -> dict:
    """`request` with `effect` added to its fields, each kept within the
    bounds its declaration gives (`lo`, `hi`): a condition never makes a
    request the rules refuse."""
    changed = dict(request)
    for name, change in effect.items():
        declared = fields[name]
        value = changed.get(name, getattr(declared, "default", 0))
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        value += change
        lo, hi = getattr(declared, "lo", None), getattr(declared, "hi", None)
        if lo is not None:
            value = max(lo, value)
        if hi is not None:
            value = min(hi, value)
        changed[name] = value
    return changed


def marked(kit, request: dict, action, condition_ids) -> dict:
    """A rules request of `action` for a character whose tokens carry
    `condition_ids` (the kit's condition ids): their effect laid over it,
    as house rules are, so the stored request says what was adjudicated."""
    conditions = [c for c in (kit.condition(i) for i in condition_ids) if c is not None]
    effect = effect_of(conditions, action.fields)
    return with_effect(request, effect, action.fields) if effect else request
