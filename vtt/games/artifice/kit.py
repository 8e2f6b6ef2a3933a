"""Artifice: pools of d6 counting successes against a Difficulty, twelve
abilities named by the campaign, and a Condition track for wounds.

Its combat reads abilities by position (Finesse, Might, Agility, Toughness),
never skills: there are no combat roles for a sheet to map."""

from vtt.core import shapes

from ..conditions import Condition
from ..kit import DIAGONAL, GameKit, Setting, WeaponDamage, Words
from ..wounds import ConditionTrack
from . import chain, log, notation, sheet
from .rules import SYSTEM

DIFFICULTY_HINT = "Automatic 0, Easy 1, Moderate 2, Hard 3, Difficult 4, Monstrous 5"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


# The rules name no effect for these: markers the table reads as it will.
CONDITIONS = (
    Condition("prone", "Prone", "down"),
    Condition("stunned", "Stunned", "bolt"),
    Condition("unconscious", "Unconscious", "zzz"),
)


class Artifice(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    chat_notation = notation
    settings = {
        "diagonal": DIAGONAL,
        "condition_track": Setting(
            sheet.CONDITION_TRACK,
            sheet.clean_condition_track,
            "Condition track, best to worst (one per line)",
        ),
        "abilities": Setting(sheet.ABILITIES, sheet.clean_abilities, "{group} abilities"),
        **ConditionTrack.settings,
    }
    wound_track = ConditionTrack(sheet.CONDITION_TRACK)
    counters = ("experience",)
    damage = WeaponDamage("lethality", lambda v, p: shapes.whole(v, p, 0, 6), 0)
    fillable = ("pool", "ability", "finesse", "might", "agility", "toughness")
    pips_field = "modifier"
    conditions = CONDITIONS
    words = Words(
        actions={
            "check": "Check (against a Difficulty)",
            "test": "Test (against an opponent)",
            "passive": "Passive value",
            "attack": "Attack (combat and wound)",
            "range": "Range",
        },
        fields={
            "pool": "Dice (ability + skill)",
            "modifier": "Pip modifier",
            "difficulty": "Difficulty",
            "automatic": "Automatic (take half the dice, no roll)",
            "cascade": "Cascade successes",
            "actor": "You",
            "opponent": "Opponent",
            "kind": "Kind of Test",
            "ability": "Ability dice",
            "attacker": "Attacker",
            "defender": "Defender",
            "finesse": "Finesse dice",
            "might": "Might dice",
            "lethality": "Weapon Lethality",
            "agility": "Agility dice",
            "toughness": "Toughness dice",
            "condition": "Condition",
            "advantage": "Advantage",
            "range": "Range category",
            "wound_modifier": "Wound Test pip modifier",
        },
        values={"out_of_range": "Out of range", "standard": "Standard Test", "wound": "Wound Test"},
        hints={
            "difficulty": DIFFICULTY_HINT,
            "modifier": "Added to the highest failing die; a minus comes off the lowest success.",
        },
        # The defender's Condition: one of the names on the campaign's track.
        widgets={"defender.condition": {"type": "pick", "from": "condition_track"}},
        labels={
            "actor_pool": "Dice rolled",
            "opponent_pool": "Dice against",
            "actor_critical_success": "Critical Success",
            "actor_critical_failure": "Critical Failure",
            "opponent_critical_success": "Critical Success against",
            "opponent_critical_failure": "Critical Failure against",
            "condition_before": "Condition before",
            "condition_after": "Condition after",
            "condition_steps": "Condition steps",
            "distance_ft": "Distance (ft)",
            "line_of_sight": "Line of sight",
            "combat": "Combat Test",
            "wound": "Wound Test",
        },
        dice={"wild": "Wild Die"},
    )
    skill_maps = ("skills", "abilities", "attributes")

    def clean_sheet(self, value, settings):
        return sheet.clean_sheet(value, settings)

    def sheet_choices(self, settings):
        return {
            "sheet.abilities.*.kind": sheet.KINDS,
            "resources.condition": tuple(settings.get("condition_track", ())),
        }

    def starting_resources(self, settings):
        return super().starting_resources(settings) | {"condition": settings["condition_track"][0]}

    def clean_resource(self, key, value, path, settings):
        if key == "condition":
            return shapes.choice(value, path, settings["condition_track"])
        return super().clean_resource(key, value, path, settings)

    def number(self, values, entry):
        """An ability ("Might") gives its dice, "Might.pips" its pips; an
        attribute ("Strength") its rating."""
        name, _, part = entry.partition(".")
        ability = values.get("abilities", {}).get(name)
        if ability is not None and part in ("", "dice", "pips"):
            return ability["pips"] if part == "pips" else ability["dice"]
        if not part and name in values.get("attributes", {}):
            return values["attributes"][name]
        return None

    def entries(self, values):
        abilities = [
            {
                "label": f"{name} {a['dice']}D{_signed(a['pips']) if a['pips'] else ''}",
                "value": a["dice"],
                "pips": a["pips"],
            }
            for name, a in values.get("abilities", {}).items()
        ]
        attributes = [
            {"label": f"{name} {rating}", "value": rating}
            for name, rating in values.get("attributes", {}).items()
        ]
        return abilities + attributes

    def request_defaults(self, settings):
        return {
            "condition_track": settings.get("condition_track"),
            "diagonal": settings.get("diagonal"),
        }

    def settings_changed(self, before, after, characters):
        return sheet.carry_over(before, after, characters)


KIT = Artifice()
