"""Character sheets, weapons and resources of each game: what a valid sheet
holds, with the game's limits, and the normalised form that is stored (every
default filled in, so a reader never guesses).

Each clean_* function returns the clean value or raises ServiceError naming
the field (`sheet.abilities.Might.dice`, `weapons[0].range_ft`...). The shapes
are described for people in docs/data-model.md."""

import re

from . import game_settings, shapes
from .models import Game

# ---------------------------------------------------------------- Artifice

ARTIFICE_KINDS = ("standard", "class", "racial", "character")
# Abilities start at 1D and rise to 3D; class, racial and character
# abilities rise to 6D, and nothing goes above 6D.
ARTIFICE_MAX_DICE = {"standard": 3, "class": 6, "racial": 6, "character": 6}
# A racial ability starts at +1D, so it is never below 2D.
ARTIFICE_MIN_DICE = {"standard": 1, "class": 1, "racial": 2, "character": 1}
ARTIFICE_KIND_LIMIT = {"class": 2, "racial": 1, "character": 1}
ARTIFICE_CHARACTER_ABILITY_LEVEL = 4
# Difficulty names; Monstrous is also the least an unskilled attempt faces.
ARTIFICE_DIFFICULTIES = {
    "Automatic": 0,
    "Easy": 1,
    "Moderate": 2,
    "Hard": 3,
    "Difficult": 4,
    "Monstrous": 5,
}
MONSTROUS = ARTIFICE_DIFFICULTIES["Monstrous"]


def _artifice_ability(value, path):
    shapes.obj(value, path, allowed=("dice", "kind", "pips"))
    kind = shapes.choice(value.get("kind", "standard"), f"{path}.kind", ARTIFICE_KINDS)
    if "dice" not in value:
        raise shapes.invalid(f"{path}.dice", "is required")
    lo, hi = ARTIFICE_MIN_DICE[kind], ARTIFICE_MAX_DICE[kind]
    dice = value["dice"]
    if type(dice) is int and not lo <= dice <= hi:
        raise shapes.invalid(f"{path}.dice", f"a {kind} ability is {lo}D to {hi}D, not {dice}D")
    dice = shapes.whole(dice, f"{path}.dice", lo, hi)
    pips = shapes.whole(value.get("pips", 0), f"{path}.pips", -3, 3)
    return {"dice": dice, "kind": kind, "pips": pips}


def _artifice_sheet(sheet, settings):
    shapes.obj(
        sheet, "sheet", allowed=("race", "class", "level", "attributes", "abilities", "skills")
    )
    level = shapes.whole(sheet.get("level", 1), "sheet.level", 1, 20)
    attributes_in = shapes.obj(
        sheet.get("attributes", {}),
        "sheet.attributes",
        allowed=game_settings.ARTIFICE_ABILITIES,
    )
    attributes = {
        name: shapes.whole(attributes_in.get(name, 1), f"sheet.attributes.{name}", 1, 6)
        for name in game_settings.ARTIFICE_ABILITIES
    }
    names = game_settings.ability_names(settings)
    abilities_in = shapes.obj(sheet.get("abilities", {}), "sheet.abilities", allowed=names)
    abilities = {}
    for name in names:
        given = abilities_in.get(name, {"dice": 1})
        abilities[name] = _artifice_ability(given, f"sheet.abilities.{name}")
    for kind, limit in ARTIFICE_KIND_LIMIT.items():
        chosen = [n for n, a in abilities.items() if a["kind"] == kind]
        if len(chosen) > limit:
            raise shapes.invalid(
                f"sheet.abilities.{chosen[limit]}.kind",
                f"at most {limit} {kind} abilit{'y' if limit == 1 else 'ies'}",
            )
        if kind == "character" and chosen and level < ARTIFICE_CHARACTER_ABILITY_LEVEL:
            raise shapes.invalid(
                f"sheet.abilities.{chosen[0]}.kind",
                f"a character ability comes at level {ARTIFICE_CHARACTER_ABILITY_LEVEL}",
            )
    skills = shapes.distinct_names(sheet.get("skills", []), "sheet.skills", 0, 50, 60)
    return {
        "race": shapes.text(sheet.get("race", ""), "sheet.race", 60, blank=True),
        "class": shapes.text(sheet.get("class", ""), "sheet.class", 60, blank=True),
        "level": level,
        "attributes": attributes,
        "abilities": abilities,
        "skills": skills,
    }


