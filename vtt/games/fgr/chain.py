"""Fantasy Ground Rules: the attack is a skill roll against a Difficulty
(Moderate, 2, unless the GM sets another); a hit rolls the weapon's damage
dice as a numerical roll. A player character with Action Points then
chooses how many to spend, each taking 1 point off, before the damage is
applied to their Wounds; anyone else takes it at once."""

from vtt.games.combat import Resolution, find, mapped, wanted

DAMAGE = ("wounds", 1)
PROTECTED = ()
DIFFICULTY = 2  # Moderate: "trained people"

ATTACK_SKILLS = {
    "melee": ("Melee", "Melee Combat", "Fighting", "Swords", "Brawl", "Brawling"),
    "missile": ("Ranged", "Missile", "Archery", "Shooting", "Throwing", "Marksmanship"),
    "spell": ("Spellcasting", "Magic", "Sorcery", "Arcana"),
}
INITIATIVE = ("Initiative", "Awareness", "Perception", "Alertness", "Reflexes")


def level(sheet: dict, names) -> int:
    """A skill's level; a skill the character lacks is 0 (a Luck Roll)."""
    skills = sheet.get("skills", {})
    key = find(skills, names)
    return skills[key] if key else 0


def attack_request(ctx) -> dict:
    request = {"system": "fgr", "action": "roll", "difficulty": DIFFICULTY}
    if ctx.attacker.character is not None:
        kind = ctx.weapon.get("kind", "melee")
        names = wanted(
            ctx.options.get("attack_skill"),
            ATTACK_SKILLS[kind],
            mapped(ctx.attacker.sheet, f"{kind}_attack"),
        )
        request["skill"] = level(ctx.attacker.sheet, names)
        found = find(ctx.attacker.sheet.get("skills", {}), names)
        ctx.sources["attacker"] = [found or "no skill (a Luck Roll)"]
    return request


def chooses(target) -> bool:
    """Whether the target's player decides on Action Points before the damage lands."""
    character = target.character
    return (
        character is not None
        and character.kind == "pc"
        and character.owner_id is not None
        and character.resources.get("action_points", 0) > 0
    )


def resolve(ctx, result: dict, roll) -> Resolution:
    if result["outcome"] != "success":
        return Resolution("miss", "missed")
    dice = ctx.weapon.get("damage", 0)
    damage = (
        roll("damage", {"system": "fgr", "action": "numeric", "dice": dice})["total"] if dice else 0
    )
    if damage > 0 and chooses(ctx.target):
        return Resolution("hit", "awaiting_defender", damage)
    changes = []
    if damage > 0:
        changes.append((ctx.target, "wounds", ctx.target.resources.get("wounds", 0) + damage))
    return Resolution("hit", "applied", damage, changes)


def initiative_request(sheet: dict, settings: dict) -> dict:
    """A numerical roll of the Initiative (or Awareness...) skill's dice, at least 1D."""
    names = [*mapped(sheet, "initiative"), *INITIATIVE]
    return {"system": "fgr", "action": "numeric", "dice": max(1, level(sheet, names))}


def initiative_value(result: dict) -> int:
    return result["total"]
