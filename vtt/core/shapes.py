"""Checks for the JSON the tabletop stores (campaign settings, character
sheets, weapons, resources, walls). Each check returns the clean value or
raises ServiceError naming the offending field with a dotted path, the same
way the rules contract names its fields."""

import math

from .errors import ServiceError


def invalid(path: str, message: str) -> ServiceError:
    return ServiceError("invalid", f"{path}: {message}", path)


def storable(value, path: str):
    """JSON that every database can store: PostgreSQL refuses a NUL
    character anywhere in a jsonb or text value."""
    pending = [value]
    while pending:  # a loop, not recursion: the JSON may be nested deep
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise invalid(path, "must not contain NUL characters")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return value


def obj(value, path: str, allowed=None) -> dict:
    """A JSON object; with `allowed`, a key outside it is an unknown_field."""
    if not isinstance(value, dict):
        raise invalid(path, "must be an object")
    if allowed is not None:
        for key in value:
            if key not in allowed:
                name = f"{path}.{key}"
                raise ServiceError("unknown_field", f"{name} is not a known field", name)
    return value


def whole(value, path: str, lo: int, hi: int) -> int:
    # bool is an int in Python but never a number in a sheet.
    if type(value) is not int:
        raise invalid(path, "must be a whole number")
    if not lo <= value <= hi:
        raise invalid(path, f"must be between {lo} and {hi}, not {value}")
    return value


def number(value, path: str, lo: float, hi: float) -> int | float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise invalid(path, "must be a number")
    if not lo <= value <= hi:
        raise invalid(path, f"must be between {lo} and {hi}, not {value}")
    return value


def boolean(value, path: str) -> bool:
    if type(value) is not bool:
        raise invalid(path, "must be true or false")
    return value


def choice(value, path: str, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise invalid(path, f"must be one of {', '.join(choices)}")
    return value


def text(value, path: str, max_length: int, blank: bool = False) -> str:
    if not isinstance(value, str):
        raise invalid(path, "must be text")
    value = value.strip()
    if not value and not blank:
        raise invalid(path, "must not be blank")
    if len(value) > max_length:
        raise invalid(path, f"must be at most {max_length} characters")
    if any(ord(c) < 32 for c in value):
        raise invalid(path, "must not contain control characters")
    return value


def items(value, path: str, max_items: int) -> list:
    if not isinstance(value, list):
        raise invalid(path, "must be a list")
    if len(value) > max_items:
        raise invalid(path, f"must have at most {max_items} items")
    return value


def named_map(value, path: str, max_items: int, name_length: int = 60) -> dict:
    """An object keyed by names (skills, attributes): bounded, clean keys."""
    obj(value, path)
    if len(value) > max_items:
        raise invalid(path, f"must have at most {max_items} entries")
    for key in value:
        text(key, f"{path}.{key}", name_length)
        if key != key.strip():
            raise invalid(f"{path}.{key}", "a name must not start or end with spaces")
    return value


def distinct_names(value, path: str, min_items: int, max_items: int, name_length=40) -> list:
    items(value, path, max_items)
    if len(value) < min_items:
        raise invalid(path, f"must have at least {min_items} items")
    names = [text(v, f"{path}[{i}]", name_length) for i, v in enumerate(value)]
    if len({n.casefold() for n in names}) != len(names):
        raise invalid(path, "names must be distinct")
    return names
