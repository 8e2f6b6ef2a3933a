"""A game's conditions are its kit's alone: Sixes (tests/games/sixes.py)
declares "Dazed" (-1 die) and nothing else changes. A token of a Sixes
character is marked with it over the API, the tray's spec serves it, and
the character's next roll takes the die off as its stored request says;
the GM's secret marker has no effect on a roll (it would tell of itself)."""

import pytest

from tests import factories
from tests.games.test_sixth_game import client_for, people, sixes_game, table  # noqa: F401
from vtt import dice
from vtt.markers import services as markers
from vtt.tabletop import services
from vtt.web.tray_spec import tray_spec

pytestmark = pytest.mark.django_db

ROLL = {"system": "sixes", "action": "roll", "pool": 4, "target": 5}


@pytest.fixture
def dazed(table, people):  # noqa: F811
    gm = people["gm"]
    hero = services.character_create(
        campaign_id=table.pk, by=gm, name="Brann", owner_id=people["player"].pk
    )
    scene = factories.scene(table, gm, "Pit", active=True)
    token = factories.token(scene, gm, "Brann", 1, 1, character_id=hero.pk)
    return hero, token


def _roll(table, people, hero):  # noqa: F811
    made = dice.roll_adjudicate(
        campaign_id=table.pk, by=people["player"], request=ROLL, character_id=hero.pk
    )
    return made.request["pool"]


def test_the_tray_offers_the_kits_condition(sixes_game):  # noqa: F811
    (dazed_,) = tray_spec("sixes")["conditions"]
    assert dazed_ == {
        "id": "dazed",
        "name": "Dazed",
        "icon": "zzz",
        "effect": {"pool": -1},
        "says": "-1 die",
    }


def test_a_dazed_characters_roll_loses_a_die(table, people, dazed):  # noqa: F811
    hero, token = dazed
    assert _roll(table, people, hero) == 4
    reply = client_for(people["gm"]).post(
        f"/api/campaigns/{table.pk}/markers/",
        {"token": token.pk, "condition_id": "dazed"},
        format="json",
    )
    assert reply.status_code == 201, reply.json()
    assert _roll(table, people, hero) == 3


def test_a_secret_marker_has_no_effect_on_a_roll(table, people, dazed):  # noqa: F811
    hero, token = dazed
    markers.marker_add(
        campaign_id=table.pk, token_id=token.pk, by=people["gm"], condition_id="dazed", gm_only=True
    )
    assert _roll(table, people, hero) == 4


def test_an_effect_keeps_the_request_in_the_rules_bounds(table, people, dazed):  # noqa: F811
    hero, token = dazed
    markers.marker_add(
        campaign_id=table.pk, token_id=token.pk, by=people["gm"], condition_id="dazed"
    )
    made = dice.roll_adjudicate(
        campaign_id=table.pk, by=people["player"], request={**ROLL, "pool": 1}, character_id=hero.pk
    )
    assert made.request["pool"] == 1  # the rules' least pool


def test_another_games_condition_is_unknown_here(table, people, dazed):  # noqa: F811
    _, token = dazed
    with pytest.raises(services.ServiceError) as refused:
        markers.marker_add(
            campaign_id=table.pk, token_id=token.pk, by=people["gm"], condition_id="prone"
        )
    assert refused.value.field == "condition_id"
