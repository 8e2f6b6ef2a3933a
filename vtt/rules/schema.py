"""Declarative request fields. Each action lists its fields; `validate` turns a
request body into clean values with defaults, or raises the contract's
`unknown_field` / `invalid` error naming the field (dotted for nested ones)."""

from .errors import RulesError, invalid

MISSING = object()


class Field:
    # Whether clean returns every value as it is: a list of such items is
    # taken whole, without a call and an error path made for each one.
    takes_anything = False

    def __init__(self, default=MISSING):
        self.default = default

    def clean(self, value, path: str):
        raise NotImplementedError


class Int(Field):
    def __init__(self, lo=None, hi=None, default=MISSING):
        super().__init__(default)
        self.lo, self.hi = lo, hi

    def clean(self, value, path):
        # bool is an int subclass in Python but never a number in a request.
        if type(value) is not int:
            raise invalid(path, f"{path} must be a whole number")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise invalid(path, f"{path} must be between {self.lo} and {self.hi}, not {value}")
        return value


class Bool(Field):
    def clean(self, value, path):
        if type(value) is not bool:
            raise invalid(path, f"{path} must be true or false")
        return value


class Choice(Field):
    def __init__(self, *choices, default=MISSING):
        super().__init__(default)
        self.choices = choices

    def clean(self, value, path):
        if not isinstance(value, str) or value not in self.choices:
            raise invalid(path, f"{path} must be one of {', '.join(self.choices)}")
        return value


class Obj(Field):
    """A nested object with its own fields."""

    def __init__(self, fields: dict, default=MISSING):
        super().__init__(default)
        self.fields = fields

    def clean(self, value, path):
        return validate(self.fields, value, path)


class List(Field):
    def __init__(self, item: Field, min_len=0, max_len=100, default=MISSING):
        super().__init__(default)
        self.item, self.min_len, self.max_len = item, min_len, max_len

    def clean(self, value, path):
        if not isinstance(value, list):
            raise invalid(path, f"{path} must be a list")
        if not self.min_len <= len(value) <= self.max_len:
            raise invalid(path, f"{path} must have {self.min_len} to {self.max_len} items")
        if self.item.takes_anything:
            return list(value)
        return [self.item.clean(v, f"{path}[{i}]") for i, v in enumerate(value)]


def validate(fields: dict, data, path: str = "") -> dict:
    """Clean `data` against `fields`. Unknown keys fail first, then each field
    in declaration order, so the error names the first bad field."""
    if not isinstance(data, dict):
        raise invalid(path or None, f"{path or 'the request'} must be a JSON object")
    prefix = f"{path}." if path else ""
    for key in data:
        if key not in fields:
            name = f"{prefix}{key}"
            raise RulesError("unknown_field", f"{name} is not a field of this action", name)
    clean = {}
    for name, field in fields.items():
        if name in data:
            clean[name] = field.clean(data[name], prefix + name)
        elif field.default is MISSING:
            raise invalid(prefix + name, f"{prefix + name} is required")
        else:
            clean[name] = field.default
    return clean
