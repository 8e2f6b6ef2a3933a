"""Artifice: the Combat Test (Finesse vs Agility), the cascade into the Wound
Test (Might + Lethality vs Toughness) and the Condition steps, all in the
rules' one `attack` action, applied to the target's Condition at once.

A spell attacks with Arcanum for both tests (the seed gives spells no combat
pools of their own). A missile weapon fired at an Adjacent target gives the
defender advantage."""

from vtt.games.combat import Resolution

from .sheet import ABILITIES, CONDITION_TRACK

DAMAGE = None  # the chain applies itself: Condition steps, no damage to click


def ability_name(settings: dict, attribute: str, index: int) -> str:
    """The campaign's name for the index-th ability of `attribute` (names may
    be changed per campaign; the order is Might, Toughness, Endurance...)."""
    return settings.get("abilities", ABILITIES)[attribute][index]


def ability(side, settings: dict, attribute: str, index: int) -> tuple[int, int]:
    """(dice, pips) of that ability on the side's sheet."""
    entry = side.sheet.get("abilities", {}).get(ability_name(settings, attribute, index)) or {}
    return entry.get("dice", 1), entry.get("pips", 0)


def _attacker(ctx) -> dict:
    if ctx.attacker.character is None:
        return {"lethality": ctx.weapon.get("lethality", 0)}
    spell = ctx.weapon.get("kind") == "spell"
    settings = ctx.settings
    hit_from = ("Intelligence" if spell else "Dexterity", 0)
    harm_from = ("Intelligence" if spell else "Strength", 0)
    hit = ability(ctx.attacker, settings, *hit_from)
    harm = ability(ctx.attacker, settings, *harm_from)
    ctx.sources["attacker"] = [
        ability_name(settings, *hit_from),
        ability_name(settings, *harm_from),
    ]
    return {
        "finesse": hit[0],
        "might": harm[0],
        "lethality": ctx.weapon.get("lethality", 0),
        "modifier": hit[1],
        "wound_modifier": harm[1],
    }


def attack_request(ctx) -> dict:
    agility = ability(ctx.target, ctx.settings, "Dexterity", 1)
    toughness = ability(ctx.target, ctx.settings, "Strength", 1)
    ctx.sources["defender"] = [
        ability_name(ctx.settings, "Dexterity", 1),
        ability_name(ctx.settings, "Strength", 1),
    ]
    track = ctx.settings.get("condition_track", CONDITION_TRACK)
    missile_adjacent = ctx.weapon.get("kind") == "missile" and ctx.measure["category"] == "adjacent"
    return {
        "system": "artifice",
        "action": "attack",
        "attacker": _attacker(ctx),
        "defender": {
            "agility": agility[0],
            "toughness": toughness[0],
            "condition": ctx.target.resources.get("condition", track[0]),
            "modifier": agility[1],
            "wound_modifier": toughness[1],
        },
        "advantage": "defender" if missile_adjacent else None,
        "range": ctx.measure["category"],
        "condition_track": list(track),
    }


# The server's own facts, which an override may not change.
PROTECTED = ("range", "condition_track", "defender.condition")


def resolve(ctx, result: dict, roll) -> Resolution:
    if result["outcome"] == "miss":
        return Resolution("miss", "missed")
    changes = []
    if result["condition_after"] != result["condition_before"]:
        changes.append((ctx.target, "condition", result["condition_after"]))
    return Resolution(result["outcome"], "applied", None, changes)


def initiative_request(sheet: dict, settings: dict) -> dict:
    """An Agility Check against nothing: the successes order the fight."""
    names = settings.get("abilities", ABILITIES)["Dexterity"]
    entry = sheet.get("abilities", {}).get(names[1]) or {}
    return {
        "system": "artifice",
        "action": "check",
        "pool": entry.get("dice", 1),
        "modifier": entry.get("pips", 0),
        "difficulty": 0,
    }


def initiative_value(result: dict) -> int:
    return result["successes"]
