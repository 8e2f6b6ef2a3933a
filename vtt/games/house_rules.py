"""A campaign's settings applied to its rolls: the table's choices become
the defaults of the rules request, so the stored request says exactly what
was adjudicated (and replays to the same result), and the limits the table
set (the Rd6 Character Point cap) are enforced. Each game's kit says which
settings fill which fields and what it refuses.

A field the request gives itself is kept; only a missing one is filled, and
only when the table's choice differs from the rules' own default."""

from vtt import games
from vtt.core import shapes
from vtt.rules.schema import Obj


def _same(a, b) -> bool:
    return (list(a) if isinstance(a, tuple) else a) == (list(b) if isinstance(b, tuple) else b)


def _fill(fields: dict, request: dict, defaults: dict) -> dict:
    filled = dict(request)
    for name, field in fields.items():
        if name in defaults and defaults[name] is not None and name not in request:
            if not _same(defaults[name], getattr(field, "default", None)):
                filled[name] = defaults[name]
        elif isinstance(field, Obj) and isinstance(request.get(name), dict):
            filled[name] = _fill(field.fields, request[name], defaults)
    return filled


def apply_house_rules(game: str, settings: dict, request: dict) -> dict:
    """`request` with the campaign's defaults filled in; refuses what the
    table does not allow. An unknown action is left for the rules to refuse."""
    kit = games.KITS.get(game)
    action = kit.system.actions.get(request.get("action")) if kit else None
    if action is None:
        return request
    request = _fill(action.fields, request, kit.request_defaults(settings))
    kit.check_request(settings, request)
    return shapes.storable(request, "request")
