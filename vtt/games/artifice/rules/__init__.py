"""Artifice: a pool of d6, each 4-6 a success, one Wild Die in every pool.

Actions: check, test, passive, attack (the combat wound chain) and range (the
1" = 5' grid). docs/rules/artifice.md explains every reading of the rules."""

from vtt.rules import grid
from vtt.rules.errors import RulesError, invalid
from vtt.rules.schema import Bool, Choice, Int, Obj
from vtt.rules.systems import Action, System

from .fields import ConditionTrack, Name, Nullable, RangeFt, Side, Square, Walls
from .odds import attack_odds, check_odds, test_odds
from .roll import roll_pool

MAX_POOL = 60  # dice in a check or test pool
MAX_ABILITY = 30  # dice of one ability in an attack
MAX_LETHALITY = 20
MAX_MODIFIER = 20  # pips, either way
MAX_DIFFICULTY = 60


def _pool(dice: int) -> int:
    """Modifiers never take a pool below one die: the Wild Die."""
    return dice if dice > 1 else 1


def _modifier():
    return Int(-MAX_MODIFIER, MAX_MODIFIER, default=0)


# check ---------------------------------------------------------------------


def resolve_check(f, roller):
    pool, difficulty = f["pool"], f["difficulty"]
    if f["automatic"]:
        # Half the pool, nothing rolled: no Wild Die, no criticals, no cascade.
        s = pool // 2
        margin = s - difficulty
        return {
            "outcome": "success" if margin >= 0 else "failure",
            "automatic": True,
            "successes": s,
            "margin": margin,
            "cascade": 0,
            "critical_success": False,
            "critical_failure": False,
        }
    dice = pool if pool > 1 else 1
    s, wild = roll_pool(roller, "actor", dice, f["modifier"])
    margin = s - difficulty
    return {
        "outcome": "success" if margin >= 0 else "failure",
        "automatic": False,
        "successes": s,
        "margin": margin,
        "cascade": margin if margin > 0 and f["cascade"] else 0,
        "critical_success": wild == 6 or margin >= 4,
        # A natural 1 in a Check changes no count: it is only reported.
        "critical_failure": wild == 1 or (dice >= 4 and s == 0),
    }


def odds_check(f):
    return check_odds(f["pool"], f["modifier"], f["difficulty"], f["automatic"])


CHECK = Action(
    fields={
        "pool": Int(0, MAX_POOL),
        "modifier": _modifier(),
        "difficulty": Int(0, MAX_DIFFICULTY),
        "automatic": Bool(default=False),
        "cascade": Bool(default=True),
    },
    resolve=resolve_check,
    outcomes=("success", "failure"),
    odds=odds_check,
)


# test ----------------------------------------------------------------------


def contest(roller, names, actor, a_mod, opponent, o_mod, wound, cascade=True):
    """One Test between two pools of at least one die each. `names` are the
    two pools' names on the dice tape."""
    a, a_wild = roll_pool(roller, names[0], actor, a_mod)
    o, o_wild = roll_pool(roller, names[1], opponent, o_mod)
    a_fumble = a_wild == 1 or (actor >= 4 and a == 0)
    o_fumble = o_wild == 1 or (opponent >= 4 and o == 0)
    # A natural 1 on one side's Wild Die gives the other side a success.
    if o_wild == 1:
        a += 1
    if a_wild == 1:
        o += 1
    margin = a - o
    won = margin > 0 if wound else margin >= 0
    return {
        "outcome": "actor" if won else "opponent",
        "kind": "wound" if wound else "standard",
        "actor_pool": actor,
        "opponent_pool": opponent,
        "actor_successes": a,
        "opponent_successes": o,
        "margin": margin,
        # The winner's excess successes; nothing on a tie.
        "cascade": (margin if margin >= 0 else -margin) if cascade else 0,
        "actor_critical_success": a_wild == 6 or margin >= 4,
        "actor_critical_failure": a_fumble,
        "opponent_critical_success": o_wild == 6 or margin <= -4,
        "opponent_critical_failure": o_fumble,
    }


_TEST_POOLS = ("actor", "opponent")


def resolve_test(f, roller):
    actor, opponent = f["actor"], f["opponent"]
    return contest(
        roller,
        _TEST_POOLS,
        _pool(actor["pool"]),
        actor["modifier"],
        _pool(opponent["pool"]),
        opponent["modifier"],
        f["kind"] == "wound",
        f["cascade"],
    )


def odds_test(f):
    actor, opponent = f["actor"], f["opponent"]
    return test_odds(
        (_pool(actor["pool"]), actor["modifier"]),
        (_pool(opponent["pool"]), opponent["modifier"]),
        f["kind"] == "wound",
    )


TEST = Action(
    fields={
        "actor": Side(MAX_POOL, MAX_MODIFIER),
        "opponent": Side(MAX_POOL, MAX_MODIFIER),
        "kind": Choice("standard", "wound", default="standard"),
        "cascade": Bool(default=True),
    },
    resolve=resolve_test,
    outcomes=("actor", "opponent"),
    odds=odds_test,
)


# passive -------------------------------------------------------------------


