"""`manage.py adjudicate` and `manage.py odds`: one JSON request on stdin, one
JSON result on stdout; exit 2 with the error object on a bad request.

Kept free of Django so manage.py can answer without setting Django up."""

import json
import sys

from .engine import adjudicate, encode
from .errors import RulesError
from .odds import odds

COMMANDS = {"adjudicate": adjudicate, "odds": odds}


def run(command: str, stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        text = stdin.read()
        try:
            request = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise RulesError("invalid", f"the request is not valid JSON: {exc}") from None
        result = COMMANDS[command](request)
    except RulesError as exc:
        stdout.write(encode(exc.as_dict()) + "\n")
        return 2
    stdout.write(encode(result) + "\n")
    return 0
