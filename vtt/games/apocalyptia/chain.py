"""Apocalyptia: ATK (d6 + Melee or Projectile) against DEF (d6 + Dodge or
Block). A hit's damage is the margin plus the weapon's DMG; the seed leaves
what DMG does to the target to a later chapter, so it waits for the GM's
click, which adds it to the target's wounds. A botch breaks the attacker's
weapon, or on a Block the defender's."""

from vtt.games.combat import Resolution, find, mapped

DAMAGE = ("wounds", 1)
PROTECTED = ()
# The skill each combat role uses unless the sheet maps one of its own.
USUAL = {
    "melee_attack": "Melee",
    "missile_attack": "Projectile",
    "dodge": "Dodge",
    "block": "Block",
}


def skill(side, name: str) -> int:
    """A skill's level; a skill the character lacks is 0 (d6 + 0)."""
    skills = side.sheet.get("skills", {})
    key = find(skills, [name])
    return skills[key]["level"] if key else 0


def role_skill(side, role: str) -> str:
    """The name of the skill the side uses for a combat role: the sheet's own
    (sheet key `combat`) when it has it, else the usual one."""
    key = find(side.sheet.get("skills", {}), [*mapped(side.sheet, role), USUAL[role]])
    return key or USUAL[role]


def source(side, name: str) -> str:
    key = find(side.sheet.get("skills", {}), [name])
    return key or f"{name} (untrained)"


def _defense(ctx) -> str:
    chosen = ctx.options.get("defense")
    if chosen:
        return chosen
    # Only a melee blow can be blocked; otherwise the better skill (Dodge on a
    # tie: a botched Block breaks a weapon, a botched Dodge nothing).
    block, dodge = role_skill(ctx.target, "block"), role_skill(ctx.target, "dodge")
    if ctx.weapon.get("kind") == "melee" and skill(ctx.target, block) > skill(ctx.target, dodge):
        return "block"
    return "dodge"


def attack_request(ctx) -> dict:
    melee = ctx.weapon.get("kind") == "melee"
    attack_skill = ctx.options.get("attack_skill") or role_skill(
        ctx.attacker, "melee_attack" if melee else "missile_attack"
    )
    defense = _defense(ctx)
    defense_skill = role_skill(ctx.target, defense)
    ctx.sources["defender"] = [source(ctx.target, defense_skill)]
    request = {
        "system": "apocalyptia",
        "action": "attack",
        "def_bonus": skill(ctx.target, defense_skill),
        "weapon_dmg": ctx.weapon.get("damage", 0),
        "defense": defense,
    }
    if ctx.attacker.character is not None:
        request["atk_bonus"] = skill(ctx.attacker, attack_skill)
        ctx.sources["attacker"] = [source(ctx.attacker, attack_skill)]
    return request


def _blocking_weapon(ctx) -> str | None:
    named = ctx.options.get("defender_weapon")
    for weapon in ctx.target.weapons:
        if (named and weapon["name"] == named) or (not named and weapon["kind"] == "melee"):
            return weapon["name"]
    return None


def resolve(ctx, result: dict, roll) -> Resolution:
    broken = []
    whose = result.get("weapon_broken")
    if whose in ("attacker", "both") and ctx.attacker.character is not None:
        if ctx.weapon.get("name") in {w["name"] for w in ctx.attacker.weapons}:
            broken.append((ctx.attacker, ctx.weapon["name"]))
    if whose in ("defender", "both"):
        blocking = _blocking_weapon(ctx)
        if blocking:
            broken.append((ctx.target, blocking))
    if result["outcome"] != "hit":
        return Resolution("miss", "missed", broken=broken)
    return Resolution("hit", "awaiting_damage", result["damage"], broken=broken)


def initiative_request(sheet: dict, settings: dict) -> dict:
    """d6 + Agility, never stressful enough to skip: the total orders the fight."""
    agility = sheet.get("traits", {}).get("Agility", 1)
    return {
        "system": "apocalyptia",
        "action": "roll",
        "bonus": agility,
        "difficulty": 0,
        "kind": "trait",
    }


def initiative_value(result: dict) -> int:
    return result["total"]
