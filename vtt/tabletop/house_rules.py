"""A campaign's settings applied to its rolls: the table's choices become
the defaults of the rules request, so the stored request says exactly what
was adjudicated (and replays to the same result), and the limits the table
set (the Rd6 Character Point cap) are enforced.

A field the request gives itself is kept; only a missing one is filled, and
only when the table's choice differs from the rules' own default."""

from vtt.rules.schema import Obj
from vtt.rules.systems import SYSTEMS

from . import shapes
from .errors import ServiceError
from .models import Game


def _request_defaults(game: str, settings: dict) -> dict:
    if game == Game.RD6:
        return {
            "complication": settings.get("complication"),
            "catastrophic_failure": settings.get("catastrophic_failure"),
            "result_dice": settings.get("result_points_to_damage"),
        }
    if game == Game.ARTIFICE:
        return {
            "condition_track": settings.get("condition_track"),
            "diagonal": settings.get("diagonal"),
        }
    return {}


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


def _character_points(request: dict) -> list[tuple[str, object]]:
    found = [("character_points", request.get("character_points"))]
    for side in ("actor", "opponent"):
        if isinstance(request.get(side), dict):
            found.append((f"{side}.character_points", request[side].get("character_points")))
    return [(path, value) for path, value in found if value is not None]


def apply_house_rules(game: str, settings: dict, request: dict) -> dict:
    """`request` with the campaign's defaults filled in; refuses what the
    table does not allow. An unknown action is left for the rules to refuse."""
    system = SYSTEMS.get(game)
    action = system.actions.get(request.get("action")) if system else None
    if action is None:
        return request
    request = _fill(action.fields, request, _request_defaults(game, settings))
    if game == Game.RD6:
        cap = settings.get("character_point_cap")
        for path, value in _character_points(request):
            if type(value) is int and cap is not None and value > cap:
                raise ServiceError(
                    "character_point_cap",
                    f"this campaign allows at most {cap} Character Points on one roll",
                    f"request.{path}",
                )
    return shapes.storable(request, "request")
