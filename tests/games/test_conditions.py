"""Each game's declared conditions: every effect names a field one of its
actions has, and lays over a request as the rules would read it (within
the field's bounds), which the odds then show."""

import pytest

from vtt import games
from vtt.games.conditions import ICONS, Condition, effect_of, marked, with_effect
from vtt.rules import odds
from vtt.rules.engine import find_action

KITS = sorted(games.ids())


@pytest.mark.parametrize("game", KITS)
def test_every_condition_is_whole(game):
    kit = games.kit(game)
    assert kit.conditions, f"{game} declares no conditions"
    ids = [c.id for c in kit.conditions]
    assert len(ids) == len(set(ids))
    fields = {name for action in kit.system.actions.values() for name in action.fields}
    for condition in kit.conditions:
        assert condition.icon in ICONS
        assert set(condition.effect) <= fields, (game, condition.id)
        assert bool(condition.effect) == bool(condition.says), (game, condition.id)


def test_an_unknown_icon_is_a_programming_error():
    with pytest.raises(ValueError):
        Condition("x", "X", "rocket")


def test_effects_add_up_on_the_fields_an_action_has():
    fields = games.kit("rd6").system.actions["roll"].fields
    kit = games.kit("rd6")
    both = [kit.condition("disadvantaged"), kit.condition("very_disadvantaged")]
    assert effect_of(both, fields) == {"modifier_dice": -3}
    assert effect_of(both, {"dice": fields["dice"]}) == {}
    request = {"system": "rd6", "action": "roll", "dice": 3, "difficulty": 10}
    assert with_effect(request, {"modifier_dice": -3}, fields)["modifier_dice"] == -3
    # Within the field's bounds, whatever the conditions add up to.
    deep = with_effect(request, {"modifier_dice": -999}, fields)["modifier_dice"]
    assert deep == fields["modifier_dice"].lo


def test_a_condition_shows_in_the_odds():
    kit = games.kit("rd6")
    request = {"system": "rd6", "action": "roll", "dice": 3, "difficulty": 10}
    _, _, action = find_action(request)
    hindered = marked(kit, request, action, ["disadvantaged"])
    assert hindered["modifier_dice"] == -1
    assert marked(kit, request, action, ["prone", "nonsense"]) == request
    before = odds(request)["outcomes"]["success"]
    after = odds(hindered)["outcomes"]["success"]
    assert after < before
