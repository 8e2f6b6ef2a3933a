"""Rolling for a character: the request's numbers come from the sheet, and
what the roll spends (Action Points, Insight Dice, Character and Fate Points)
is taken in the same transaction as the roll is recorded. A character who
lacks what the roll spends is refused and nothing is rolled or spent.

`fill` maps request fields (dotted, as the rules contract names them:
"pool", "actor.pool", "attacker.might") to sheet entries, by game:

- artifice: an ability ("Might") gives its dice, "Might.pips" its pips;
  an attribute ("Strength") its rating.
- fgr: a skill ("Swordplay") gives its level.
- xerosum: an attribute ("Reason") gives its AMod, a skill its SMod.
- rd6: a skill or attribute gives its die code; it fills a `dice` field and
  adds the code's pips to the `pips` beside it.
- apocalyptia: a trait ("Agility") gives its rating, a skill its level.

Several entries joined by "+" add up ("Agility+Melee")."""

import copy

from django.db import transaction

from vtt.rules import RulesError
from vtt.rules.engine import clean_fields, find_action

from .. import shapes
from ..models import Campaign, Game, Role, Roll, Visibility
from ..sheets import parse_die_code
from .access import SYSTEM
from .characters import character_for
from .errors import NotAllowed, ServiceError
from .resources import resource_gain, resource_spend
from .rolls import roll_adjudicate

MAX_FILLS = 20


def _rules_error(error: RulesError) -> ServiceError:
    field = f"request.{error.field}" if error.field else "request"
    return ServiceError(error.code, error.message, field)


def _no_entry(entry: str, path: str) -> ServiceError:
    return shapes.invalid(path, f"the sheet has no entry {entry!r}")


def _number(game: str, sheet: dict, entry: str, path: str) -> int:
    """One sheet entry as a number."""
    if game == Game.ARTIFICE:
        name, _, part = entry.partition(".")
        ability = sheet.get("abilities", {}).get(name)
        if ability is not None and part in ("", "dice", "pips"):
            return ability["pips"] if part == "pips" else ability["dice"]
        if not part and name in sheet.get("attributes", {}):
            return sheet["attributes"][name]
    elif game == Game.FGR:
        if entry in sheet.get("skills", {}):
            return sheet["skills"][entry]
    elif game == Game.XEROSUM:
        if entry in sheet.get("attributes", {}):
            return sheet["attributes"][entry]
        if entry in sheet.get("skills", {}):
            return sheet["skills"][entry]["smod"]
    elif game == Game.APOCALYPTIA:
        if entry in sheet.get("traits", {}):
            return sheet["traits"][entry]
        if entry in sheet.get("skills", {}):
            return sheet["skills"][entry]["level"]
    raise _no_entry(entry, path)


def _die_code(sheet: dict, entry: str, path: str) -> tuple[int, int]:
    skill = sheet.get("skills", {}).get(entry)
    code = skill["code"] if skill else sheet.get("attributes", {}).get(entry)
    parsed = parse_die_code(code)
    if parsed is None:
        raise _no_entry(entry, path)
    return parsed


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
        if game == Game.RD6:
            if name != "dice":
                raise shapes.invalid(path, "an Rd6 die code fills a dice field")
            codes = [_die_code(sheet, part, path) for part in parts]
            holder["dice"] = sum(dice for dice, _ in codes)
            pips = holder.get("pips", 0)
            holder["pips"] = (pips if type(pips) is int else 0) + sum(p for _, p in codes)
        else:
            holder[name] = sum(_number(game, sheet, part, path) for part in parts)
    return request


def _count(value) -> int:
    return value if type(value) is int else int(value is True)


def spends(game: str, action: str, fields: dict) -> dict[str, int]:
    """What a clean request of `action` takes from the rolling character."""
    side = fields.get("actor") if isinstance(fields.get("actor"), dict) else fields
    cost: dict[str, int] = {}
    if game == Game.FGR:
        cost["action_points"] = _count(fields.get("action_points", 0))
    elif game == Game.XEROSUM:
        if action == "reroll":
            cost["insight_dice"] = len(fields.get("replace") or [])
        else:
            cost["insight_dice"] = _count(side.get("insight_extra_die")) + _count(
                side.get("insight_cmod")
            )
    elif game == Game.RD6:
        cost["character_points"] = _count(side.get("character_points", 0))
        cost["fate_points"] = _count(side.get("fate_point"))
    return {resource: amount for resource, amount in cost.items() if amount > 0}


def gains(game: str, result: dict) -> dict[str, int]:
    """What the roll gives back to the character (a Moment of Insight)."""
    if game != Game.XEROSUM:
        return {}
    side = result.get("actor") if isinstance(result.get("actor"), dict) else result
    gained = side.get("insight_gained") or result.get("insight_gained") or 0
    return {"insight_dice": gained} if type(gained) is int and gained > 0 else {}


def character_roll(
    *,
    campaign_id: int,
    by,
    request: dict,
    visibility: str = Visibility.PUBLIC,
    character_id: int | None = None,
    fill: dict | None = None,
) -> Roll:
    """Adjudicate and record a roll, for a character when one is named."""
    if not isinstance(request, dict):
        raise shapes.invalid("request", "must be a rules request object")
    if character_id is None:
        if fill:
            raise shapes.invalid("fill", "filling from a sheet needs a character")
        return roll_adjudicate(
            campaign_id=campaign_id, by=by, request=request, visibility=visibility
        )
    if type(character_id) is not int:
        raise shapes.invalid("character_id", "must be a character id or null")
    character, member = character_for(character_id, by)
    if character.campaign_id != campaign_id:
        raise shapes.invalid("character_id", "no such character in this campaign")
    if member.role == Role.OBSERVER:
        raise NotAllowed("an observer may not roll")
    if member.role != Role.GM and character.owner_id != getattr(by, "pk", None):
        raise NotAllowed("a player rolls only for their own characters", "character_id")
    game = Campaign.objects.values_list("game", flat=True).get(pk=campaign_id)
    request = fill_request(game, character.sheet or {}, request, fill)
    try:
        _, name, action = find_action(request)
        fields = clean_fields(action, request)
    except RulesError as error:
        raise _rules_error(error) from None
    if request.get("system") != game:
        raise shapes.invalid("request.system", f"this campaign plays {game}")
    with transaction.atomic():
        for resource, amount in spends(game, name, fields).items():
            resource_spend(character_id=character.pk, by=by, resource=resource, amount=amount)
        roll = roll_adjudicate(
            campaign_id=campaign_id,
            by=by,
            request=request,
            visibility=visibility,
            character_id=character.pk,
        )
        for resource, amount in gains(game, roll.result).items():
            resource_gain(character_id=character.pk, by=SYSTEM, resource=resource, amount=amount)
    return roll


__all__ = ["character_roll", "fill_request", "spends", "gains"]
