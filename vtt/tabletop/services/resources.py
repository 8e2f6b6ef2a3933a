"""Spending and earning a character's counters (Action Points, Insight Dice,
Character and Fate Points, experience...). Each change locks the character's
row, so two spends at once can never take more than the character has.

The public functions authorize; `take` and `give` trust their caller (a
roll for a character spends through them after checking who rolls)."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.games.kit import MAX_COUNTER

from .. import event_kinds, policy
from ..models import Character
from .characters import character_event, character_for
from .errors import NotAllowed, ServiceError


def _counter(character: Character, resource) -> str:
    counters = games.kit(character.campaign.game).counters
    if not isinstance(resource, str) or resource not in counters:
        raise shapes.invalid("resource", f"must be one of {', '.join(counters)}")
    return resource


def _locked(character_id: int) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character_id)


def take(character_id: int, by, resource: str, amount: int) -> Character:
    """Take `amount` of `resource` in the caller's transaction; refused with
    code insufficient_<resource> when the character has less."""
    character = _locked(character_id)
    have = character.resources.get(resource, 0)
    if have < amount:
        raise ServiceError(
            f"insufficient_{resource}",
            f"{character.name} has {have} {resource.replace('_', ' ')}, not {amount}",
            "amount",
        )
    character.resources = {**character.resources, resource: have - amount}
    character.save(update_fields=["resources", "updated_at"])
    character_event(character, event_kinds.CHARACTER_UPDATED, by)
    return character


def give(character_id: int, by, resource: str, amount: int) -> Character:
    """Add `amount` to `resource` in the caller's transaction."""
    character = _locked(character_id)
    total = character.resources.get(resource, 0) + amount
    if total > MAX_COUNTER:
        raise shapes.invalid("amount", f"{resource} would exceed {MAX_COUNTER}")
    character.resources = {**character.resources, resource: total}
    character.save(update_fields=["resources", "updated_at"])
    character_event(character, event_kinds.CHARACTER_UPDATED, by)
    return character


def resource_spend(*, character_id: int, by, resource: str, amount: int) -> Character:
    """Take `amount` of `resource`. The owner or a GM may spend."""
    character, member = character_for(character_id, by)
    if not (policy.runs_table(member) or policy.owns_character(member, character)):
        raise NotAllowed("only the character's owner or a GM may spend its resources")
    if not policy.takes_part(member):
        raise NotAllowed("an observer may not spend resources")
    resource = _counter(character, resource)
    amount = shapes.whole(amount, "amount", 1, MAX_COUNTER)
    with transaction.atomic():
        return take(character.pk, by, resource, amount)


def resource_gain(*, character_id: int, by, resource: str, amount: int) -> Character:
    """Add to a counter: a GM's award, or the server applying a rule (a
    Moment of Insight grants an Insight Die) with by=SYSTEM."""
    character, member = character_for(character_id, by)
    if not policy.runs_table(member):
        raise NotAllowed("only a GM may award resources")
    resource = _counter(character, resource)
    amount = shapes.whole(amount, "amount", 1, MAX_COUNTER)
    with transaction.atomic():
        return give(character.pk, by, resource, amount)
