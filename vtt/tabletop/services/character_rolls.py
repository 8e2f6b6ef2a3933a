"""Rolling for a character: the request's numbers come from the sheet, and
what the roll spends (Action Points, Insight Dice, Character and Fate Points)
is taken in the same transaction as the roll is recorded. A character who
lacks what the roll spends is refused and nothing is rolled or spent.

`fill` maps request fields (dotted, as the rules contract names them:
"pool", "actor.pool", "attacker.might") to sheet entries; each game's kit
(vtt.games) says what an entry gives: an Artifice ability its dice, an FGR
skill its level, an Rd6 skill its die code... Several entries joined by "+"
add up ("Agility+Melee")."""

import copy

from vtt import games
from vtt.rules import RulesError
from vtt.rules.engine import clean_fields, find_action

from .. import shapes
from ..models import Role, Roll, Visibility
from ..transactions import step
from .access import SYSTEM
from .characters import character_for
from .errors import NotAllowed
from .play_sessions import clean_nonce
from .resources import give, take
from .rolls import (
    adjudicate_and_record,
    check_request,
    check_roller,
    roll_adjudicate,
    roller_nonce,
    rules_error,
)

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


def character_roll(
    *,
    campaign_id: int,
    by,
    request: dict,
    visibility: str = Visibility.PUBLIC,
    character_id: int | None = None,
    fill: dict | None = None,
    nonce: str | None = None,
    from_chat: bool = False,
) -> Roll:
    """Adjudicate and record a roll, for a character when one is named.
    `nonce`: hex from the roller's browser that goes into the dice (docs/dice.md);
    `from_chat`: typed in the chat ("/r 3D"), which its event says."""
    if not isinstance(request, dict):
        raise shapes.invalid("request", "must be a rules request object")
    if character_id is None:
        if fill:
            raise shapes.invalid("fill", "filling from a sheet needs a character")
        return roll_adjudicate(
            campaign_id=campaign_id,
            by=by,
            request=request,
            visibility=visibility,
            nonce=nonce,
            from_chat=from_chat,
        )
    if type(character_id) is not int:
        raise shapes.invalid("character_id", "must be a character id or null")
    character, member = character_for(character_id, by)
    if member.role == Role.OBSERVER:
        raise NotAllowed("an observer may not roll")
    check_roller(campaign_id, character, member)
    campaign = character.campaign
    kit = games.kit(campaign.game)
    visibility = shapes.choice(visibility, "visibility", Visibility.values)
    nonce = roller_nonce(member, visibility, clean_nonce(nonce))
    request = fill_request(campaign.game, character.sheet or {}, request, fill)
    check_request(campaign, request)
    try:
        _, name, action = find_action(request)
        fields = clean_fields(action, request)
    except RulesError as error:
        raise rules_error(error) from None
    with step():
        for resource, amount in kit.spends(name, fields).items():
            take(character.pk, by, resource, amount)
        roll = adjudicate_and_record(
            campaign, by, request, visibility, character, nonce, from_chat=from_chat
        )
        for resource, amount in kit.gains(roll.result).items():
            give(character.pk, SYSTEM, resource, amount)
    return roll


__all__ = ["character_roll", "fill_request"]
