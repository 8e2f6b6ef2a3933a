"""Rd6 rolls typed in the chat: a die code ("4D", "4D+2"), then options in
any order: "diff 3" (successes needed, a number or a one-word name),
"cp 1" (Character Points), "fp" (a Fate Point), "up" (Rolling Up). "vs
3D+1" makes it an opposed roll against that code. A code alone is rolled
at Difficulty 0 (Very Easy): the total and successes are read out."""

import re

from ..notation import Reader, keyed

CODE = re.compile(r"^(\d{1,2})d([+-]\d{1,2})?$")
NAMES = {"easy": 1, "moderate": 2, "difficult": 3, "heroic": 5, "legendary": 6}
USAGE = "Rd6: /r 4D+2, /r 4D+2 diff 3 cp 1, /r 3D vs 2D+2"
HELP = "\n".join(
    (
        "/r 4D+2                 a die code rolled, total and successes read out",
        "/r 4D+2 diff 3 cp 1     against a Difficulty (successes needed; easy, moderate,"
        " difficult, heroic, legendary), spending 1 Character Point",
        "   options: diff N, cp N (Character Points), fp (Fate Point), up (Rolling Up)",
        "/r 3D vs 2D+2           an opposed roll; cp, fp and up are the roller's",
    )
)
SIDE_KEYS = {"cp": "character_points"}
SIDE_FLAGS = {"fp": "fate_point", "up": "rolling_up"}


def _code(reader: Reader) -> dict:
    found = reader.match(CODE, "a die code like 4D or 4D+2")
    side = {"dice": int(found[1])}
    if found[2]:
        side["pips"] = int(found[2])
    return side


def _difficulty(reader: Reader, word: str, into: dict) -> None:
    into["difficulty"] = reader.level(word, NAMES)


def parse(text: str, settings: dict) -> dict:
    reader = Reader(text, USAGE)
    actor = _code(reader)
    if reader.take("vs"):
        opponent = _code(reader)
        keyed(reader, SIDE_KEYS, SIDE_FLAGS, actor)
        return {"system": "rd6", "action": "opposed", "actor": actor, "opponent": opponent}
    keyed(reader, {**SIDE_KEYS, "diff": _difficulty}, SIDE_FLAGS, actor)
    return {"system": "rd6", "action": "roll", **actor}
