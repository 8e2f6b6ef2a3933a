"""The dice tray's forms, read from the rules registry: every action of the
campaign's game with its fields, bounds, defaults and choices, plus the
labels and hints a player of that game expects. Because the forms come from
the same field declarations the adjudicator validates with, the tray cannot
drift from the contract.

An action with a field the tray cannot draw as a plain input (the Xero Sum
reroll takes a whole earlier result, the Artifice range check takes squares
and walls) is listed with "tray": false; it is not offered in the tray."""

from vtt import games
from vtt.rules import schema


class Unsupported(Exception):
    pass


def _label(words, path: str, name: str) -> str:
    labels = words.fields
    return labels.get(path) or labels.get(name) or name.replace("_", " ").capitalize()


def _choice_labels(words, choices) -> dict:
    """Each choice as the game says it: the kit's word, else its id in words."""
    said = {}
    for choice in choices:
        text = str(choice)
        said[text] = words.values.get(text) or text.replace("_", " ").capitalize()
    return said


def field_spec(words, name: str, field, path: str) -> dict:
    spec = {"name": name, "path": path, "label": _label(words, path, name)}
    inner = getattr(field, "inner", None)
    if isinstance(inner, schema.Field):
        # Optional in the contract: null means "leave it out".
        spec["nullable"] = True
        spec["default"] = None
        field = inner
    hint = words.hints.get(path) or words.hints.get(name)
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
        spec.update(
            type="choice",
            choices=list(field.choices),
            choice_labels=_choice_labels(words, field.choices),
        )
    elif isinstance(field, schema.Obj):
        spec.update(type="group", fields=fields_spec(words, field.fields, path))
    elif isinstance(field, schema.List) and isinstance(field.item, schema.Obj):
        item = fields_spec(words, field.item.fields, path + "[]")
        spec.update(type="list", min=field.min_len, max=field.max_len, item=item)
    elif path in words.widgets:
        # {"type": "pick", "from": setting}: one of the names in a campaign
        # setting (or the request's fixed field) of that name.
        spec.update(words.widgets[path])
    elif "default" in spec:
        # A special field with a default (e.g. the condition track): left to
        # the default or to the campaign setting of the same name.
        spec["type"] = "fixed"
    else:
        raise Unsupported(path)
    return spec


def fields_spec(words, fields: dict, prefix: str = "") -> list:
    return [
        field_spec(words, name, field, f"{prefix}.{name}" if prefix else name)
        for name, field in fields.items()
    ]


def tray_spec(game: str) -> dict:
    """{"game", "name", "actions": [{"id", "label", "outcomes", "tray", "fields"}],
    "fillable", "pips_field", "protected"}: the kit's declarations the
    browser draws with (vtt.games.kit.GameKit.browser)."""
    kit = games.KITS.get(game)
    if kit is None:
        return {"game": game, "name": game, "actions": []}
    actions = []
    for action_id, action in kit.system.actions.items():
        entry = {
            "id": action_id,
            "label": kit.words.actions.get(action_id) or action_id.replace("_", " ").capitalize(),
            "outcomes": list(action.outcomes),
            "odds": action.odds is not None,
        }
        try:
            entry["fields"] = fields_spec(kit.words, action.fields)
            entry["tray"] = True
        except Unsupported:
            entry["tray"] = False
        actions.append(entry)
    return {"game": game, "name": kit.name, "actions": actions, **kit.browser()}
