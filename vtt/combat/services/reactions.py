"""Carrying out a reaction a game's kit declares (vtt.games.reactions), for
every game: the REST endpoint, the room's `reaction` intent and the old
per-game URLs all come here.

Who may take a reaction is decided here, once: the owner of the character
it is for (an attack's target, or the character named) or a GM; never an
observer, even one who still owns the character. A reaction on an attack
lands the damage the attack waited for, as the GM's damage does (one
`combat.damage` event, which undo takes back); one on a character changes
its resources with one `character.updated` event, as any other change of
resources does (so undo puts it back)."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.games import reactions
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.models import Character
from vtt.tabletop.services.characters import character_event, character_for
from vtt.tabletop.services.errors import NotAllowed, ServiceError

from ..models import Attack
from . import attacks
from .apply import apply_changes
from .dice import Steps


def declared(game: str, reaction_id, on: str) -> reactions.Reaction:
    """The game's reaction of that id taken on `on` (an attack or a
    character), or a field error on `reaction`. With no id, the game's
    first reaction on `on` (the older per-game URLs name none)."""
    kit = games.kit(game)
    if reaction_id is None:
        found = kit.reaction_on(on)
        if found is None:
            raise ServiceError("no_reaction", f"this game has no reaction on {an(on)}", on)
        return found
    if not isinstance(reaction_id, str):
        raise shapes.invalid("reaction", "must be the id of one of the game's reactions")
    found = kit.reaction(reaction_id)
    if found is None:
        raise ServiceError(
            "no_reaction", f"this game has no reaction {reaction_id[:40]!r}", "reaction"
        )
    if found.on != on:
        raise shapes.invalid(on, f"this reaction is taken on {an(found.on)}")
    return found


def an(on: str) -> str:
    return f"an {on}" if on[0] in "aeiou" else f"a {on}"


def _may_take(member, owner_id, by) -> None:
    if not policy.takes_part(member):
        # A player demoted to observer still owns the character: not enough.
        raise NotAllowed("an observer may not take a character's reactions", "reaction")
    if not policy.runs_table(member) and owner_id != getattr(by, "pk", None):
        raise NotAllowed("only the character's owner or a GM may take this reaction", "reaction")


def react(*, reaction: str, by, attack_id=None, character_id=None, values=None):
    """Take the reaction `reaction` (an id the game declares, or None for
    its first on the subject) on an attack (`attack_id`) or a character
    (`character_id`), with the player's `values`. Returns the attack or the
    character, as changed."""
    if attack_id is not None:
        attack, member = attacks.attack_for(attack_id, by)
        taken = declared(attack.system, reaction, reactions.ATTACK)
        _may_take(member, attack.target.owner_id if attack.target else None, by)
        return _on_attack(attack, taken, taken.clean(values), by)
    if character_id is None:
        raise shapes.invalid("character", "name the attack or the character it is for")
    if type(character_id) is not int:
        raise shapes.invalid("character", "must be a character id")
    character, member = character_for(character_id, by)
    taken = declared(character.campaign.game, reaction, reactions.CHARACTER)
    _may_take(member, character.owner_id, by)
    return _on_character(character, taken, taken.clean(values), by)


def _on_attack(attack: Attack, reaction, values: dict, by) -> Attack:
    with transaction.atomic():
        attack = attacks.locked_attack(attack, Attack.Status.AWAITING_DEFENDER)
        target = attacks.target_now(attack)
        steps = Steps()
        done = reaction.take(
            system=attack.system,
            name=attack.target_name,
            resources=target.resources,
            damage=attack.damage,
            values=values,
            roll=lambda request: steps.roll(reactions.STEP, request),
        )
        if done.step is not None:
            steps.steps.append({"step": reactions.STEP, **done.step})
        name = attack.target_name
        changes, touched = apply_changes(
            (target, key, after, name) for key, after in done.resources.items()
        )
        attack.steps = attack.steps + steps.steps
        attacks.settle(attack, by, changes, touched, Attack.Status.AWAITING_DEFENDER, attack.damage)
    return attack


def _on_character(character: Character, reaction, values: dict, by) -> Character:
    with transaction.atomic():
        locked = (
            Character.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .get(pk=character.pk)
        )
        done = reaction.take(
            resources=locked.resources, settings=locked.campaign.settings, values=values
        )
        locked.resources = done.resources
        locked.save(update_fields=["resources", "updated_at"])
        character_event(locked, event_kinds.CHARACTER_UPDATED, by)
    return locked
