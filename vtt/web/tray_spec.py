"""The dice tray's forms, read from the rules registry: every action of the
campaign's game with its fields, bounds, defaults and choices, plus the
labels and hints a player of that game expects. Because the forms come from
the same field declarations the adjudicator validates with, the tray cannot
drift from the contract.

An action with a field the tray cannot draw as a plain input (the Xero Sum
reroll takes a whole earlier result, the Artifice range check takes squares
and walls) is listed with "tray": false; it is not offered in the tray."""

from vtt.rules import schema
from vtt.rules.systems import SYSTEMS

from .tray_labels import ACTION_LABELS, FIELD_HINTS, FIELD_LABELS, FIELD_WIDGETS


class Unsupported(Exception):
    pass


def _label(game: str, path: str, name: str) -> str:
    labels = FIELD_LABELS.get(game, {})
    return labels.get(path) or labels.get(name) or name.replace("_", " ").capitalize()


def field_spec(game: str, name: str, field, path: str) -> dict:
    spec = {"name": name, "path": path, "label": _label(game, path, name)}
    inner = getattr(field, "inner", None)
    if isinstance(inner, schema.Field):
        # Optional in the contract: null means "leave it out".
        spec["nullable"] = True
        spec["default"] = None
        field = inner
    hint = FIELD_HINTS.get(game, {}).get(path) or FIELD_HINTS.get(game, {}).get(name)
    if hint:
        spec["hint"] = hint
    if "default" not in spec and field.default is not schema.MISSING:
        spec["default"] = field.default
    if isinstance(field, schema.Bool):
        spec["type"] = "bool"
    elif isinstance(field, schema.Int):
        spec.update(type="int", min=field.lo, max=field.hi)
        values = getattr(field, "values", None)
        if values:
            spec["values"] = list(values)
    elif isinstance(field, schema.Choice):
        spec.update(type="choice", choices=list(field.choices))
    elif isinstance(field, schema.Obj):
        spec.update(type="group", fields=fields_spec(game, field.fields, path))
    elif isinstance(field, schema.List) and isinstance(field.item, schema.Obj):
        item = fields_spec(game, field.item.fields, path + "[]")
        spec.update(type="list", min=field.min_len, max=field.max_len, item=item)
    elif path in FIELD_WIDGETS.get(game, {}):
        spec["type"] = FIELD_WIDGETS[game][path]
    elif "default" in spec:
        # A special field with a default (e.g. the condition track): left to
        # the default or to the campaign setting of the same name.
        spec["type"] = "fixed"
    else:
        raise Unsupported(path)
    return spec


def fields_spec(game: str, fields: dict, prefix: str = "") -> list:
    return [
        field_spec(game, name, field, f"{prefix}.{name}" if prefix else name)
        for name, field in fields.items()
    ]


def tray_spec(game: str) -> dict:
    """{"game", "name", "actions": [{"id", "label", "outcomes", "tray", "fields"}]}"""
    system = SYSTEMS.get(game)
    if system is None:
        return {"game": game, "name": game, "actions": []}
    actions = []
    for action_id, action in system.actions.items():
        entry = {
            "id": action_id,
            "label": ACTION_LABELS.get(game, {}).get(action_id)
            or action_id.replace("_", " ").capitalize(),
            "outcomes": list(action.outcomes),
            "odds": action.odds is not None,
        }
        try:
            entry["fields"] = fields_spec(game, action.fields)
            entry["tray"] = True
        except Unsupported:
            entry["tray"] = False
        actions.append(entry)
    return {"game": game, "name": system.name, "actions": actions}