def artifice_minimum_difficulty(sheet: dict, skill: str | None) -> int:
    """The least Difficulty an attempt faces: Monstrous when it needs a skill
    the character does not have, else none."""
    if skill is None:
        return 0
    known = {s.casefold() for s in sheet.get("skills", [])}
    return 0 if skill.casefold() in known else MONSTROUS


# ---------------------------------------------------------------- FGR


def _fgr_sheet(sheet, settings):
    shapes.obj(sheet, "sheet", allowed=("skills",))
    skills = shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60)
    return {
        "skills": {
            name: shapes.whole(level, f"sheet.skills.{name}", 0, 20)
            for name, level in skills.items()
        }
    }


# ---------------------------------------------------------------- Xero Sum

XEROSUM_ATTRIBUTES = ("Reason", "Acumen", "Physicality", "Influence", "Dexterity")
XEROSUM_AMOD = (-2, 4)
XEROSUM_SMOD = (-3, 4)


def _xerosum_sheet(sheet, settings):
    shapes.obj(sheet, "sheet", allowed=("attributes", "skills"))
    attributes_in = shapes.obj(
        sheet.get("attributes", {}), "sheet.attributes", allowed=XEROSUM_ATTRIBUTES
    )
    attributes = {
        name: shapes.whole(attributes_in.get(name, 0), f"sheet.attributes.{name}", *XEROSUM_AMOD)
        for name in XEROSUM_ATTRIBUTES
    }
    skills = {}
    for name, skill in shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60).items():
        path = f"sheet.skills.{name}"
        shapes.obj(skill, path, allowed=("attribute", "smod"))
        skills[name] = {
            "attribute": shapes.choice(
                skill.get("attribute"), f"{path}.attribute", XEROSUM_ATTRIBUTES
            ),
            "smod": shapes.whole(skill.get("smod", 0), f"{path}.smod", *XEROSUM_SMOD),
        }
    return {"attributes": attributes, "skills": skills}


# ---------------------------------------------------------------- Rd6

DIE_CODE = re.compile(r"^\s*(\d{1,2})\s*[dD]\s*(?:\+\s*([0-2]))?\s*$")


def parse_die_code(code) -> tuple[int, int] | None:
    """'3D+1' -> (3, 1); None when it is not a die code. Three pips make a
    die, so a code carries 0 to 2 pips."""
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


def _rd6_sheet(sheet, settings):
    shapes.obj(sheet, "sheet", allowed=("attributes", "skills"))
    attributes = {
        name: clean_die_code(code, f"sheet.attributes.{name}", 1, 12)
        for name, code in shapes.named_map(
            sheet.get("attributes", {}), "sheet.attributes", 12
        ).items()
    }
    skills = {}
    for name, skill in shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60).items():
        path = f"sheet.skills.{name}"
        shapes.obj(skill, path, allowed=("attribute", "code"))
        if skill.get("attribute") not in attributes:
            raise shapes.invalid(f"{path}.attribute", "must name one of the sheet's attributes")
        # A skill is written as its whole code, attribute included, as on a D6 sheet.
        skills[name] = {
            "attribute": skill["attribute"],
            "code": clean_die_code(skill.get("code"), f"{path}.code", 1, 30),
        }
    return {"attributes": attributes, "skills": skills}


# ---------------------------------------------------------------- Apocalyptia

APOCALYPTIA_TRAITS = ("Agility", "Brains", "Constitution", "Demeanor")


def _apocalyptia_sheet(sheet, settings):
    shapes.obj(sheet, "sheet", allowed=("traits", "skills"))
    traits_in = shapes.obj(sheet.get("traits", {}), "sheet.traits", allowed=APOCALYPTIA_TRAITS)
    traits = {
        name: shapes.whole(traits_in.get(name, 1), f"sheet.traits.{name}", 1, 6)
        for name in APOCALYPTIA_TRAITS
    }
    skills = {}
    for name, skill in shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60).items():
        path = f"sheet.skills.{name}"
        shapes.obj(skill, path, allowed=("trait", "level"))
        trait = shapes.choice(skill.get("trait"), f"{path}.trait", APOCALYPTIA_TRAITS)
        level = shapes.whole(skill.get("level", 0), f"{path}.level", 0, 6)
        # A skill never rises above the trait it belongs to.
        if level > traits[trait]:
            raise shapes.invalid(f"{path}.level", f"cannot exceed {trait} ({traits[trait]})")
        skills[name] = {"trait": trait, "level": level}
    return {"traits": traits, "skills": skills}


