"""A JSON parser for hostile bodies: bounded in size, and a body nested too
deep to decode is a 400 like any other malformed JSON, not a server error."""

import codecs
import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

MAX_JSON_BYTES = 1024 * 1024


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", "utf-8")
        raw = stream.read(MAX_JSON_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_JSON_BYTES:
            raise ParseError(f"the body is larger than {MAX_JSON_BYTES} bytes")
        try:
            text = codecs.decode(raw, encoding)
            return json.loads(text, parse_constant=strict_constant)
        except (ValueError, RecursionError) as error:
            raise ParseError(f"JSON parse error - {error}") from None
