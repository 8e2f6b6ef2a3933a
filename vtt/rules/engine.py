"""The one adjudication contract: request dict in, result dict out."""

import json

from .dice import DiceTape, Roller
from .errors import RulesError, invalid
from .schema import validate
from .systems import SYSTEMS

_ENVELOPE = ("system", "action", "faces")


def find_action(request):
    """The (system, action name, Action) a request names, or the contract's error."""
    if not isinstance(request, dict):
        raise invalid(None, "the request must be a JSON object")
    system_id = request.get("system")
    system = SYSTEMS.get(system_id) if isinstance(system_id, str) else None
    if system is None:
        raise invalid("system", f"system must be one of {', '.join(SYSTEMS)}")
    name = request.get("action")
    action = system.actions.get(name) if isinstance(name, str) else None
    if action is None:
        raise invalid(
            "action", f"action must be one of {', '.join(system.actions)} for {system.id}"
        )
    return system, name, action


def clean_fields(action, request) -> dict:
    body = {k: v for k, v in request.items() if k not in _ENVELOPE}
    return validate(action.fields, body)


def adjudicate(request, source=None) -> dict:
    """Adjudicate one request. Dice come from `faces` when the request has
    them, else from `source` (the secure source by default)."""
    system, name, action = find_action(request)
    tape = DiceTape(request["faces"]) if "faces" in request else None
    fields = clean_fields(action, request)
    roller = Roller(tape or source)
    result = {"system": system.id, "action": name}
    result.update(action.resolve(fields, roller))
    if tape is not None:
        tape.finish()
    result["dice"] = roller.dice
    return result


def encode(result: dict) -> str:
    """The one JSON text of a result or error, shared by every channel so the
    command line, the API and the rooms give the same bytes."""
    return json.dumps(result, separators=(", ", ": "), ensure_ascii=False)


__all__ = ["RulesError", "adjudicate", "encode", "find_action", "clean_fields"]
