"""Apocalyptia rolls typed in the chat: "d6+3" (the Trait or Skill and its
modifiers), then "vs 4" for the Difficulty (the total must beat it) or
"vs d6+2" for an opposed roll. The kind of roll is a word after it (trait,
skill, dmg, loot, other; skill when none is said) and "calm" marks a roll
that is not stressful. A roll alone is made against 0: the total is read
out."""

import re

from ..notation import Reader, keyed
from .rules import KINDS

ROLL = re.compile(r"^1?d6([+-]\d{1,2})?$")
NUMBER = re.compile(r"^\d{1,2}$")
USAGE = "Apocalyptia: /r d6+3 vs 4, /r d6+3 vs d6+2, /r d6+2 vs 5 trait"
HELP = "\n".join(
    (
        "/r d6+3 vs 4         1d6 + 3 against Difficulty 4 (equal fails)",
        "/r d6+3 vs 4 trait   the kind of roll: trait, skill (the default), dmg, loot, other;"
        " add 'calm' when it is not stressful",
        "/r d6+3 vs d6+2      an opposed roll; ties are rolled again",
        "/r d6+3              the total against 0",
    )
)


def _bonus(reader: Reader) -> int:
    found = reader.match(ROLL, "a roll like d6+3")
    return int(found[1] or 0)


def _kind(reader: Reader, word: str, into: dict) -> None:
    if "kind" in into:
        raise reader.refuse("Name one kind of roll")
    into["kind"] = word


def parse(text: str, settings: dict) -> dict:
    reader = Reader(text, USAGE)
    bonus = _bonus(reader)
    request = {"system": "apocalyptia", "action": "roll", "bonus": bonus, "difficulty": 0}
    if reader.take("vs"):
        if not NUMBER.match(reader.peek() or ""):
            opponent = _bonus(reader)
            reader.end()
            return {
                "system": "apocalyptia",
                "action": "opposed",
                "actor": {"bonus": bonus},
                "opponent": {"bonus": opponent},
            }
        request["difficulty"] = reader.whole("vs")
    elif reader.take("diff"):
        request["difficulty"] = reader.whole("diff")
    keyed(reader, dict.fromkeys(KINDS, _kind), {"calm": "calm"}, request)
    calm = request.pop("calm", None)
    request.setdefault("kind", "skill")
    if calm:
        request["stressful"] = False
    return request
