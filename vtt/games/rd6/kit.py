"""Rd6: die codes rolled with a Wild Die, Character and Fate Points spent on
rolls, the table's choices on Complications and damage, and wounds that add
up to a wound track."""

from vtt.core import shapes
from vtt.core.errors import ServiceError

from ..conditions import Condition
from ..kit import (
    DIAGONAL,
    CombatRole,
    GameKit,
    WeaponDamage,
    Words,
    attack_roles,
    choice,
    count,
    flag,
    read_entries,
)
from ..wounds import Ladder
from . import chain, log, notation
from .codes import clean_die_code, parse_die_code
from .rules import SYSTEM

COMPLICATIONS = ("cancel_highest", "narrate")
RESULT_DAMAGE = ("one_for_one", "every_three")
# The seed says nothing of wounds: docs/rules.md, "Wound tracks".
WOUND_TRACK = Ladder(
    "wounds", ["Healthy", "Stunned", "Wounded", "Severely Wounded", "Incapacitated", "Dead"], 6
)
DIFFICULTY_HINT = (
    "Successes needed: Very Easy 0, Easy 1, Moderate 2, Difficult 3, Very Difficult 4, "
    "Heroic 5, Legendary 6+"
)


def _count(value) -> int:
    return value if type(value) is int else int(value is True)


def _actor(fields: dict) -> dict:
    return fields["actor"] if isinstance(fields.get("actor"), dict) else fields


def _character_points(request: dict) -> list[tuple[str, object]]:
    found = [("character_points", request.get("character_points"))]
    for side in ("actor", "opponent"):
        if isinstance(request.get(side), dict):
            found.append((f"{side}.character_points", request[side].get("character_points")))
    return [(path, value) for path, value in found if value is not None]


# The skill modifiers of the rules' guideline (Rd6 basics, "Condition/
# Situation Level to the character"), as markers, and the usual states.
CONDITIONS = (
    Condition("disadvantaged", "Disadvantaged", "drop", {"modifier_dice": -1}, "-1D"),
    Condition("very_disadvantaged", "Very Disadvantaged", "drop", {"modifier_dice": -2}, "-2D"),
    Condition("advantaged", "Advantaged", "star", {"modifier_dice": 1}, "+1D"),
    Condition("prone", "Prone", "down"),
    Condition("stunned", "Stunned", "bolt"),
    Condition("unconscious", "Unconscious", "zzz"),
)


