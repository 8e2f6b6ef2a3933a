"""Fantasy Ground Rules rolls typed in the chat: the Skill's dice ("3" or
"3D"), help or hindrance as dice after it ("3+1", "3-2"), then "diff 2"
(a number or easy, moderate, difficult, legendary) and "ap 1" (Action
Points) in any order. "4 sum" is a numerical roll (the faces added up). A
Skill roll alone is made against Easy (1), the lowest Difficulty there is."""

import re

from ..notation import Reader, keyed

DICE = re.compile(r"^(\d{1,2})d?([+-]\d{1,2})?$")
NAMES = {"easy": 1, "moderate": 2, "difficult": 3, "legendary": 4}
USAGE = "Fantasy Ground Rules: /r 3 diff 2, /r 3+1 diff 2 ap 1, /r 4 sum"
HELP = "\n".join(
    (
        "/r 3 diff 2         a Skill roll of 3 dice against Difficulty 2 (easy, moderate,"
        " difficult, legendary)",
        "/r 3+1 diff 2 ap 1  with a die of help (-1 for a hindrance), spending 1 Action Point",
        "/r 3                against Easy (1)",
        "/r 4 sum            a numerical roll: the faces added up",
    )
)


def _difficulty(reader: Reader, word: str, into: dict) -> None:
    into["difficulty"] = reader.level(word, NAMES)


def parse(text: str, settings: dict) -> dict:
    reader = Reader(text, USAGE)
    found = reader.match(DICE, "a number of dice like 3 or 3+1")
    dice = int(found[1])
    if reader.take("sum"):
        if found[2]:
            raise reader.refuse("A numerical roll takes no help or hindrance dice")
        reader.end()
        return {"system": "fgr", "action": "numeric", "dice": dice}
    request = {"system": "fgr", "action": "roll", "skill": dice, "difficulty": 1}
    if found[2]:
        request["modifier_dice"] = int(found[2])
    keyed(reader, {"diff": _difficulty, "ap": "action_points"}, {}, request)
    return request
