"""Xero Sum rolls typed in the chat: "2d6" and up to three modifiers in
the order the rules add them, AMod, SMod and CMod ("2d6+2+1" is AMod +2,
SMod +1). "3d6" spends an Insight Die on the extra die; "insight" after the
modifiers spends one on +3 CMod. "vs 2d6+1" makes it an opposed roll."""

import re

from ..notation import Reader

ROLL = re.compile(r"^([23])d6((?:[+-]\d{1,2}){0,3})$")
MODIFIER = re.compile(r"[+-]\d{1,2}")
FIELDS = ("amod", "smod", "cmod")
USAGE = "Xero Sum: /r 2d6, /r 2d6+2+1 (AMod, SMod, CMod), /r 2d6+1 vs 2d6+2"
HELP = "\n".join(
    (
        "/r 2d6+2+1          2d6 + AMod 2 + SMod 1 (a third number is the CMod)",
        "/r 3d6+2+1          the same, spending an Insight Die on the extra die",
        "/r 2d6+2+1 insight  spending an Insight Die on +3 CMod",
        "/r 2d6+1 vs 2d6+2   an opposed roll; the higher total wins",
    )
)


def _side(reader: Reader) -> dict:
    found = reader.match(ROLL, "a roll like 2d6 or 2d6+2+1")
    side = {}
    for name, value in zip(FIELDS, MODIFIER.findall(found[2]), strict=False):
        if int(value):
            side[name] = int(value)
    if found[1] == "3":
        side["insight_extra_die"] = True
    if reader.take("insight"):
        side["insight_cmod"] = True
    return side


def parse(text: str, settings: dict) -> dict:
    reader = Reader(text, USAGE)
    actor = _side(reader)
    if reader.take("vs"):
        opponent = _side(reader)
        reader.end()
        return {"system": "xerosum", "action": "opposed", "actor": actor, "opponent": opponent}
    reader.end()
    return {"system": "xerosum", "action": "check", **actor}
