"""Fantasy Ground Rules: skill levels as dice, Action Points spent on rolls
and on reducing damage."""

from vtt.rules.systems.fgr import SYSTEM
from vtt.tabletop import shapes

from ..kit import DIAGONAL, GameKit, Words, count
from . import chain, log


def _count(value) -> int:
    return value if type(value) is int else int(value is True)


class FantasyGroundRules(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    settings = {"diagonal": DIAGONAL, "starting_action_points": count(5)}
    counters = ("action_points", "experience", "wounds", "fatigue", "fear")
    fillable = ("skill", "dice")
    sheet_numbers = (("skills", None, "{name} {value}"),)
    new_entries = {"skills": 1}
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
    )

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("skills",))
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
