"""Throwing and reading Xero Sum's rolls: the single check and its social
variants, the Opposed Check and the Group Check."""

from .consequences import consequence
from .fields import CHECK, REBUTTAL
from .judgement import INSIGHT_CMOD, judge

# Every action that is one character's check; the reroll accepts their results.
CHECK_ACTIONS = {
    "check": CHECK,
    "first_impression": CHECK,
    "gut_instinct": CHECK,
    "gambit": CHECK,
    "rebuttal": REBUTTAL,
}


def modifier_of(fields: dict) -> int:
    bonus = INSIGHT_CMOD if fields.get("insight_cmod") else 0
    return fields["amod"] + fields["smod"] + fields["cmod"] + fields.get("rebuttal_cmod", 0) + bonus


def spent_by(fields: dict) -> int:
    return int(fields.get("insight_extra_die", False)) + int(fields.get("insight_cmod", False))


def throw(roller, pool: str, extra_die: bool) -> list:
    """Two regular dice, then the Insight Die bought for a 3d6 check."""
    faces = [roller.die(pool, "regular")["face"] for _ in range(2)]
    if extra_die:
        faces.append(roller.die(pool, "insight")["face"])
    return faces


def single_roll(faces: list, modifier: int, spent: int) -> dict:
    judged = judge(faces, modifier)
    return {
        "dice_total": judged["dice_total"],
        "modifier": modifier,
        "total": judged["total"],
        "moment_of_insight": judged["moment_of_insight"],
        "insight_gained": 0 if judged["moment_of_insight"] is None else 1,
        "insight_spent": spent,
        "outcome": judged["outcome"],
    }


def check_resolver(action: str):
    """resolve() for `action`, one of CHECK_ACTIONS."""

    def resolve(fields: dict, roller) -> dict:
        faces = throw(roller, "actor", fields["insight_extra_die"])
        # The request is echoed so a later reroll can rebuild this check.
        result = dict(fields)
        result.update(single_roll(faces, modifier_of(fields), spent_by(fields)))
        result.update(consequence(action, result["outcome"]))
        return result

    return resolve


def opposed_winner(margin: int) -> str:
    if margin > 0:
        return "actor"
    if margin < 0:
        return "opponent"
    return "draw"


def resolve_opposed(fields: dict, roller) -> dict:
    sides = {}
    for pool in ("actor", "opponent"):
        side = fields[pool]
        faces = throw(roller, pool, side["insight_extra_die"])
        read = single_roll(faces, modifier_of(side), spent_by(side))
        # No degrees of outcome in an Opposed Check: only the totals compare.
        del read["outcome"]
        sides[pool] = read
    margin = sides["actor"]["total"] - sides["opponent"]["total"]
    return {**sides, "margin": margin, "outcome": opposed_winner(margin)}


def group_roller(participants: list) -> int:
    """The highest AMod + SMod rolls; on a tie the higher SMod (the one who
    brings the most to the total), then whoever is listed first."""
    return max(
        range(len(participants)),
        key=lambda i: (
            participants[i]["amod"] + participants[i]["smod"],
            participants[i]["smod"],
            -i,
        ),
    )


def group_modifier(participants: list, roller: int) -> int:
    """Everyone's AMod and CMod, plus the roller's own SMod."""
    return sum(p["amod"] + p["cmod"] for p in participants) + participants[roller]["smod"]


def resolve_group(fields: dict, roller) -> dict:
    participants = fields["participants"]
    who = group_roller(participants)
    faces = throw(roller, "actor", extra_die=False)
    read = single_roll(faces, group_modifier(participants, who), spent=0)
    outcome = read.pop("outcome")
    # A Moment of Insight grants the die to every participant, not only the roller.
    gained_by = list(range(len(participants))) if read["insight_gained"] else []
    return {"roller": who, **read, "insight_gained_by": gained_by, "outcome": outcome}
