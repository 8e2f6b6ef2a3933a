"""Requests on pinned dice tapes, shared by the game test files; each file
binds its own system, e.g. roll = partial(throw, "xerosum")."""

import pytest

from vtt.rules.engine import adjudicate
from vtt.rules.errors import RulesError


def throw(system: str, action: str, faces: list, **fields) -> dict:
    return adjudicate({"system": system, "action": action, **fields, "faces": faces})


def refusal(system: str, request: dict) -> RulesError:
    with pytest.raises(RulesError) as err:
        adjudicate({"system": system, **request})
    return err.value


def replayed(request: dict, result: dict) -> dict:
    """The request on the faces the result shows; the same request must give
    the same result (replay identity)."""
    return adjudicate({**request, "faces": [d["face"] for d in result["dice"]]})
