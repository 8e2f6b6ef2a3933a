"""Reactions: steps a game lets a player take for their own character
outside a roll, declared by the game's kit (`GameKit.reactions`) and carried
out by one service (vtt.combat.services.reactions), one REST endpoint and
one intent, whatever the game.

A reaction says what it is taken on (`on`): ATTACK, by the defender of an
attack that waits for them (status awaiting_defender), or CHARACTER, for a
character of the player's own (a way back from dying). Who may take it is
the same for every reaction: the character's owner or a GM, never an
observer. It says its inputs with their bounds, what it does through the
game's rules, and the words and controls the browser draws
(`declaration()`, served in `GameKit.browser()`)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from vtt.core import shapes
from vtt.core.errors import ServiceError

from .kit import MAX_COUNTER

# What a reaction is taken on.
ATTACK = "attack"
CHARACTER = "character"
# The step an attack keeps for a reaction that took damage off (the log's
# "after N Action Points", and what undo takes back).
STEP = "reduce"


@dataclass(frozen=True)
class Amount:
    """A whole number the player gives, within bounds."""

    name: str
    most: int
    least: int = 0


@dataclass
class Taken:
    """What a reaction did: the resources it sets (name -> value after) and,
    on an attack, the damage that still lands and the step the attack keeps
    ({"request", "result"}, or None when the rules rolled it)."""

    resources: dict
    damage: int | None = None
    step: dict | None = None


@dataclass(frozen=True)
class Reaction:
    """One reaction: its `id` (the intent's and the endpoint's `reaction`),
    what it is taken on, its inputs (`amounts`) and `take`, which the
    service calls with the character's resources locked and returns Taken
    (or refuses with a ServiceError on a field)."""

    id: str
    on: str

    def amounts(self) -> tuple:
        """The inputs the player gives (Amount each)."""
        return ()

    def clean(self, values) -> dict:
        """The inputs, each within its bounds; anything else is refused by name."""
        if values is None:
            values = {}
        amounts = self.amounts()
        shapes.obj(values, "values", allowed=[amount.name for amount in amounts])
        return {
            amount.name: shapes.whole(
                values.get(amount.name), amount.name, amount.least, amount.most
            )
            for amount in amounts
        }

    def declaration(self) -> dict:
        return {"id": self.id, "on": self.on}


@dataclass(frozen=True)
class SpendAgainstHit(Reaction):
    """The defender spends a resource against a hit before it lands, each
    point taking one off (Fantasy Ground Rules' Action Points). With a rules
    `action` the game's rules work out the rest of the damage from the
    request {"damage", <field>}; without one, each point takes 1 off. The
    rest lands on the counter `lands_on`."""

    on: str = ATTACK
    resource: str = ""
    lands_on: str = ""
    action: str | None = None
    most: int = 50
    # The browser's words: the resource's name, the step in the log, the
    # attack's status while it waits, and the offer under it.
    label: str = ""
    one: str = ""  # one of the resource, as the log says it ("Action Point")
    step: str = ""
    waiting: str = ""
    offer: str = ""

    def amounts(self):
        return (Amount(self.resource, self.most),)

    def take(self, *, system: str, name: str, resources: dict, damage: int, values: dict, roll):
        """`roll(request)` runs the game's rules and keeps the step."""
        spend = values[self.resource]
        have = resources.get(self.resource, 0)
        if spend > have:
            raise ServiceError(
                f"insufficient_{self.resource}",
                f"{name} has {have} {self.label.lower()}, not {spend}",
                self.resource,
            )
        if spend > (damage or 0):
            raise shapes.invalid(self.resource, f"the damage is only {damage}")
        request = {"damage": damage, self.resource: spend}
        step = None
        if self.action is not None:
            rest = roll({"system": system, "action": self.action, **request})["damage"]
        else:
            rest = max(0, damage - spend)
            step = {"request": request, "result": {"damage": rest}}
        landed = min(MAX_COUNTER, resources.get(self.lands_on, 0) + rest)
        return Taken({self.resource: have - spend, self.lands_on: landed}, rest, step)

    def declaration(self):
        return super().declaration() | {
            "kind": "resource",
            "resource": self.resource,
            "field": self.resource,
            "label": self.label,
            "step": self.step,
            "waiting": self.waiting,
            "offer": self.offer,
        }


@dataclass(frozen=True)
class Rescue(Reaction):
    """A character out of the fight gives up a resource to come back
    (Xero Sum's every Insight Die): `rescue(resources, settings)` is the
    game's rule and returns the resources after, or refuses."""

    on: str = CHARACTER
    rescue: Callable = field(default=None, compare=False)
    resource: str = ""
    # The turn order's button: its words ({value}: what the character has).
    label: str = ""
    title: str = ""
    empty: str = ""

    def take(self, *, resources: dict, settings: dict, values: dict):
        return Taken(self.rescue(resources, settings))

    def declaration(self):
        return super().declaration() | {
            "kind": "rescue",
            "when": "out",
            "resource": self.resource,
            "label": self.label,
            "title": self.title,
            "empty": self.empty,
        }