def resolve_passive(f, roller):
    return {"outcome": "passive", "successes": f["ability"] // 2}


def odds_passive(f):
    s = str(f["ability"] // 2)
    return {"outcomes": {"passive": 1.0}, "successes": {s: 1.0}}


PASSIVE = Action(
    fields={"ability": Int(0, MAX_POOL)},
    resolve=resolve_passive,
    outcomes=("passive",),
    odds=odds_passive,
)


# attack --------------------------------------------------------------------

_ATTACK_POOLS = ("combat_attacker", "combat_defender")
_WOUND_POOLS = ("wound_attacker", "wound_defender")


def _attack_setup(f):
    """Refusals and the defender's starting condition, shared by roll and odds."""
    if f["range"] == "out_of_range":
        raise RulesError(
            "out_of_range", "the target is out of range: no attack can be made", "range"
        )
    track = f["condition_track"]
    before = f["defender"]["condition"]
    if before is None:
        return track, track[0]
    if before not in track:
        raise invalid("defender.condition", f"defender.condition must be one of {', '.join(track)}")
    return track, before


def resolve_attack(f, roller):
    track, before = _attack_setup(f)
    atk, dfn, advantage = f["attacker"], f["defender"], f["advantage"]
    combat = contest(
        roller,
        _ATTACK_POOLS,
        _pool(atk["finesse"] + (advantage == "attacker")),
        atk["modifier"],
        _pool(dfn["agility"] + (advantage == "defender")),
        dfn["modifier"],
        False,
    )
    if combat["outcome"] == "opponent":
        return {
            "outcome": "miss",
            "combat": combat,
            "wound": None,
            "condition_steps": 0,
            "condition_before": before,
            "condition_after": before,
        }
    # The hit's excess successes cascade into the Wound Test as extra dice.
    wound = contest(
        roller,
        _WOUND_POOLS,
        _pool(atk["might"] + atk["lethality"] + combat["margin"]),
        atk["wound_modifier"],
        _pool(dfn["toughness"]),
        dfn["wound_modifier"],
        True,
    )
    steps = wound["margin"] if wound["margin"] > 0 else 0
    at, last = track.index(before) + steps, len(track) - 1
    return {
        "outcome": "dead" if at >= last else "incapacitated" if at == last - 1 else "hit",
        "combat": combat,
        "wound": wound,
        "condition_steps": steps,
        "condition_before": before,
        "condition_after": track[at if at < last else last],
    }


def odds_attack(f):
    track, before = _attack_setup(f)
    atk, dfn, advantage = f["attacker"], f["defender"], f["advantage"]
    return attack_odds(
        (_pool(atk["finesse"] + (advantage == "attacker")), atk["modifier"]),
        (_pool(dfn["agility"] + (advantage == "defender")), dfn["modifier"]),
        atk["might"] + atk["lethality"],
        atk["wound_modifier"],
        (_pool(dfn["toughness"]), dfn["wound_modifier"]),
        track,
        before,
    )


def _ability():
    return Int(0, MAX_ABILITY)


ATTACK = Action(
    fields={
        "attacker": Obj(
            {
                "finesse": _ability(),
                "might": _ability(),
                "lethality": Int(0, MAX_LETHALITY, default=0),
                "modifier": _modifier(),
                "wound_modifier": _modifier(),
            }
        ),
        "defender": Obj(
            {
                "agility": _ability(),
                "toughness": _ability(),
                "condition": Nullable(Name()),
                "modifier": _modifier(),
                "wound_modifier": _modifier(),
            }
        ),
        "advantage": Nullable(Choice("attacker", "defender")),
        "range": Nullable(Choice(*grid.CATEGORIES)),
        "condition_track": ConditionTrack(),
    },
    resolve=resolve_attack,
    outcomes=("miss", "hit", "incapacitated", "dead"),
    odds=odds_attack,
)


# range ---------------------------------------------------------------------


def measure(f) -> dict:
    a, b, range_ft = f["from"], f["to"], f["range_ft"]
    distance = grid.distance_ft(a, b, f["diagonal"])
    sight = grid.line_of_sight(a, b, f["walls"])
    category = grid.range_category(distance, range_ft, grid.adjacent(a, b), sight)
    return {
        "outcome": category,
        "distance_ft": distance,
        "category": category,
        "line_of_sight": sight,
    }


def odds_range(f):
    result = measure(f)
    return {"outcomes": {result.pop("outcome"): 1.0}, **result}


RANGE = Action(
    fields={
        "from": Square(),
        "to": Square(),
        "range_ft": RangeFt(),
        "walls": Walls(),
        "diagonal": Choice(*grid.DIAGONALS, default="uniform"),
    },
    resolve=lambda f, roller: measure(f),
    outcomes=grid.CATEGORIES,
    odds=odds_range,
)


SYSTEM = System(
    id="artifice",
    name="Artifice",
    actions={"check": CHECK, "test": TEST, "passive": PASSIVE, "attack": ATTACK, "range": RANGE},
    example={"action": "check", "pool": 3, "modifier": 1, "difficulty": 2},
)

__all__ = ["SYSTEM", "contest"]
