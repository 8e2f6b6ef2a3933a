"""Rd6 die codes: "3D+1" is three dice and one pip; three pips make a die,
so a code carries 0 to 2 pips."""

import re

from vtt.core import shapes

DIE_CODE = re.compile(r"^\s*(\d{1,2})\s*[dD]\s*(?:\+\s*([0-2]))?\s*$")


def parse_die_code(code) -> tuple[int, int] | None:
    """'3D+1' -> (3, 1); None when it is not a die code."""
    if not isinstance(code, str):
        return None
    match = DIE_CODE.match(code)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def die_code(dice: int, pips: int) -> str:
    return f"{dice}D+{pips}" if pips else f"{dice}D"


def clean_die_code(value, path: str, lo: int, hi: int) -> str:
    parsed = parse_die_code(value)
    if parsed is None:
        raise shapes.invalid(path, "must be a die code like 3D or 3D+1 (0 to 2 pips)")
    dice, pips = parsed
    if not lo <= dice <= hi:
        raise shapes.invalid(path, f"must have {lo} to {hi} dice, not {dice}")
    return die_code(dice, pips)
