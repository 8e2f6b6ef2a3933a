"""Apocalyptia: one d6 + Trait or Skill against a difficulty, an opposed roll
or an ATK against a DEF. A 6 explodes on most rolls, a 1 may botch."""

from vtt.rules.dice import DiceTape
from vtt.rules.errors import RulesError
from vtt.rules.schema import Bool, Choice, Int, Obj
from vtt.rules.systems import Action, System

from .die import KINDS, beats, explodes, is_automatic, throw
from .odds import attack_odds, opposed_odds, roll_odds

# Bounds: bonuses cover any Trait or Skill with heavy modifiers; the totals
# they make stay small whatever the dice do.
MIN_BONUS, MAX_BONUS = -20, 40
MAX_DIFFICULTY = 60
MAX_WEAPON_DMG = 40
# Ties are re-rolled; a tie a hundred times running (about 3e-85 with real
# dice) can only come from a typed tape, which we refuse.
MAX_ROUNDS = 100


def _bonus() -> Int:
    return Int(MIN_BONUS, MAX_BONUS)


def roll(req: dict, roller) -> dict:
    bonus, difficulty = req["bonus"], req["difficulty"]
    if is_automatic(bonus, difficulty, req["stressful"]):
        total, botch, critical, automatic = bonus, False, False, True
    else:
        die = throw(roller, "actor", "regular", explodes(req["kind"]))
        total, botch, critical, automatic = die.value + bonus, die.botch, die.critical, False
    return {
        "total": total,
        "botch": botch,
        "critical": critical,
        "automatic": automatic,
        # A Botch fails whatever the total: "something very bad happens".
        "outcome": "success" if beats(total, difficulty) and not botch else "failure",
    }


def _stop_if_tape_ran_out(roller) -> None:
    # Past its end a tape gives neutral faces, which would tie equal bonuses
    # forever: a tie there needs faces the player has not entered yet.
    source = roller.source
    if isinstance(source, DiceTape) and source.missing:
        source.finish()


def opposed(req: dict, roller) -> dict:
    actor_bonus, opponent_bonus = req["actor"]["bonus"], req["opponent"]["bonus"]
    for rounds in range(1, MAX_ROUNDS + 1):
        role = "regular" if rounds == 1 else "reroll"
        # Opposed rolls are Trait or Skill rolls: both sides explode.
        actor = throw(roller, "actor", role, True)
        opponent = throw(roller, "opponent", role, True)
        actor_total = actor.value + actor_bonus
        opponent_total = opponent.value + opponent_bonus
        if actor_total != opponent_total:
            break
        _stop_if_tape_ran_out(roller)
    else:
        raise RulesError(
            "faces_exhausted",
            f"the opposed roll was still tied after {MAX_ROUNDS} rounds",
            "faces",
        )
    # A re-rolled tie is replaced entirely, its botches and criticals with it.
    return {
        "actor_total": actor_total,
        "opponent_total": opponent_total,
        "margin": actor_total - opponent_total,
        "actor_botch": actor.botch,
        "opponent_botch": opponent.botch,
        "actor_critical": actor.critical,
        "opponent_critical": opponent.critical,
        "rounds": rounds,
        "outcome": "actor" if beats(actor_total, opponent_total) else "opponent",
    }


def broken_weapon(atk_botch: bool, def_botch: bool, defense: str) -> str | None:
    """Whose weapon a botch breaks: the attacker's on a botched ATK, the
    defender's on a botched Block (a botched Dodge breaks nothing)."""
    attacker = atk_botch
    defender = def_botch and defense == "block"
    if attacker and defender:
        return "both"
    if attacker:
        return "attacker"
    if defender:
        return "defender"
    return None


def attack(req: dict, roller) -> dict:
    # Melee, Projectile, Dodge and Block are all Skills: both dice explode.
    atk = throw(roller, "actor", "regular", True)
    dfn = throw(roller, "opponent", "regular", True)
    atk_total = atk.value + req["atk_bonus"]
    def_total = dfn.value + req["def_bonus"]
    hit = beats(atk_total, def_total)
    return {
        "atk_total": atk_total,
        "def_total": def_total,
        "margin": atk_total - def_total,
        "damage": atk_total - def_total + req["weapon_dmg"] if hit else 0,
        "atk_botch": atk.botch,
        "def_botch": dfn.botch,
        "atk_critical": atk.critical,
        "def_critical": dfn.critical,
        "weapon_broken": broken_weapon(atk.botch, dfn.botch, req["defense"]),
        "outcome": "hit" if hit else "miss",
    }


SYSTEM = System(
    id="apocalyptia",
    name="Apocalyptia",
    actions={
        "roll": Action(
            {
                "bonus": _bonus(),
                "difficulty": Int(0, MAX_DIFFICULTY),
                "kind": Choice(*KINDS),
                "stressful": Bool(default=True),
            },
            roll,
            ("success", "failure"),
            roll_odds,
        ),
        "opposed": Action(
            {"actor": Obj({"bonus": _bonus()}), "opponent": Obj({"bonus": _bonus()})},
            opposed,
            ("actor", "opponent"),
            opposed_odds,
        ),
        "attack": Action(
            {
                "atk_bonus": _bonus(),
                "def_bonus": _bonus(),
                "weapon_dmg": Int(0, MAX_WEAPON_DMG),
                "defense": Choice("dodge", "block", default="dodge"),
            },
            attack,
            ("hit", "miss"),
            attack_odds,
        ),
    },
)
