"""`manage.py adjudicate` and `manage.py odds`: one JSON request on stdin, one
JSON result on stdout; exit 2 with the error object on a bad request.

Kept free of Django so manage.py can answer without setting Django up."""

import sys

from .engine import adjudicate, encode
from .errors import RulesError
from .odds import odds
from .text import decode_request

COMMANDS = {"adjudicate": adjudicate, "odds": odds}


def run(command: str, stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        result = COMMANDS[command](decode_request(_read(stdin)))
    except RulesError as exc:
        stdout.write(encode(exc.as_dict()) + "\n")
        return 2
    stdout.write(encode(result) + "\n")
    return 0


def _read(stdin) -> str:
    # Under a locale that decodes strictly, bytes that are not UTF-8 fail
    # here (other locales pass them on as lone surrogates, refused later).
    try:
        return stdin.read()
    except UnicodeDecodeError as exc:
        raise RulesError("invalid", f"the request is not UTF-8 text: {exc.reason}") from None
