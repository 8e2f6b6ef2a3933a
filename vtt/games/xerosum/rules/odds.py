"""Exact odds for Xero Sum by dynamic programming over the dice.

A roll is read from three things only: the sum of its faces, how many dice
show 1 and how many show 6 (both capped at 2, all a Moment of Insight needs).
Adding one die at a time to those states gives every distribution without
ever listing face combinations."""

from functools import lru_cache

from vtt.rules.dist import margin, sum_of_dice

from .consequences import CONSEQUENCES
from .judgement import OUTCOMES, moment_in, moment_of_insight, outcome
from .reroll import kept_faces
from .roll import group_modifier, group_roller, modifier_of, opposed_winner

_FACE = 1 / 6
_BASE_DICE = 2


@lru_cache(maxsize=256)
def dice_states(kept: tuple, fresh: int) -> tuple:
    """((dice_total, ones, sixes), probability) pairs once `fresh` new dice
    join the faces already `kept` (pass them sorted: order never matters)."""
    start = (sum(kept), min(2, kept.count(1)), min(2, kept.count(6)))
    states = {start: 1.0}
    for _ in range(fresh):
        grown: dict = {}
        for (total, ones, sixes), p in states.items():
            for face in range(1, 7):
                key = (total + face, min(2, ones + (face == 1)), min(2, sixes + (face == 6)))
                grown[key] = grown.get(key, 0.0) + p * _FACE
        states = grown
    return tuple(sorted(states.items()))


def _spread(dist: dict) -> dict:
    """A distribution as a JSON object: value (as a string) -> probability."""
    return {str(v): dist[v] for v in sorted(dist)}


def single_odds(states: tuple, modifier: int, moment_already: bool = False) -> dict:
    outcomes = dict.fromkeys(OUTCOMES, 0.0)
    totals: dict = {}
    moments = {"none": 0.0, "low": 0.0, "high": 0.0}
    for (dice_total, ones, sixes), p in states:
        moment = moment_of_insight(ones, sixes)
        total = dice_total + modifier
        outcomes[outcome(total, moment)] += p
        totals[total] = totals.get(total, 0.0) + p
        moments[moment or "none"] += p
    return {
        "outcomes": outcomes,
        "truncated_mass": 0.0,
        "total": _spread(totals),
        "expected_total": sum(t * p for t, p in totals.items()),
        "moment_of_insight": moments,
        "expected_insight_gained": 0.0 if moment_already else moments["low"] + moments["high"],
    }


def consequence_odds(action: str, outcomes: dict) -> dict:
    """The chance of each consequence, of each CMod handed on, and of the
    negotiation ending (a number, not a table)."""
    table = CONSEQUENCES.get(action)
    if not table:
        return {}
    extra: dict = {"consequence": {}}
    for name, p in outcomes.items():
        for key, value in table[name].items():
            if key == "consequence":
                extra["consequence"][value] = p
            elif isinstance(value, bool):
                extra[key] = extra.get(key, 0.0) + (p if value else 0.0)
            elif value is not None:
                cmods = extra.setdefault(key, {})
                cmods[value] = cmods.get(value, 0.0) + p
    return {k: _spread(v) if k.endswith("_cmod") else v for k, v in extra.items()}


def check_odds(action: str):
    def odds(fields: dict) -> dict:
        fresh = _BASE_DICE + fields["insight_extra_die"]
        result = single_odds(dice_states((), fresh), modifier_of(fields))
        result.update(consequence_odds(action, result["outcomes"]))
        return result

    return odds


def reroll_odds(fields: dict) -> dict:
    record = fields["check"]
    replaced = fields["replace"]
    kept = tuple(sorted(kept_faces(record, replaced)))
    already = moment_in(list(record.faces)) is not None
    result = single_odds(dice_states(kept, len(replaced)), modifier_of(record.fields), already)
    result.update(consequence_odds(record.action, result["outcomes"]))
    return {"rerolled": record.action, "kept_faces": list(kept), **result}


@lru_cache(maxsize=16)
def _dice_margin(actor_dice: int, opponent_dice: int) -> tuple:
    """(actor dice sum - opponent dice sum, probability), modifiers left out."""
    return tuple(sorted(margin(sum_of_dice(actor_dice), sum_of_dice(opponent_dice)).items()))


def _side(fields: dict) -> dict:
    side = single_odds(
        dice_states((), _BASE_DICE + fields["insight_extra_die"]), modifier_of(fields)
    )
    del side["outcomes"], side["truncated_mass"]  # no degrees in an Opposed Check
    return side


def opposed_odds(fields: dict) -> dict:
    actor, opponent = fields["actor"], fields["opponent"]
    shift = modifier_of(actor) - modifier_of(opponent)
    pairs = _dice_margin(
        _BASE_DICE + actor["insight_extra_die"], _BASE_DICE + opponent["insight_extra_die"]
    )
    margins = {d + shift: p for d, p in pairs}
    outcomes = {"actor": 0.0, "opponent": 0.0, "draw": 0.0}
    for m, p in margins.items():
        outcomes[opposed_winner(m)] += p
    return {
        "outcomes": outcomes,
        "truncated_mass": 0.0,
        "margin": _spread(margins),
        "expected_margin": sum(m * p for m, p in margins.items()),
        "actor": _side(actor),
        "opponent": _side(opponent),
    }


def group_odds(fields: dict) -> dict:
    participants = fields["participants"]
    who = group_roller(participants)
    result = single_odds(dice_states((), _BASE_DICE), group_modifier(participants, who))
    return {"roller": who, **result}
