"""Text that is legal JSON but not Unicode.

JSON may spell a lone UTF-16 surrogate (`"\\ud800"`). Python decodes it to a
str that no UTF-8 encoder accepts, so such a string can be neither stored nor
sent back: every front door (the API's body parser, the rooms' frame parser,
the rules commands and endpoints) looks for one right after decoding and
refuses the request, naming the place in plain ASCII."""

import json

from .errors import RulesError

ROOT = None  # the path of the decoded value itself
# What is wrong, for a message that names the place before it.
NOT_TEXT = "must be valid Unicode text; it holds a lone UTF-16 surrogate"
_CONTAINERS = (dict, list)


def encodable(text: str) -> bool:
    """Whether `text` encodes as UTF-8, i.e. holds no lone surrogate."""
    if text.isascii():  # O(1) in CPython: the common case costs nothing
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def may_hold_unencodable(json_text: str) -> bool:
    """False when decoding `json_text` cannot give a lone surrogate: without
    a \\u escape, every decoded character stands in the text as it is, so
    a text that encodes decodes to strings that do. Lets a hot path skip the
    walk (about 0.1 microseconds for a typical frame, against 1.5 for it)."""
    return "\\u" in json_text or not encodable(json_text)


def unencodable_path(value) -> str | None:
    """The path to the first string, key or value at any depth, that cannot
    be encoded as UTF-8 (`sheet.skills[1]`, the key itself last for a bad key,
    "" for `value` itself), written so that it encodes; None when all do.

    Walks with its own stack: a decoder accepts nesting deeper than Python's
    recursion limit."""
    pending = [(value, ROOT)]
    while pending:
        node, path = pending.pop()
        if type(node) is str:
            if not encodable(node):
                return spell(path)
        elif type(node) is dict:
            # Pushed in reverse, so the first entry is popped first, its key
            # before its value.
            for key, item in reversed(node.items()):
                here = (path, key)
                if type(item) is str or type(item) in _CONTAINERS:
                    pending.append((item, here))
                pending.append((key, here))
        elif type(node) is list:
            for index in range(len(node) - 1, -1, -1):
                item = node[index]
                if type(item) is str or type(item) in _CONTAINERS:
                    pending.append((item, (path, index)))
    return None


def spell(path) -> str:
    """A path (nested (parent, step) pairs) as `a.b[2].c`, with every
    unencodable character written as a backslash escape."""
    steps = []
    while path is not ROOT:
        path, step = path
        steps.append(step)
    out = []
    for step in reversed(steps):
        if type(step) is int:
            out.append(f"[{step}]")
        else:
            escaped = step.encode("utf-8", "backslashreplace").decode("utf-8")
            out.append(f".{escaped}" if out else escaped)
    return "".join(out)


def decode_request(text: str | bytes):
    """A rules request from its JSON text (the commands' stdin, the rules
    endpoints' body), or the contract's refusal: not JSON, nested too deep
    to decode, or holding such text."""
    try:
        request = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RulesError("invalid", f"the request is not valid JSON: {exc}") from None
    path = unencodable_path(request)
    if path is not None:
        name = path or "the request"
        raise RulesError("invalid", f"{name} {NOT_TEXT}", path or None)
    return request
