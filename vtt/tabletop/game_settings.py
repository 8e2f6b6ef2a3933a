"""Per-game campaign settings: the table's choices where the rules leave
room (RULES.md "make it a campaign setting when GMs would reasonably differ").

`clean_settings(game, data)` returns the complete settings, defaults filled
in, or raises ServiceError naming the field as `settings.<key>`."""

import copy

from . import shapes
from .models import Game

# Shared by every game: the battle map's diagonal rule (RULES.md, range).
DIAGONALS = ("uniform", "alternating")

ARTIFICE_CONDITION_TRACK = [
    "Healthy",
    "Hurt",
    "Injured",
    "Wounded",
    "Critical",
    "Incapacitated",
    "Dead",
]
# Three abilities per attribute; the names are the campaign's to change.
ARTIFICE_ABILITIES = {
    "Strength": ["Might", "Toughness", "Endurance"],
    "Dexterity": ["Finesse", "Agility", "Stealth"],
    "Intelligence": ["Arcanum", "Lore", "Perception"],
    "Will Power": ["Resolve", "Presence", "Faith"],
}
RD6_COMPLICATIONS = ("cancel_highest", "narrate")
RD6_RESULT_DAMAGE = ("one_for_one", "every_three")

DEFAULTS = {
    Game.ARTIFICE: {
        "diagonal": "uniform",
        "condition_track": ARTIFICE_CONDITION_TRACK,
        "abilities": ARTIFICE_ABILITIES,
    },
    Game.FGR: {"diagonal": "uniform", "starting_action_points": 5},
    Game.XEROSUM: {"diagonal": "uniform", "starting_insight_dice": 2},
    Game.RD6: {
        "diagonal": "uniform",
        "complication": "cancel_highest",
        "character_point_cap": 2,
        "catastrophic_failure": False,
        "result_points_to_damage": "one_for_one",
        "starting_character_points": 5,
        "starting_fate_points": 1,
    },
    Game.APOCALYPTIA: {"diagonal": "uniform"},
}


def defaults(game: str) -> dict:
    return copy.deepcopy(DEFAULTS[game])


def _condition_track(value, path):
    return shapes.distinct_names(value, path, 3, 12)


def _abilities(value, path):
    shapes.obj(value, path, allowed=ARTIFICE_ABILITIES)
    clean, seen = {}, set()
    for attribute in ARTIFICE_ABILITIES:
        if attribute not in value:
            raise shapes.invalid(f"{path}.{attribute}", "is required")
        names = shapes.distinct_names(value[attribute], f"{path}.{attribute}", 3, 3, 40)
        for name in names:
            if name.casefold() in seen:
                raise shapes.invalid(f"{path}.{attribute}", f"{name} is used twice")
            seen.add(name.casefold())
        clean[attribute] = names
    return clean


_CHECKS = {
    "diagonal": lambda v, p: shapes.choice(v, p, DIAGONALS),
    "condition_track": _condition_track,
    "abilities": _abilities,
    "starting_action_points": lambda v, p: shapes.whole(v, p, 0, 99),
    "starting_insight_dice": lambda v, p: shapes.whole(v, p, 0, 99),
    "complication": lambda v, p: shapes.choice(v, p, RD6_COMPLICATIONS),
    "character_point_cap": lambda v, p: shapes.whole(v, p, 0, 10),
    "catastrophic_failure": shapes.boolean,
    "result_points_to_damage": lambda v, p: shapes.choice(v, p, RD6_RESULT_DAMAGE),
    "starting_character_points": lambda v, p: shapes.whole(v, p, 0, 99),
    "starting_fate_points": lambda v, p: shapes.whole(v, p, 0, 99),
}


def clean_settings(game: str, data, base: dict | None = None) -> dict:
    """`data` over `base` (the current settings, or the game's defaults)."""
    if game not in DEFAULTS:
        raise shapes.invalid("game", f"must be one of {', '.join(DEFAULTS)}")
    if data is None:
        data = {}
    shapes.obj(data, "settings", allowed=DEFAULTS[game])
    clean = copy.deepcopy(base) if base is not None else defaults(game)
    for key, value in data.items():
        clean[key] = _CHECKS[key](value, f"settings.{key}")
    return clean


def ability_names(settings: dict) -> list[str]:
    """Every Artifice ability name of a campaign, in attribute order."""
    abilities = settings.get("abilities", ARTIFICE_ABILITIES)
    return [name for attribute in ARTIFICE_ABILITIES for name in abilities[attribute]]


def ability_attribute(settings: dict, ability: str) -> str | None:
    abilities = settings.get("abilities", ARTIFICE_ABILITIES)
    for attribute, names in abilities.items():
        if ability in names:
            return attribute
    return None
