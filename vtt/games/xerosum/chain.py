"""Xero Sum: the attack is a check (2d6 + AMod + SMod + CMod); a success or
a wild success hits, and the GM sets the damage, which comes off the
target's Wound Points. A Moment of Insight gives the attacker an Insight Die
at once.

The skill is found on the sheet by name; a character without it rolls the
usual attribute for the weapon with SMod 0."""

from vtt.games.combat import Resolution, find, mapped, wanted
from vtt.games.kit import MAX_COUNTER

DAMAGE = ("wound_points", -1)
PROTECTED = ()

ATTACK_SKILLS = {
    "melee": ("Melee Combat", "Melee", "Blades", "Unarmed Combat", "Fighting"),
    "missile": ("Ranged Combat", "Firearms", "Archery", "Marksmanship", "Throwing"),
    "spell": ("Sorcery", "Magic", "Spellcasting"),
}
ATTRIBUTES = {"melee": "Physicality", "missile": "Dexterity", "spell": "Reason"}
INITIATIVE = ("Initiative",)
HITS = ("success", "wild_success")


def modifiers(sheet: dict, names, attribute: str) -> tuple[int, int]:
    """(AMod, SMod) for the first of `names` the sheet has, else the attribute alone."""
    skills, attributes = sheet.get("skills", {}), sheet.get("attributes", {})
    key = find(skills, names)
    if key:
        skill = skills[key]
        return attributes.get(skill["attribute"], 0), skill["smod"]
    return attributes.get(attribute, 0), 0


def attack_request(ctx) -> dict:
    kind = ctx.weapon.get("kind", "melee")
    request = {"system": "xerosum", "action": "check", "cmod": 0}
    if ctx.attacker.character is not None:
        names = wanted(
            ctx.options.get("attack_skill"),
            ATTACK_SKILLS[kind],
            mapped(ctx.attacker.sheet, f"{kind}_attack"),
        )
        request["amod"], request["smod"] = modifiers(ctx.attacker.sheet, names, ATTRIBUTES[kind])
        found = find(ctx.attacker.sheet.get("skills", {}), names)
        ctx.sources["attacker"] = [found or ATTRIBUTES[kind]]
    return request


def resolve(ctx, result: dict, roll) -> Resolution:
    changes = []
    if result.get("insight_gained") and ctx.attacker.character is not None:
        have = ctx.attacker.resources.get("insight_dice", 0)
        changes.append((ctx.attacker, "insight_dice", min(MAX_COUNTER, have + 1)))
    if result["outcome"] not in HITS:
        return Resolution("miss", "missed", None, changes)
    # The seed leaves damage to the GM: the weapon's rating is the suggestion.
    return Resolution("hit", "awaiting_damage", ctx.weapon.get("damage", 0), changes)


def initiative_request(sheet: dict, settings: dict) -> dict:
    """A Dexterity check (with an Initiative skill if the sheet has one)."""
    amod, smod = modifiers(sheet, [*mapped(sheet, "initiative"), *INITIATIVE], "Dexterity")
    return {"system": "xerosum", "action": "check", "amod": amod, "smod": smod}


def initiative_value(result: dict) -> int:
    return result["total"]
