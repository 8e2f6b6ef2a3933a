"""Sixes: a sixth game that exists only for the tests, to show that a game is
one module. Everything it adds is here: its rules and exact odds, its sheet
and counters, how a roll reads the sheet and what it spends, and its combat
chain and a wound track of its own.

Roll a pool of d6; each die at or above the target (5 by default) is a hit,
and one hit succeeds. Spending a point of Grit adds a die. In a fight the
attacker's Fight skill is the pool and every hit, plus the weapon's damage,
is a Wound; every two Wounds are a step down the track Fine, Bloodied,
Down (out of the fight), Gone.

Strain Sixes, at the end, is the same game with a wound track of a kind of
its own and two reactions (Grit spent against a hit, and all Grit spent to
come back from Broken), to show that the table's one reaction service,
endpoint and intent carry out what a kit declares, and the room page draws
it without a script that knows it."""

from vtt.core import shapes
from vtt.core.errors import ServiceError
from vtt.games.combat import Resolution
from vtt.games.conditions import Condition
from vtt.games.kit import DIAGONAL, GameKit, Words, count
from vtt.games.reactions import Rescue, SpendAgainstHit
from vtt.games.wounds import SKIP_FALLEN, Ladder, WoundState, WoundTrack
from vtt.rules.schema import Bool, Int
from vtt.rules.systems import Action, System

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
    # A condition of its own, with an effect on its one roll.
    conditions = (Condition("dazed", "Dazed", "zzz", {"pool": -1}, "-1 die"),)
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


# ------------------------------------------- a variant: Strain and Grit
#
# The same dice with a wound track of a kind no other game has and two
# reactions: both declared here, as data the room page draws
# (GameKit.browser); no script knows either.
#
# A hit's hits plus the weapon's damage are Strain: at 2 a character is
# Shaken, at 4 Reeling, at 6 Broken (out of the fight, never dead). A
# player's character with Grit left may spend it first, each point taking 1
# off (the attack waits for them, as Fantasy Ground Rules' Action Points do);
# a Broken one may give up all their Grit to steady, each point taking 2
# Strain off.

STRAIN_SYSTEM = System(id="strain_sixes", name="Sixes: Strain", actions=SYSTEM.actions)


class Strain(WoundTrack):
    """Strain that climbs past fixed marks, one state at each."""

    kind = "strain"
    reads = ("strain",)
    states = ("Steady", "Shaken", "Reeling", "Broken")
    marks = (2, 4, 6)
    settings = {"skip_fallen": SKIP_FALLEN}

    def state(self, resources, settings):
        strain = resources.get("strain", 0)
        index = sum(strain >= mark for mark in self.marks) if type(strain) is int else 0
        last = len(self.states) - 1
        return WoundState(self.states[index], index == last, False, index > 0)

    def declaration(self):
        return super().declaration() | {
            "states": {"setting": None, "default": list(self.states), "least": 1},
            "index": {"by": "thresholds", "at": list(self.marks)},
            "out": 1,
            "dead": False,
            "amount": "strain {value}",
            "mark": "Strain {value}",
        }


class StrainChain(Chain):
    @staticmethod
    def attack_request(ctx):
        request = Chain.attack_request(ctx)
        return request | {"system": STRAIN_SYSTEM.id, "target": 2}

    @staticmethod
    def initiative_request(sheet, settings):
        return {"system": STRAIN_SYSTEM.id, "action": "roll", "pool": 1}

    @staticmethod
    def resolve(ctx, result, roll):
        if not result["hits"]:
            return Resolution("miss", "missed")
        damage = result["hits"] + ctx.weapon.get("damage", 0)
        target = ctx.target.character
        if target is not None and target.owner_id and target.resources.get("grit", 0) > 0:
            return Resolution("hit", "awaiting_defender", damage)
        strain = ctx.target.resources.get("strain", 0) + damage
        return Resolution("hit", "applied", damage, [(ctx.target, "strain", strain)])


def steady(resources, settings):
    """A Broken character gives up all their Grit, each point taking 2
    Strain off: the way back from Broken."""
    state = Strain().state(resources, settings)
    if not state.out:
        raise ServiceError(
            "not_broken",
            f"only a Broken character can steady (this one is {state.state})",
            "character",
        )
    grit = resources.get("grit", 0)
    if grit <= 0:
        raise ServiceError(
            "insufficient_grit", "steadying costs all Grit, and there is none", "character"
        )
    return {**resources, "grit": 0, "strain": max(0, resources.get("strain", 0) - 2 * grit)}


class StrainSixes(Sixes):
    system = STRAIN_SYSTEM
    chain = StrainChain
    settings = {"diagonal": DIAGONAL, "starting_grit": count(3), **Strain.settings}
    wound_track = Strain()
    counters = ("grit", "strain")
    # Both carried out by the table's one reaction service, endpoint and
    # intent, and drawn by the room page from these declarations.
    reactions = (
        SpendAgainstHit(
            "brace",
            resource="grit",
            lands_on="strain",
            label="Grit",
            one="Grit",
            step="Grit against the strain",
            waiting="Waiting for the defender to decide on Grit",
            offer="their player may spend Grit first, each taking 1 off",
        ),
        Rescue(
            "steady",
            rescue=steady,
            resource="grit",
            label="Spend all Grit ({value}) to steady",
            title="Each point of Grit takes 2 Strain off",
            empty="No Grit left",
        ),
    )


STRAIN_KIT = StrainSixes()
