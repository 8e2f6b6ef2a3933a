"""Xero Sum 2d6: 2d6 plus attribute, skill and condition modifiers; Insight
Dice spent on rolls and won back on a Moment of Insight; Wound Points that
damage takes away, Dying at 0, and every Insight Die spent to be saved."""

from vtt.core import shapes

from ..conditions import Condition
from ..kit import DIAGONAL, CombatRole, GameKit, Words, attack_roles, count
from ..reactions import Rescue
from . import chain, log, notation
from .dying import Dying
from .rules import SYSTEM

WOUND_TRACK = Dying()

ATTRIBUTES = ("Reason", "Acumen", "Physicality", "Influence", "Dexterity")
AMOD = (-2, 4)
SMOD = (-3, 4)


def _count(value) -> int:
    return value if type(value) is int else int(value is True)


def _actor(fields: dict) -> dict:
    """The rolling side of a request or result (a check is its own side)."""
    return fields["actor"] if isinstance(fields.get("actor"), dict) else fields


# Conditional Modifiers (CMods, -5 to +5) a state brings, as markers; the
# rules leave their size to the GM: these are the table's usual ones.
CONDITIONS = (
    Condition("hampered", "Hampered", "drop", {"cmod": -1}, "-1 CMod"),
    Condition("doomed", "Doomed to Failure", "skull", {"cmod": -5}, "-5 CMod"),
    Condition("prone", "Prone", "down"),
    Condition("stunned", "Stunned", "bolt"),
    Condition("unconscious", "Unconscious", "zzz"),
)


class XeroSum(GameKit):
    system = SYSTEM
    chain = chain
    log = log
    chat_notation = notation
    settings = {
        "diagonal": DIAGONAL,
        "starting_insight_dice": count(2),
        # The seed gives no starting numbers: docs/rules.md says why these.
        "starting_wound_points": count(10, 1, 99),
        "starting_resilience_points": count(10, 0, 99),
        **Dying.settings,
    }
    wound_track = WOUND_TRACK
    combat_roles = attack_roles(chain.ATTACK_SKILLS) | {
        "initiative": CombatRole("Initiative", chain.INITIATIVE),
    }
    counters = ("insight_dice", "wound_points", "resilience_points", "experience")
    # Insight Dice replace the dice of the roller's own check; opposed and
    # group checks and rerolls themselves are not rerolled.
    reroll = {
        "action": "reroll",
        "of": [a for a in SYSTEM.actions if a not in ("opposed", "group", "reroll")],
        "spend": "Insight",
    }
    fillable = ("amod", "smod")
    sheet_numbers = (
        ("attributes", None, "{name} (AMod {value:+d})"),
        ("skills", "smod", "{name} (SMod {value:+d})"),
    )
    new_entries = {"skills": {"attribute": "Reason", "smod": 0}}
    conditions = CONDITIONS
    words = Words(
        actions={
            "check": "Check",
            "first_impression": "First Impression",
            "gut_instinct": "Gut Instinct",
            "gambit": "Gambit",
            "rebuttal": "Rebuttal",
            "reroll": "Reroll with Insight Dice",
            "opposed": "Opposed check",
            "group": "Group check",
        },
        fields={
            "amod": "AMod (attribute)",
            "smod": "SMod (skill)",
            "cmod": "CMod (conditions)",
            "insight_extra_die": "Spend Insight: roll 3d6",
            "insight_cmod": "Spend Insight: +3 CMod",
            "rebuttal_cmod": "CMod from the Gambit",
            "actor": "You",
            "opponent": "Opponent",
            "participants": "Participants",
        },
        hints={
            "amod": "-2 Lame to +4 Human Peak",
            "cmod": "-5 Doomed to Failure to +5 Divine Intervention",
        },
        labels={
            "dice_total": "Dice total",
            "amod": "AMod",
            "smod": "SMod",
            "cmod": "CMod",
            "future_cmod": "CMod to future interactions",
            "rebuttal_cmod": "CMod for the Rebuttal",
            "insight_cmod": "Insight Die as CMod",
            "insight_extra_die": "Insight Die as an extra die",
            "insight_gained": "Insight Dice gained",
            "insight_spent": "Insight Dice spent",
            "moment_of_insight": "Moment of Insight",
            "negotiation_over": "Negotiation over",
            "consequence": "Consequence",
            "counted_faces": "Faces counted",
        },
        said={
            "no_read": "no read",
            "very_likely_to_consider": "very likely to consider",
        },
        dice={"insight": "Insight Die"},
    )
    skill_maps = ("skills", "attributes")
    damage_to = "Wound Points"
    # A Dying character's way back (the Dying track's rescue): every Insight
    # Die, from the turn order.
    reactions = (
        Rescue(
            "save_from_dying",
            rescue=WOUND_TRACK.rescue,
            resource="insight_dice",
            label="Spend every Insight Die ({value}) to be saved",
            title="Recovers 1 Wound Point and 1 Resilience Point per die",
            empty="No Insight Dice left",
        ),
    )

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("attributes", "skills", "combat"))
        given = shapes.obj(sheet.get("attributes", {}), "sheet.attributes", allowed=ATTRIBUTES)
        attributes = {
            name: shapes.whole(given.get(name, 0), f"sheet.attributes.{name}", *AMOD)
            for name in ATTRIBUTES
        }
        skills = {}
        for name, skill in shapes.named_map(sheet.get("skills", {}), "sheet.skills", 60).items():
            path = f"sheet.skills.{name}"
            shapes.obj(skill, path, allowed=("attribute", "smod"))
            skills[name] = {
                "attribute": shapes.choice(skill.get("attribute"), f"{path}.attribute", ATTRIBUTES),
                "smod": shapes.whole(skill.get("smod", 0), f"{path}.smod", *SMOD),
            }
        return {"attributes": attributes, "skills": skills}

    def sheet_choices(self, settings):
        return {"sheet.skills.*.attribute": ATTRIBUTES}

    def starting_resources(self, settings):
        return super().starting_resources(settings) | {
            "insight_dice": settings["starting_insight_dice"],
            "wound_points": settings["starting_wound_points"],
            "resilience_points": settings["starting_resilience_points"],
        }

    def spends(self, action, fields):
        if action == "reroll":
            spent = len(fields.get("replace") or [])
        else:
            side = _actor(fields)
            spent = _count(side.get("insight_extra_die")) + _count(side.get("insight_cmod"))
        return {"insight_dice": spent} if spent > 0 else {}

    def gains(self, result):
        """A Moment of Insight gives an Insight Die back."""
        gained = _actor(result).get("insight_gained") or result.get("insight_gained") or 0
        return {"insight_dice": gained} if type(gained) is int and gained > 0 else {}


KIT = XeroSum()