class Rd6(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    chat_notation = notation
    settings = {
        "diagonal": DIAGONAL,
        "complication": choice("cancel_highest", COMPLICATIONS),
        "character_point_cap": count(2, 0, 10, "Character Points per roll, at most"),
        "catastrophic_failure": flag(False, "Catastrophic Failure (every regular die a 1)"),
        "result_points_to_damage": choice(
            "one_for_one", RESULT_DAMAGE, "Result points to damage dice"
        ),
        "starting_character_points": count(5),
        "starting_fate_points": count(1),
        **WOUND_TRACK.settings,
    }
    wound_track = WOUND_TRACK
    combat_roles = attack_roles(chain.ATTACK_SKILLS) | {
        "parry": CombatRole("Parry (against melee)", chain.PARRY),
        "dodge": CombatRole("Dodge (against missiles and spells)", chain.DODGE),
        "initiative": CombatRole("Initiative", chain.INITIATIVE),
    }
    counters = ("character_points", "fate_points", "experience", "wounds")
    damage = WeaponDamage("damage", lambda v, p: clean_die_code(v, p, 0, 30), "0D")
    fillable = ("dice",)
    pips_field = "pips"
    new_entries = {"attributes": "2D", "skills": {"attribute": "", "code": "3D"}}
    conditions = CONDITIONS
    words = Words(
        actions={"roll": "Roll a die code", "opposed": "Opposed roll"},
        fields={
            "dice": "Dice (D)",
            "pips": "Pips (+)",
            "modifier_dice": "Modifier dice (±D)",
            "equipment_dice": "Equipment dice",
            "equipment_pips": "Equipment pips",
            "character_points": "Character Points",
            "fate_point": "Fate Point (double dice and pips)",
            "rolling_up": "Rolling Up (second wild die)",
            "complication": "On a Complication",
            "catastrophic_failure": "Catastrophic Failure rule",
            "difficulty": "Difficulty",
            "difficulty_modifier": "Difficulty modifier",
            "retry": "Second Chance (retry)",
            "previous_true_critical_failure": "Last try was a True Critical Failure",
            "result_dice": "Result points to damage dice",
            "actor": "You",
            "opponent": "Opponent",
        },
        hints={"difficulty": DIFFICULTY_HINT},
        values={
            "cancel_highest": "Drop the Wild Die and the highest die",
            "narrate": "Total as normal, the GM narrates",
            "one_for_one": "One die per result point",
            "every_three": "One die per three result points",
        },
        labels={
            "pips": "Pips",
            "difficulty_modifier": "Difficulty modifier",
            "needed": "Successes needed",
            "result_level": "Result level",
            "result_points": "Result points",
            "damage_dice": "Damage dice",
            "critical_failure_check": "Wild Die 1",
            "fate_point": "Fate Point",
            "character_points": "Character Points",
            "rolling_up": "Rolling Up",
        },
        said={
            "true_critical_failure": "True Critical Failure",
        },
        dice={
            "wild": "Wild Die",
            "crit_check": "critical failure check",
            "cp_wild": "Character Point die",
            "rollup_wild": "Rolling Up die",
        },
    )
    skill_maps = ("skills", "attributes")
    damage_to = "wounds"
    # The campaign's setting the tray's damage field starts from.
    request_settings = {"result_dice": "result_points_to_damage"}

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("attributes", "skills", "combat"))
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

    def starting_resources(self, settings):
        return super().starting_resources(settings) | {
            "character_points": settings["starting_character_points"],
            "fate_points": settings["starting_fate_points"],
        }

    def _code(self, sheet: dict, entry: str) -> tuple[int, int] | None:
        skill = sheet.get("skills", {}).get(entry)
        return parse_die_code(skill["code"] if skill else sheet.get("attributes", {}).get(entry))

    def fill(self, holder, name, sheet, entries, path):
        """A skill or attribute gives its die code: the dice fill a `dice`
        field and the pips add to the `pips` beside it."""
        if name != "dice":
            raise shapes.invalid(path, "an Rd6 die code fills a dice field")
        codes = read_entries(self._code, sheet, entries, path)
        holder["dice"] = sum(dice for dice, _ in codes)
        pips = holder.get("pips", 0)
        holder["pips"] = (pips if type(pips) is int else 0) + sum(p for _, p in codes)

    def entries(self, sheet):
        named = [*sheet.get("attributes", {}).items()]
        named += [(name, skill["code"]) for name, skill in sheet.get("skills", {}).items()]
        found = []
        for name, code in named:
            parsed = parse_die_code(code)
            if parsed:
                found.append({"label": f"{name} {code}", "value": parsed[0], "pips": parsed[1]})
        return found

    def spends(self, action, fields):
        side = _actor(fields)
        cost = {
            "character_points": _count(side.get("character_points", 0)),
            "fate_points": _count(side.get("fate_point")),
        }
        return {resource: n for resource, n in cost.items() if n > 0}

    def request_defaults(self, settings):
        return {
            "complication": settings.get("complication"),
            "catastrophic_failure": settings.get("catastrophic_failure"),
            "result_dice": settings.get("result_points_to_damage"),
        }

    def check_request(self, settings, request):
        cap = settings.get("character_point_cap")
        for path, value in _character_points(request):
            if type(value) is int and cap is not None and value > cap:
                raise ServiceError(
                    "character_point_cap",
                    f"this campaign allows at most {cap} Character Points on one roll",
                    f"request.{path}",
                )


KIT = Rd6()
