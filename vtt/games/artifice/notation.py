"""Artifice rolls typed in the chat: a pool is dice and pips ("3D",
"3D+1"); a Check names its Difficulty ("diff 2" or "diff moderate"), a
Test its opponent's pool ("vs 3D", "vs 3D wound" for a Wound Test). A pool
alone is a Check at Difficulty 0 (Automatic): the successes are read out
and the GM judges them."""

import re

from ..notation import Reader
from .sheet import DIFFICULTIES

POOL = re.compile(r"^(\d{1,2})d([+-]\d{1,2})?$")
NAMES = {name.lower(): n for name, n in DIFFICULTIES.items()}
USAGE = "Artifice: /r 3D, /r 3D+1 diff 2, /r 4D vs 3D"
HELP = "\n".join(
    (
        "/r 3D             a Check of 3 dice, the successes read out (Difficulty 0)",
        "/r 3D+1 diff 2    a Check against a Difficulty (a number or a name:"
        " easy, moderate, hard, difficult, monstrous)",
        "/r 4D vs 3D       a Test against an opponent's pool; add 'wound' for a Wound Test",
    )
)


def _pool(reader: Reader) -> dict:
    found = reader.match(POOL, "a pool like 3D or 3D+1")
    side = {"pool": int(found[1])}
    if found[2]:
        side["modifier"] = int(found[2])
    return side


def parse(text: str, settings: dict) -> dict:
    reader = Reader(text, USAGE)
    actor = _pool(reader)
    if reader.take("vs"):
        request = {"system": "artifice", "action": "test", "actor": actor}
        request["opponent"] = _pool(reader)
        if reader.take("wound"):
            request["kind"] = "wound"
        reader.end()
        return request
    difficulty = 0
    if reader.take("diff"):
        difficulty = reader.level("diff", NAMES)
    reader.end()
    return {"system": "artifice", "action": "check", **actor, "difficulty": difficulty}
