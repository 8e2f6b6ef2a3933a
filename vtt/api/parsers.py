"""A JSON parser for hostile bodies: bounded in size, and a body nested too
deep to decode is a 400 like any other malformed JSON, not a server error.
So is a body in a charset that is no text encoding, and one holding text
that is not Unicode (a lone surrogate): that one names where it is."""

import json

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

from vtt.rules.text import NOT_TEXT, may_hold_unencodable, unencodable_path

from .errors import NON_FIELD

MAX_JSON_BYTES = 1024 * 1024


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", "utf-8")
        raw = stream.read(MAX_JSON_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_JSON_BYTES:
            raise ParseError(f"the body is larger than {MAX_JSON_BYTES} bytes")
        try:
            # bytes.decode, not codecs.decode: only text encodings (a
            # `charset=zlib` would otherwise reach zlib and fail its own way).
            text = raw.decode(encoding)
        except LookupError:
            raise ParseError(f"the charset {encoding!r} is not a text encoding") from None
        except ValueError as error:
            raise ParseError(f"the body is not {encoding} text - {error}") from None
        try:
            data = json.loads(text, parse_constant=strict_constant)
        except (ValueError, RecursionError) as error:
            raise ParseError(f"JSON parse error - {error}") from None
        refuse_unencodable(text, data)
        return data


def refuse_unencodable(text: str, data) -> None:
    """A 400 naming the first string that could be neither stored nor
    echoed in an answer (the name itself escaped, so the answer encodes)."""
    if not may_hold_unencodable(text):
        return
    path = unencodable_path(data)
    if path == "":
        raise ValidationError({NON_FIELD: [f"the body {NOT_TEXT}"]}, code="invalid")
    if path is not None:
        raise ValidationError({path: [NOT_TEXT]}, code="invalid")
