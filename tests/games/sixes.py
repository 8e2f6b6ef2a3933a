"""Sixes: a sixth game that exists only for the tests, to show that a game is
one module. Everything it adds is here: its rules and exact odds, its sheet
and counters, how a roll reads the sheet and what it spends, and its combat
chain and a wound track of its own.

Roll a pool of d6; each die at or above the target (5 by default) is a hit,
and one hit succeeds. Spending a point of Grit adds a die. In a fight the
attacker's Fight skill is the pool and every hit, plus the weapon's damage,
is a Wound; every two Wounds are a step down the track Fine, Bloodied,
Down (out of the fight), Gone."""

from vtt.games.combat import Resolution
from vtt.games.kit import DIAGONAL, GameKit, Words, count
from vtt.games.wounds import Ladder
from vtt.rules.schema import Bool, Int
from vtt.rules.systems import Action, System
from vtt.tabletop import shapes

SKILLS = ("Fight", "Sneak")

# ---------------------------------------------------------------- rules


def _hit(target):
    return lambda face: face >= target


def roll(req, roller):
    dice = req["pool"] + int(req["grit"])
    hits = sum(roller.die("actor", "regular", _hit(req["target"]))["success"] for _ in range(dice))
    return {"hits": hits, "outcome": "success" if hits else "failure"}


def roll_odds(req):
    dice = req["pool"] + int(req["grit"])
    miss = (req["target"] - 1) / 6
    return {"outcomes": {"success": 1 - miss**dice, "failure": miss**dice}}


SYSTEM = System(
    id="sixes",
    name="Sixes",
    actions={
        "roll": Action(
            {
                "pool": Int(1, 12),
                "target": Int(2, 6, default=5),
                "grit": Bool(default=False),
            },
            roll,
            ("success", "failure"),
            roll_odds,
        )
    },
)

# ---------------------------------------------------------------- combat


class Chain:
    DAMAGE = None  # the chain applies its wounds itself
    PROTECTED = ()

    @staticmethod
    def attack_request(ctx):
        skills = ctx.attacker.sheet.get("skills", {})
        ctx.sources["attacker"] = ["Fight"]
        return {"system": "sixes", "action": "roll", "pool": max(1, skills.get("Fight", 1))}

    @staticmethod
    def resolve(ctx, result, roll):
        if not result["hits"]:
            return Resolution("miss", "missed")
        damage = result["hits"] + ctx.weapon.get("damage", 0)
        wounds = ctx.target.resources.get("wounds", 0) + damage
        return Resolution("hit", "applied", damage, [(ctx.target, "wounds", wounds)])

    @staticmethod
    def initiative_request(sheet, settings):
        return {"system": "sixes", "action": "roll", "pool": 1}

    @staticmethod
    def initiative_value(result):
        return result["hits"]


# ---------------------------------------------------------------- the kit


WOUND_TRACK = Ladder("wounds", ["Fine", "Bloodied", "Down", "Gone"], 2)


class Sixes(GameKit):
    system = SYSTEM
    chain = Chain
    settings = {
        "diagonal": DIAGONAL,
        "starting_grit": count(3),
        **WOUND_TRACK.settings,
    }
    wound_track = WOUND_TRACK
    counters = ("grit", "wounds")
    fillable = ("pool",)
    sheet_numbers = (("skills", None, "{name} {value}D"),)
    words = Words(
        actions={"roll": "Roll for hits"},
        fields={"pool": "Dice", "target": "Hit on", "grit": "Spend Grit (+1 die)"},
    )

    def clean_sheet(self, sheet, settings):
        shapes.obj(sheet, "sheet", allowed=("skills",))
        given = shapes.obj(sheet.get("skills", {}), "sheet.skills", allowed=SKILLS)
        return {
            "skills": {
                name: shapes.whole(given.get(name, 1), f"sheet.skills.{name}", 1, 12)
                for name in SKILLS
            }
        }

    def starting_resources(self, settings):
        return super().starting_resources(settings) | {"grit": settings["starting_grit"]}

    def spends(self, action, fields):
        return {"grit": 1} if fields.get("grit") else {}


KIT = Sixes()
