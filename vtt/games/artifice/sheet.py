"""Artifice sheets: attributes rated 1 to 6, twelve abilities (three per
attribute, named by the campaign) of 1D to 6D by kind, a list of skills."""

from vtt.core import shapes

KINDS = ("standard", "class", "racial", "character")
# Abilities start at 1D and rise to 3D; class, racial and character
# abilities rise to 6D, and nothing goes above 6D.
MAX_DICE = {"standard": 3, "class": 6, "racial": 6, "character": 6}
# A racial ability starts at +1D, so it is never below 2D.
MIN_DICE = {"standard": 1, "class": 1, "racial": 2, "character": 1}
KIND_LIMIT = {"class": 2, "racial": 1, "character": 1}
CHARACTER_ABILITY_LEVEL = 4
# Difficulty names; Monstrous is also the least an unskilled attempt faces.
DIFFICULTIES = {
    "Automatic": 0,
    "Easy": 1,
    "Moderate": 2,
    "Hard": 3,
    "Difficult": 4,
    "Monstrous": 5,
}
MONSTROUS = DIFFICULTIES["Monstrous"]

CONDITION_TRACK = [
    "Healthy",
    "Hurt",
    "Injured",
    "Wounded",
    "Critical",
    "Incapacitated",
    "Dead",
]
# Three abilities per attribute; the names are the campaign's to change.
ABILITIES = {
    "Strength": ["Might", "Toughness", "Endurance"],
    "Dexterity": ["Finesse", "Agility", "Stealth"],
    "Intelligence": ["Arcanum", "Lore", "Perception"],
    "Will Power": ["Resolve", "Presence", "Faith"],
}


def ability_names(settings: dict) -> list[str]:
    """Every ability name of a campaign, in attribute order."""
    abilities = settings.get("abilities", ABILITIES)
    return [name for attribute in ABILITIES for name in abilities[attribute]]


def ability_attribute(settings: dict, ability: str) -> str | None:
    abilities = settings.get("abilities", ABILITIES)
    for attribute, names in abilities.items():
        if ability in names:
            return attribute
    return None


def clean_condition_track(value, path):
    return shapes.distinct_names(value, path, 3, 12)


def clean_abilities(value, path):
    shapes.obj(value, path, allowed=ABILITIES)
    clean, seen = {}, set()
    for attribute in ABILITIES:
        if attribute not in value:
            raise shapes.invalid(f"{path}.{attribute}", "is required")
        names = shapes.distinct_names(value[attribute], f"{path}.{attribute}", 3, 3, 40)
        for name in names:
            if name.casefold() in seen:
                raise shapes.invalid(f"{path}.{attribute}", f"{name} is used twice")
            seen.add(name.casefold())
        clean[attribute] = names
    return clean


def _ability(value, path):
    shapes.obj(value, path, allowed=("dice", "kind", "pips"))
    kind = shapes.choice(value.get("kind", "standard"), f"{path}.kind", KINDS)
    if "dice" not in value:
        raise shapes.invalid(f"{path}.dice", "is required")
    lo, hi = MIN_DICE[kind], MAX_DICE[kind]
    dice = value["dice"]
    if type(dice) is int and not lo <= dice <= hi:
        raise shapes.invalid(f"{path}.dice", f"a {kind} ability is {lo}D to {hi}D, not {dice}D")
    dice = shapes.whole(dice, f"{path}.dice", lo, hi)
    pips = shapes.whole(value.get("pips", 0), f"{path}.pips", -3, 3)
    return {"dice": dice, "kind": kind, "pips": pips}


def clean_sheet(sheet, settings):
    shapes.obj(
        sheet, "sheet", allowed=("race", "class", "level", "attributes", "abilities", "skills")
    )
    level = shapes.whole(sheet.get("level", 1), "sheet.level", 1, 20)
    attributes_in = shapes.obj(sheet.get("attributes", {}), "sheet.attributes", allowed=ABILITIES)
    attributes = {
        name: shapes.whole(attributes_in.get(name, 1), f"sheet.attributes.{name}", 1, 6)
        for name in ABILITIES
    }
    names = ability_names(settings)
    abilities_in = shapes.obj(sheet.get("abilities", {}), "sheet.abilities", allowed=names)
    abilities = {}
    for name in names:
        given = abilities_in.get(name, {"dice": 1})
        abilities[name] = _ability(given, f"sheet.abilities.{name}")
    for kind, limit in KIND_LIMIT.items():
        chosen = [n for n, a in abilities.items() if a["kind"] == kind]
        if len(chosen) > limit:
            raise shapes.invalid(
                f"sheet.abilities.{chosen[limit]}.kind",
                f"at most {limit} {kind} abilit{'y' if limit == 1 else 'ies'}",
            )
        if kind == "character" and chosen and level < CHARACTER_ABILITY_LEVEL:
            raise shapes.invalid(
                f"sheet.abilities.{chosen[0]}.kind",
                f"a character ability comes at level {CHARACTER_ABILITY_LEVEL}",
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


def minimum_difficulty(sheet: dict, skill: str | None) -> int:
    """The least Difficulty an attempt faces: Monstrous when it needs a skill
    the character does not have, else none."""
    if skill is None:
        return 0
    known = {s.casefold() for s in sheet.get("skills", [])}
    return 0 if skill.casefold() in known else MONSTROUS


def carry_over(before: dict, after: dict, characters) -> list:
    """Rename abilities and conditions on the sheets, position for position;
    a track of another length keeps the names it still has and refuses to
    drop one a character is in."""
    renames = dict(zip(ability_names(before), ability_names(after), strict=True))
    old_track, new_track = before["condition_track"], after["condition_track"]
    same_length = len(old_track) == len(new_track)
    changed = []
    for character in characters:
        abilities = character.sheet.get("abilities")
        new_sheet = character.sheet
        if abilities is not None and any(old != new for old, new in renames.items()):
            new_abilities = {renames.get(name, name): value for name, value in abilities.items()}
            new_sheet = {**character.sheet, "abilities": new_abilities}
        condition = character.resources.get("condition")
        new_condition = condition
        if condition is not None:
            if same_length and condition in old_track:
                new_condition = new_track[old_track.index(condition)]
            elif condition not in new_track:
                raise shapes.invalid(
                    "settings.condition_track",
                    f"{character.name} is {condition}, which the new track leaves out",
                )
        if new_sheet is not character.sheet or new_condition != condition:
            character.sheet = new_sheet
            if condition is not None:
                character.resources = {**character.resources, "condition": new_condition}
            changed.append(character)
    return changed
