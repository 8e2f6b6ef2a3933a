"""Apocalyptia: one d6 plus a Trait or Skill against a Difficulty, with
exploding sixes and Botches on a 1, and wounds that add up to a wound track."""

from vtt.core import shapes

from ..combat import WeaponChange
from ..conditions import Condition
from ..kit import DIAGONAL, CombatRole, GameKit, Words
from ..wounds import Ladder
from . import chain, log, notation
from .rules import SYSTEM

TRAITS = ("Agility", "Brains", "Constitution", "Demeanor")
# The seed leaves DMG to a later chapter: docs/rules.md, "Wound tracks".
WOUND_TRACK = Ladder(
    "wounds", ["Unhurt", "Hurt", "Wounded", "Critical", "Incapacitated", "Dead"], 3
)


# The rules name no effect for these: markers the table reads as it will.
CONDITIONS = (
    Condition("prone", "Prone", "down"),
    Condition("stunned", "Stunned", "bolt"),
    Condition("unconscious", "Unconscious", "zzz"),
)


class Apocalyptia(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    chat_notation = notation
    settings = {"diagonal": DIAGONAL, **WOUND_TRACK.settings}
    wound_track = WOUND_TRACK
    combat_roles = {
        "melee_attack": CombatRole("Melee attack", (chain.USUAL["melee_attack"],)),
        "missile_attack": CombatRole(
            "Projectile attack (and spells)", (chain.USUAL["missile_attack"],)
        ),
        "dodge": CombatRole("Dodge", (chain.USUAL["dodge"],)),
        "block": CombatRole("Block", (chain.USUAL["block"],)),
    }
    counters = ("experience", "wounds")
    defenses = ("dodge", "block")
    fillable = ("bonus", "atk_bonus", "def_bonus")
    sheet_numbers = (("traits", None, "{name} {value}"), ("skills", "level", "{name} {value}"))
    new_entries = {"skills": {"trait": "Agility", "level": 0}}
    conditions = CONDITIONS
    words = Words(
        actions={"roll": "Roll", "opposed": "Opposed roll", "attack": "Attack (ATK vs DEF)"},
        fields={
            "bonus": "Bonus (Trait or Skill + modifiers)",
            "difficulty": "Difficulty",
            "kind": "Kind of roll",
            "stressful": "Stressful situation",
            "actor": "You",
            "opponent": "Opponent",
            "atk_bonus": "ATK bonus (Melee or Projectile)",
            "def_bonus": "DEF bonus (Dodge or Block)",
            "weapon_dmg": "Weapon damage",
            "defense": "Defence",
        },
        hints={"difficulty": "The total must beat it; equal fails."},
        labels={
            "actor_total": "Total",
            "opponent_total": "Total against",
            "actor_botch": "Botch",
            "opponent_botch": "Botch against",
            "atk_total": "ATK",
            "def_total": "DEF",
            "atk_bonus": "ATK bonus",
            "def_bonus": "DEF bonus",
            "weapon_dmg": "Weapon damage",
            "weapon_broken": "Weapon broken",
            "bonus": "Bonus",
            "rounds": "Rounds",
        },
        dice={"botch_check": "botch check"},
    )
    damage_to = "wounds"
    # A botch breaks a weapon (the chain's Resolution.broken): the attack's
    # changes say so, and undo or the GM's repair mends it.
    weapon_change = WeaponChange("weapon_broken")

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("traits", "skills", "combat"))
        given = shapes.obj(sheet.get("traits", {}), "sheet.traits", allowed=TRAITS)
        traits = {
            name: shapes.whole(given.get(name, 1), f"sheet.traits.{name}", 1, 6) for name in TRAITS
        }
        skills = {}
        for name, skill in shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60).items():
            path = f"sheet.skills.{name}"
            shapes.obj(skill, path, allowed=("trait", "level"))
            trait = shapes.choice(skill.get("trait"), f"{path}.trait", TRAITS)
            level = shapes.whole(skill.get("level", 0), f"{path}.level", 0, 6)
            # A skill never rises above the trait it belongs to.
            if level > traits[trait]:
                raise shapes.invalid(f"{path}.level", f"cannot exceed {trait} ({traits[trait]})")
            skills[name] = {"trait": trait, "level": level}
        return {"traits": traits, "skills": skills}

    def sheet_choices(self, settings):
        return {"sheet.skills.*.trait": TRAITS}


KIT = Apocalyptia()
