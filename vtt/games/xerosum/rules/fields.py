"""Request fields of the Xero Sum actions, with the seed's ranges."""

from vtt.rules.errors import invalid
from vtt.rules.schema import Bool, Int, List, Obj


class OneOf(Int):
    """A whole number from a short list, e.g. the CMods a Gambit can hand on."""

    def __init__(self, *values, default):
        super().__init__(min(values), max(values), default=default)
        self.values = values

    def clean(self, value, path):
        value = super().clean(value, path)
        if value not in self.values:
            allowed = ", ".join(str(v) for v in self.values)
            raise invalid(path, f"{path} must be one of {allowed}, not {value}")
        return value


class Distinct(List):
    """A list whose items may not repeat (the dice a reroll replaces)."""

    def clean(self, value, path):
        items = super().clean(value, path)
        if len(set(items)) != len(items):
            raise invalid(path, f"{path} must not name the same die twice")
        return items


def modifiers() -> dict:
    """AMod (attribute, -2 Lame to +4 Human Peak), SMod (skill, -3..+4) and
    CMod (conditional, -5 Doomed to Failure to +5 Divine Intervention)."""
    return {
        "amod": Int(-2, 4, default=0),
        "smod": Int(-3, 4, default=0),
        "cmod": Int(-5, 5, default=0),
    }


def insight_spends() -> dict:
    """The two Insight Die spends made before the dice are rolled."""
    return {
        "insight_extra_die": Bool(default=False),
        "insight_cmod": Bool(default=False),
    }


CHECK = {**modifiers(), **insight_spends()}

# The CMod a Gambit handed to the Rebuttal (0 when no Gambit is on record).
REBUTTAL = {**CHECK, "rebuttal_cmod": OneOf(-3, -1, 0, 1, default=0)}

OPPOSED = {
    "actor": Obj(CHECK),
    "opponent": Obj(CHECK),
}

GROUP = {"participants": List(Obj(modifiers()), min_len=2, max_len=12)}
