"""Fantasy Ground Rules: skill levels as dice, Action Points spent on rolls
and on reducing damage, and Wounds that add up to a wound track."""

from vtt.core import shapes

from ..conditions import Condition
from ..kit import DIAGONAL, CombatRole, GameKit, Words, attack_roles, count
from ..reactions import SpendAgainstHit
from ..wounds import Ladder
from . import chain, log, notation
from .rules import SYSTEM

# The seed has Wound damage but no track for it: docs/rules.md, "Wound tracks".
WOUND_TRACK = Ladder(
    "wounds", ["Unhurt", "Hurt", "Wounded", "Badly Wounded", "Incapacitated", "Dead"], 4
)


def _count(value) -> int:
    return value if type(value) is int else int(value is True)


# The bonuses and penalties of "Bonus/Penalty Type" as markers, and the
# usual states.
CONDITIONS = (
    Condition("minor_hindrance", "Minor hindrance", "drop", {"modifier_dice": -1}, "-1D"),
    Condition("major_hindrance", "Major hindrance", "drop", {"modifier_dice": -2}, "-2D"),
    Condition("minor_help", "Minor help", "star", {"modifier_dice": 1}, "+1D"),
    Condition("prone", "Prone", "down"),
    Condition("stunned", "Stunned", "bolt"),
    Condition("unconscious", "Unconscious", "zzz"),
)


class FantasyGroundRules(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    chat_notation = notation
    settings = {
        "diagonal": DIAGONAL,
        "starting_action_points": count(5),
        **WOUND_TRACK.settings,
    }
    wound_track = WOUND_TRACK
    combat_roles = attack_roles(chain.ATTACK_SKILLS) | {
        "initiative": CombatRole("Initiative", chain.INITIATIVE),
    }
    counters = ("action_points", "experience", "wounds", "fatigue", "fear")
    fillable = ("skill", "dice")
    sheet_numbers = (("skills", None, "{name} {value}"),)
    new_entries = {"skills": 1}
    conditions = CONDITIONS
    words = Words(
        actions={
            "roll": "Skill roll",
            "numeric": "Numeric roll (sum)",
            "reduce_damage": "Reduce damage with Action Points",
        },
        fields={
            "skill": "Skill dice",
            "modifier_dice": "Help (+) or hindrance (-) dice",
            "difficulty": "Difficulty (successes needed)",
            "action_points": "Action Points to spend",
            "dice": "Dice",
            "damage": "Damage",
        },
        hints={
            "modifier_dice": "+1/+2 help, -1/-2 hindrance; at 0 dice or less it is a Luck Roll."
        },
        labels={
            "action_points": "Action Points",
            "luck": "Luck Roll",
        },
        dice={"luck": "luck die"},
    )
    damage_to = "wounds"
    # The defender's Action Points against a hit (docs/combat.md): the room
    # draws them as a resource panel under the attack and in the decisions;
    # the rules' reduce_damage says what is left of the damage.
    reactions = (
        SpendAgainstHit(
            "reduce_damage",
            resource="action_points",
            lands_on="wounds",
            action="reduce_damage",
            label="Action Points",
            one="Action Point",
            step="Action Points against the damage",
            waiting="Waiting for the defender to decide on Action Points",
            offer="their player may spend Action Points first, each taking 1 off",
        ),
    )

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("skills", "combat"))
        skills = shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60)
        return {
            "skills": {
                name: shapes.whole(level, f"sheet.skills.{name}", 0, 20)
                for name, level in skills.items()
            }
        }

    def starting_resources(self, settings):
        return super().starting_resources(settings) | {
            "action_points": settings["starting_action_points"]
        }

    def spends(self, action, fields):
        spent = _count(fields.get("action_points", 0))
        return {"action_points": spent} if spent > 0 else {}


KIT = FantasyGroundRules()