_SHEETS = {
    Game.ARTIFICE: _artifice_sheet,
    Game.FGR: _fgr_sheet,
    Game.XEROSUM: _xerosum_sheet,
    Game.RD6: _rd6_sheet,
    Game.APOCALYPTIA: _apocalyptia_sheet,
}


def clean_sheet(game: str, sheet, settings: dict) -> dict:
    if sheet is None:
        sheet = {}
    return _SHEETS[game](sheet, settings)


# ---------------------------------------------------------------- weapons

WEAPON_KINDS = ("melee", "missile", "spell")
LINE_OF_SIGHT = "line_of_sight"
MAX_WEAPONS = 20
MAX_RANGE_FT = 5000


def _damage(game, weapon, path):
    """Artifice weapons carry Lethality (dice added to Might in the Wound
    Test); Rd6 a damage die code; the others a number."""
    if game == Game.ARTIFICE:
        return {"lethality": shapes.whole(weapon.get("lethality", 0), f"{path}.lethality", 0, 6)}
    if game == Game.RD6:
        return {"damage": clean_die_code(weapon.get("damage", "0D"), f"{path}.damage", 0, 30)}
    return {"damage": shapes.whole(weapon.get("damage", 0), f"{path}.damage", 0, 50)}


def _range_ft(value, kind, path):
    if value is None:
        return None  # no listed range: the rules' default bands
    if value == LINE_OF_SIGHT:
        if kind != "spell":
            raise shapes.invalid(path, "only a spell reaches by line of sight")
        return value
    return shapes.whole(value, path, 5, MAX_RANGE_FT)


def clean_weapons(game: str, weapons) -> list:
    if weapons is None:
        weapons = []
    shapes.items(weapons, "weapons", MAX_WEAPONS)
    damage_key = "lethality" if game == Game.ARTIFICE else "damage"
    clean = []
    for i, weapon in enumerate(weapons):
        path = f"weapons[{i}]"
        shapes.obj(weapon, path, allowed=("name", "kind", "range_ft", damage_key))
        kind = shapes.choice(weapon.get("kind", "melee"), f"{path}.kind", WEAPON_KINDS)
        clean.append(
            {
                "name": shapes.text(weapon.get("name"), f"{path}.name", 60),
                "kind": kind,
                "range_ft": _range_ft(weapon.get("range_ft"), kind, f"{path}.range_ft"),
                **_damage(game, weapon, path),
            }
        )
    return clean


# ---------------------------------------------------------------- resources

MAX_COUNTER = 9999
# Counters a character spends or earns; Artifice's condition is a name.
COUNTERS = {
    Game.ARTIFICE: ("experience",),
    Game.FGR: ("action_points", "experience", "wounds", "fatigue", "fear"),
    Game.XEROSUM: ("insight_dice", "wound_points", "resilience_points", "experience"),
    Game.RD6: ("character_points", "fate_points", "experience", "wounds"),
    Game.APOCALYPTIA: ("experience", "wounds"),
}


def resource_defaults(game: str, settings: dict) -> dict:
    values = dict.fromkeys(COUNTERS[game], 0)
    if game == Game.ARTIFICE:
        values["condition"] = settings["condition_track"][0]
    elif game == Game.FGR:
        values["action_points"] = settings["starting_action_points"]
    elif game == Game.XEROSUM:
        values["insight_dice"] = settings["starting_insight_dice"]
    elif game == Game.RD6:
        values["character_points"] = settings["starting_character_points"]
        values["fate_points"] = settings["starting_fate_points"]
    return values


def clean_resources(game: str, data, settings: dict, base: dict | None = None) -> dict:
    """`data` over `base` (the stored resources, or the game's starting ones)."""
    clean = dict(base) if base is not None else resource_defaults(game, settings)
    if data is None:
        return clean
    allowed = resource_defaults(game, settings)
    shapes.obj(data, "resources", allowed=allowed)
    for key, value in data.items():
        path = f"resources.{key}"
        if key == "condition":
            clean[key] = shapes.choice(value, path, settings["condition_track"])
        else:
            clean[key] = shapes.whole(value, path, 0, MAX_COUNTER)
    return clean
