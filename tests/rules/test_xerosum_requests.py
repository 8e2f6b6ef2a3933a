"""Bad Xero Sum requests fail with the contract's error codes, naming the field."""

import pytest

from vtt.rules.engine import adjudicate
from vtt.rules.errors import RulesError
from vtt.rules.odds import odds


def refused(**body):
    with pytest.raises(RulesError) as err:
        adjudicate({"system": "xerosum", **body})
    return err.value.code, err.value.field


@pytest.mark.parametrize(
    "body, field",
    [
        ({"action": "check", "bonus": 1}, "bonus"),
        ({"action": "check", "rebuttal_cmod": -1}, "rebuttal_cmod"),
        ({"action": "opposed", "actor": {"skill": 2}, "opponent": {}}, "actor.skill"),
        ({"action": "opposed", "actor": {}, "opponent": {}, "kind": "x"}, "kind"),
        ({"action": "group", "participants": [{}, {"dice": 3}]}, "participants[1].dice"),
        # No Insight spends in a Group Check.
        (
            {"action": "group", "participants": [{"insight_cmod": True}, {}]},
            "participants[0].insight_cmod",
        ),
        ({"action": "reroll", "check": {}, "replace": [0], "why": 1}, "why"),
    ],
)
def test_unknown_fields(body, field):
    assert refused(**body) == ("unknown_field", field)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"action": "check", "amod": 5}, "amod"),
        ({"action": "check", "amod": -3}, "amod"),
        ({"action": "check", "smod": -4}, "smod"),
        ({"action": "check", "smod": 5}, "smod"),
        ({"action": "check", "cmod": 6}, "cmod"),
        ({"action": "check", "cmod": -6}, "cmod"),
        ({"action": "check", "amod": "2"}, "amod"),
        ({"action": "check", "amod": 1.0}, "amod"),
        ({"action": "check", "cmod": True}, "cmod"),
        ({"action": "check", "insight_extra_die": 1}, "insight_extra_die"),
        ({"action": "check", "insight_cmod": "yes"}, "insight_cmod"),
        ({"action": "gambit", "smod": None}, "smod"),
        ({"action": "rebuttal", "rebuttal_cmod": -2}, "rebuttal_cmod"),
        ({"action": "rebuttal", "rebuttal_cmod": 3}, "rebuttal_cmod"),
        ({"action": "opposed", "actor": {}}, "opponent"),
        ({"action": "opposed", "actor": 3, "opponent": {}}, "actor"),
        ({"action": "opposed", "actor": {"amod": 9}, "opponent": {}}, "actor.amod"),
        ({"action": "group", "participants": [{}]}, "participants"),
        ({"action": "group", "participants": [{}] * 13}, "participants"),
        ({"action": "group", "participants": {}}, "participants"),
        ({"action": "group", "participants": [{}, {"smod": 7}]}, "participants[1].smod"),
        ({"action": "reroll", "replace": [0]}, "check"),
        ({"action": "perception"}, "action"),
    ],
)
def test_invalid_fields(body, field):
    assert refused(**body) == ("invalid", field)


def test_tape_errors():
    assert refused(action="check", faces=[3]) == ("faces_exhausted", "faces")
    assert refused(action="check", faces=[3, 4, 5]) == ("faces_unused", "faces")
    assert refused(action="check", faces=[3, 7]) == ("bad_face", "faces")
    assert refused(action="check", insight_extra_die=True, faces=[3, 4]) == (
        "faces_exhausted",
        "faces",
    )


def test_odds_refuse_faces_and_bad_fields():
    with pytest.raises(RulesError) as err:
        odds({"system": "xerosum", "action": "check", "faces": [3, 4]})
    assert (err.value.code, err.value.field) == ("unknown_field", "faces")
    with pytest.raises(RulesError) as err:
        odds({"system": "xerosum", "action": "group", "participants": [{}]})
    assert (err.value.code, err.value.field) == ("invalid", "participants")


def test_every_field_has_a_default_but_the_nested_ones():
    assert adjudicate({"system": "xerosum", "action": "check", "faces": [4, 5]})["total"] == 9
    result = adjudicate(
        {"system": "xerosum", "action": "opposed", "actor": {}, "opponent": {}, "faces": [1] * 4}
    )
    assert result["outcome"] == "draw"
