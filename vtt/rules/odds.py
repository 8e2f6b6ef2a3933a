"""Exact odds before the roll: the same requests as `adjudicate`, without faces.

Each action computes its own distributions (vtt.rules.dist has the shared
building blocks); this module checks the request and wraps the answer."""

from .engine import clean_fields, find_action
from .errors import RulesError


def odds(request) -> dict:
    system, name, action = find_action(request)
    if "faces" in request:
        raise RulesError(
            "unknown_field", "odds are computed before the roll: leave out faces", "faces"
        )
    if action.odds is None:
        raise RulesError("invalid", f"{system.id} {name} has no odds", "action")
    fields = clean_fields(action, request)
    computed = action.odds(fields)
    outcomes = {o: 0.0 for o in action.outcomes}
    outcomes.update(computed.pop("outcomes"))
    result = {
        "system": system.id,
        "action": name,
        "outcomes": outcomes,
        "exact": True,
        "truncated_mass": computed.pop("truncated_mass", 0.0),
    }
    result.update(computed)
    return result
