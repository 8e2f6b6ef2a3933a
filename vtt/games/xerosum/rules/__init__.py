"""Xero Sum: 2d6 + AMod + SMod + CMod read against outcome bands, with
Moments of Insight on doubles and Insight Dice to spend.

The mechanics live in the _xerosum_* modules; this one names the actions.
Insight Dice are only counted here (`insight_gained`, `insight_spent`): the
server keeps each character's supply."""

from vtt.rules.systems import Action, System

from .fields import GROUP, OPPOSED
from .judgement import OUTCOMES
from .odds import check_odds, group_odds, opposed_odds, reroll_odds
from .reroll import FIELDS as REROLL
from .reroll import resolve as resolve_reroll
from .roll import CHECK_ACTIONS, check_resolver, resolve_group, resolve_opposed


def _check_action(name: str) -> Action:
    return Action(CHECK_ACTIONS[name], check_resolver(name), OUTCOMES, check_odds(name))


SYSTEM = System(
    id="xerosum",
    name="Xero Sum",
    actions={
        **{name: _check_action(name) for name in CHECK_ACTIONS},
        "reroll": Action(REROLL, resolve_reroll, OUTCOMES, reroll_odds),
        "opposed": Action(OPPOSED, resolve_opposed, ("actor", "opponent", "draw"), opposed_odds),
        "group": Action(GROUP, resolve_group, OUTCOMES, group_odds),
    },
)
