"""Rd6: an opposed roll of the attack skill against the defender's dodge or
parry; the result points become extra damage dice (one for one, or one per
three as the campaign chooses); the damage die code is rolled with them.
The seed does not say how damage becomes wounds, so the total waits for
the GM's click, which adds it to the target's wounds.

Skills are found on the sheet by name, falling back to the attribute an
untrained character would roll; a draw does not hit."""

from vtt.core.errors import ServiceError
from vtt.games.combat import Resolution, find, mapped, wanted

from .codes import parse_die_code

DAMAGE = ("wounds", 1)
PROTECTED = ()
MAX_DICE = 30  # the rules' bound on one roll

ATTACK_SKILLS = {
    "melee": ("Melee Combat", "Melee Weapons", "Melee", "Brawling", "Fighting"),
    "missile": ("Missile Weapons", "Marksmanship", "Firearms", "Archery", "Throwing", "Shooting"),
    "spell": ("Magic", "Spellcasting", "Sorcery", "Alteration", "Conjuration"),
}
ATTACK_ATTRIBUTES = {
    "melee": ("Agility", "Dexterity", "Reflexes", "Physique", "Strength"),
    "missile": ("Agility", "Dexterity", "Coordination", "Reflexes"),
    "spell": ("Extranormal", "Magic", "Knowledge", "Mind", "Perception"),
}
PARRY = ("Melee Parry", "Parry", "Brawling Parry", "Dodge")
DODGE = ("Dodge",)
DEFENSE_SKILLS = {"melee": PARRY, "missile": DODGE, "spell": DODGE}
# The combat role each kind of blow is defended with (a sheet may map it).
DEFENSE_ROLES = {"melee": "parry", "missile": "dodge", "spell": "dodge"}
DEFENSE_ATTRIBUTES = ("Agility", "Dexterity", "Reflexes")
INITIATIVE = ("Initiative", "Perception", "Reflexes", "Agility", "Dexterity")


class NoPool(Exception):
    def __init__(self, tried):
        super().__init__(", ".join(tried))
        self.tried = tried


def die_code(sheet: dict, names) -> tuple[int, int, str]:
    """(dice, pips, name) of the first of `names` among the sheet's skills,
    then its attributes."""
    skills, attributes = sheet.get("skills", {}), sheet.get("attributes", {})
    key = find(skills, names)
    if key:
        return (*parse_die_code(skills[key]["code"]), key)
    key = find(attributes, names)
    if key:
        return (*parse_die_code(attributes[key]), key)
    raise NoPool(list(names))


def _roll_fields(settings: dict) -> dict:
    return {
        "complication": settings.get("complication", "cancel_highest"),
        "catastrophic_failure": settings.get("catastrophic_failure", False),
    }


def _side(ctx, role: str, side, names, field: str) -> dict:
    try:
        dice, pips, name = die_code(side.sheet, names)
    except NoPool as missing:
        raise ServiceError(
            "no_pool",
            f"{side.name}'s sheet has none of {', '.join(missing.tried)}: name the skill "
            f"or attribute to roll with {field}, or set the pool with overrides",
            field,
        ) from None
    ctx.sources[role] = [name]
    return {"dice": dice, "pips": pips, **_roll_fields(ctx.settings)}


def attack_request(ctx) -> dict:
    kind = ctx.weapon.get("kind", "melee")
    request = {
        "system": "rd6",
        "action": "opposed",
        "opponent": _side(
            ctx,
            "defender",
            ctx.target,
            wanted(
                ctx.options.get("defense_skill"),
                DEFENSE_SKILLS[kind] + DEFENSE_ATTRIBUTES,
                mapped(ctx.target.sheet, DEFENSE_ROLES[kind]),
            ),
            "defense_skill",
        ),
        "result_dice": ctx.settings.get("result_points_to_damage", "one_for_one"),
    }
    if ctx.attacker.character is not None:
        names = wanted(
            ctx.options.get("attack_skill"),
            ATTACK_SKILLS[kind] + ATTACK_ATTRIBUTES[kind],
            mapped(ctx.attacker.sheet, f"{kind}_attack"),
        )
        request["actor"] = _side(ctx, "attacker", ctx.attacker, names, "attack_skill")
    return request


def damage_request(ctx, result: dict) -> dict | None:
    dice, pips = parse_die_code(ctx.weapon.get("damage", "0D")) or (0, 0)
    dice += result.get("damage_dice", 0)
    pips += result.get("damage_pips", 0)
    if dice <= 0:
        return None
    return {
        "system": "rd6",
        "action": "roll",
        "dice": min(dice, MAX_DICE),
        "pips": pips,
        "difficulty": 0,
        **_roll_fields(ctx.settings),
    }


def resolve(ctx, result: dict, roll) -> Resolution:
    if result["outcome"] != "actor":
        return Resolution("miss", "missed")
    request = damage_request(ctx, result)
    if request is None:
        damage = max(0, parse_die_code(ctx.weapon.get("damage", "0D"))[1])
    else:
        damage = max(0, roll("damage", request)["total"])
    return Resolution("hit", "awaiting_damage", damage)


def initiative_request(sheet: dict, settings: dict) -> dict:
    """A Perception roll (or an Initiative skill): the total orders the fight."""
    try:
        dice, pips, _ = die_code(sheet, [*mapped(sheet, "initiative"), *INITIATIVE])
    except NoPool:
        dice, pips = 1, 0
    return {
        "system": "rd6",
        "action": "roll",
        "dice": dice,
        "pips": pips,
        "difficulty": 0,
        **_roll_fields(settings),
    }


def initiative_value(result: dict) -> int:
    return result["total"]
