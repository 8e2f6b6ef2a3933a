"""How a roll for a character reads its sheet (the roll itself, and what
it spends, is rolls.roll_adjudicate).

`fill` maps request fields (dotted, as the rules contract names them:
"pool", "actor.pool", "attacker.might") to sheet entries; each game's kit
(vtt.games) says what an entry gives: an Artifice ability its dice, an FGR
skill its level, an Rd6 skill its die code... Several entries joined by "+"
add up ("Agility+Melee")."""

import copy

from vtt import games
from vtt.core import shapes

MAX_FILLS = 20


def _slot(request: dict, target: str, path: str) -> tuple[dict, str]:
    """The object inside `request` that holds the field `target`, and its name."""
    *parents, name = target.split(".")
    holder = request
    for part in parents:
        holder = holder.setdefault(part, {})
        if not isinstance(holder, dict):
            raise shapes.invalid(path, f"request.{target} cannot be filled")
    if not name:
        raise shapes.invalid(path, "must name a request field")
    return holder, name


def fill_request(game: str, sheet: dict, request: dict, fill: dict | None) -> dict:
    """A copy of `request` with the `fill` fields taken from the sheet."""
    kit = games.kit(game)
    request = copy.deepcopy(request)
    if not fill:
        return request
    if not isinstance(fill, dict) or len(fill) > MAX_FILLS:
        raise shapes.invalid("fill", f"must map at most {MAX_FILLS} request fields to entries")
    for target, entries in fill.items():
        path = f"fill.{target}"
        if not isinstance(entries, str) or not entries.strip():
            raise shapes.invalid(path, "must name a sheet entry")
        holder, name = _slot(request, target, path)
        if name in holder:
            raise shapes.invalid(path, f"request.{target} is given and filled both")
        parts = [part.strip() for part in entries.split("+")]
        kit.fill(holder, name, sheet, parts, path)
    return request


__all__ = ["fill_request"]
