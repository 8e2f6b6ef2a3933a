import pytest

from tests import factories
from vtt import dice
from vtt.core.errors import ServiceError
from vtt.games import game_settings
from vtt.games.house_rules import apply_house_rules
from vtt.tabletop.models import Roll

from .table import make_user

RD6 = game_settings.clean_settings(
    "rd6", {"complication": "narrate", "catastrophic_failure": True, "character_point_cap": 2}
)


def test_rd6_table_choices_fill_what_the_request_leaves_out():
    request = {"system": "rd6", "action": "roll", "dice": 3}
    filled = apply_house_rules("rd6", RD6, request)
    assert filled == {**request, "complication": "narrate", "catastrophic_failure": True}
    assert "complication" not in request  # the caller's dict is left alone
    own = {**request, "complication": "cancel_highest"}
    assert apply_house_rules("rd6", RD6, own)["complication"] == "cancel_highest"


def test_rd6_opposed_fills_each_side():
    request = {"system": "rd6", "action": "opposed", "actor": {"dice": 2}, "opponent": {"dice": 3}}
    filled = apply_house_rules("rd6", RD6, request)
    assert filled["actor"]["complication"] == "narrate"
    assert filled["opponent"]["catastrophic_failure"] is True


def test_defaults_equal_to_the_rules_add_nothing():
    defaults = game_settings.defaults("rd6")
    request = {"system": "rd6", "action": "roll", "dice": 3}
    assert apply_house_rules("rd6", defaults, request) == request
    artifice = game_settings.defaults("artifice")
    attack = {"system": "artifice", "action": "attack"}
    assert apply_house_rules("artifice", artifice, attack) == attack


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        (
            {"system": "rd6", "action": "roll", "dice": 3, "character_points": 3},
            "request.character_points",
        ),
        (
            {
                "system": "rd6",
                "action": "opposed",
                "actor": {"dice": 2, "character_points": 5},
                "opponent": {"dice": 2},
            },
            "request.actor.character_points",
        ),
    ],
)
def test_the_character_point_cap(request_body, field):
    with pytest.raises(ServiceError) as caught:
        apply_house_rules("rd6", RD6, request_body)
    assert (caught.value.code, caught.value.field) == ("character_point_cap", field)


def test_artifice_track_and_diagonal():
    track = ["Fine", "Hurt", "Down", "Dead"]
    settings = game_settings.clean_settings(
        "artifice", {"condition_track": track, "diagonal": "alternating"}
    )
    attack = apply_house_rules("artifice", settings, {"system": "artifice", "action": "attack"})
    assert attack["condition_track"] == track
    ranged = apply_house_rules("artifice", settings, {"system": "artifice", "action": "range"})
    assert ranged["diagonal"] == "alternating"
    check = apply_house_rules("artifice", settings, {"system": "artifice", "action": "check"})
    assert check == {"system": "artifice", "action": "check"}


@pytest.mark.django_db
def test_recorded_rolls_carry_the_house_rules_and_replay():
    gm = make_user("rgm")
    campaign = factories.campaign(gm, name="Run", game="rd6", settings={"complication": "narrate"})
    roll = dice.roll_adjudicate(
        campaign_id=campaign.pk,
        by=gm,
        request={"system": "rd6", "action": "roll", "dice": 2, "faces": [3, 1, 4]},
    )
    assert roll.request["complication"] == "narrate"
    assert roll.result["critical_failure_check"] == "complication"
    again = dice.roll_adjudicate(campaign_id=campaign.pk, by=gm, request=roll.request)
    assert again.result == roll.result
    with pytest.raises(ServiceError):
        dice.roll_adjudicate(
            campaign_id=campaign.pk,
            by=gm,
            request={"system": "rd6", "action": "roll", "dice": 2, "character_points": 3},
        )
    assert Roll.objects.count() == 2
