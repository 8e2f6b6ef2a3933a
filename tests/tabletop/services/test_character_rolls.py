"""Rolling for a character: pools from the sheet, resources spent with the
roll in one transaction, refusals that leave nothing behind."""

import pytest
from django.contrib.auth import get_user_model

from tests import factories
from vtt import games
from vtt.dice.character_rolls import fill_request
from vtt.dice.rolls import roll_adjudicate
from vtt.tabletop.models import Character, Role, Roll, RoomEvent
from vtt.tabletop.services import (
    NotAllowed,
    NotFound,
    ServiceError,
    character_create,
)

SHEETS = {
    "artifice": {"abilities": {"Might": {"dice": 3, "pips": 1}, "Finesse": {"dice": 2}}},
    "fgr": {"skills": {"Swordplay": 3}},
    "xerosum": {
        "attributes": {"Reason": 2},
        "skills": {"Lockpicking": {"attribute": "Reason", "smod": 1}},
    },
    "rd6": {
        "attributes": {"Dexterity": "3D+1"},
        "skills": {"Blaster": {"attribute": "Dexterity", "code": "4D+2"}},
    },
    "apocalyptia": {
        "traits": {"Agility": 3},
        "skills": {"Melee": {"trait": "Agility", "level": 2}},
    },
}


# ---------------------------------------------------------------- pure parts


@pytest.mark.parametrize(
    "game, request_, fill, expected",
    [
        ("artifice", {"action": "check"}, {"pool": "Might"}, {"action": "check", "pool": 3}),
        ("artifice", {}, {"modifier": "Might.pips"}, {"modifier": 1}),
        ("artifice", {}, {"actor.pool": "Finesse"}, {"actor": {"pool": 2}}),
        ("fgr", {}, {"skill": "Swordplay"}, {"skill": 3}),
        ("xerosum", {}, {"amod": "Reason", "smod": "Lockpicking"}, {"amod": 2, "smod": 1}),
        ("rd6", {"pips": 1}, {"dice": "Blaster"}, {"dice": 4, "pips": 3}),
        ("rd6", {}, {"actor.dice": "Dexterity"}, {"actor": {"dice": 3, "pips": 1}}),
        ("apocalyptia", {}, {"bonus": "Agility+Melee"}, {"bonus": 5}),
    ],
)
def test_fill_request_takes_numbers_from_the_sheet(game, request_, fill, expected):
    assert fill_request(game, SHEETS[game], request_, fill) == expected


def test_fill_request_leaves_the_original_request_alone():
    request = {"actor": {}}
    fill_request("artifice", SHEETS["artifice"], request, {"actor.pool": "Might"})
    assert request == {"actor": {}}


@pytest.mark.parametrize(
    "game, request_, fill, field",
    [
        ("artifice", {}, {"pool": "Stealthiness"}, "fill.pool"),
        ("artifice", {"pool": 2}, {"pool": "Might"}, "fill.pool"),
        ("rd6", {}, {"pips": "Blaster"}, "fill.pips"),
        ("fgr", {}, {"skill": ""}, "fill.skill"),
        ("fgr", {}, {"skill": 3}, "fill.skill"),
    ],
)
def test_fill_request_refusals_name_the_fill_field(game, request_, fill, field):
    with pytest.raises(ServiceError) as caught:
        fill_request(game, SHEETS[game], request_, fill)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "game, action, fields, cost",
    [
        ("fgr", "roll", {"action_points": 2}, {"action_points": 2}),
        ("fgr", "reduce_damage", {"action_points": 1}, {"action_points": 1}),
        ("fgr", "roll", {"action_points": 0}, {}),
        (
            "xerosum",
            "check",
            {"insight_extra_die": True, "insight_cmod": True},
            {"insight_dice": 2},
        ),
        ("xerosum", "opposed", {"actor": {"insight_cmod": True}}, {"insight_dice": 1}),
        ("xerosum", "reroll", {"replace": [0, 1]}, {"insight_dice": 2}),
        ("rd6", "roll", {"character_points": 3, "fate_point": False}, {"character_points": 3}),
        ("rd6", "opposed", {"actor": {"fate_point": True}}, {"fate_points": 1}),
        ("artifice", "check", {"pool": 3}, {}),
        ("apocalyptia", "roll", {"bonus": 3}, {}),
    ],
)
def test_what_a_request_spends(game, action, fields, cost):
    assert games.kit(game).spends(action, fields) == cost


def test_a_moment_of_insight_gives_a_die_back():
    assert games.kit("xerosum").gains({"insight_gained": 1}) == {"insight_dice": 1}
    assert games.kit("xerosum").gains({"insight_gained": 0}) == {}
    assert games.kit("rd6").gains({"insight_gained": 1}) == {}


# ---------------------------------------------------------------- in the database


@pytest.fixture
def people(db):
    return factories.people(("gm", "player", "other", "watcher"))


def table(people, game):
    seats = {"player": Role.PLAYER, "other": Role.PLAYER, "watcher": Role.OBSERVER}
    campaign = factories.campaign(
        people["gm"],
        name="Table",
        game=game,
        seats={people[name]: role for name, role in seats.items()},
    )
    hero = factories.character(
        campaign,
        people["gm"],
        "Hero",
        owner_id=people["player"].pk,
        sheet=SHEETS[game],
    )
    return campaign, hero


def resources(character) -> dict:
    return Character.objects.get(pk=character.pk).resources


def roll_for(campaign, character, by, request, **kwargs):
    return roll_adjudicate(
        campaign_id=campaign.pk, by=by, character_id=character.pk, request=request, **kwargs
    )


def fgr_roll(action_points, **extra):
    return {
        "system": "fgr",
        "action": "roll",
        "difficulty": 2,
        "action_points": action_points,
        **extra,
    }


def test_action_points_are_spent_with_the_roll(people):
    campaign, hero = table(people, "fgr")
    assert resources(hero)["action_points"] == 5
    roll = roll_for(
        campaign, hero, people["player"], fgr_roll(2, faces=[1, 1, 1]), fill={"skill": "Swordplay"}
    )
    assert roll.request["skill"] == 3 and roll.character_id == hero.pk
    assert roll.result["successes"] == 2 and roll.physical is True
    assert resources(hero)["action_points"] == 3
    kinds = list(
        RoomEvent.objects.filter(campaign=campaign).order_by("seq").values_list("kind", flat=True)
    )
    # The first roll opens the room's play session: its digest comes first.
    assert kinds[-3:] == ["character.updated", "session.started", "roll"]


def test_a_character_lacking_points_is_refused_and_nothing_is_spent_or_rolled(people):
    campaign, hero = table(people, "fgr")
    events = RoomEvent.objects.count()
    with pytest.raises(ServiceError) as caught:
        roll_for(campaign, hero, people["player"], fgr_roll(6, skill=2))
    assert caught.value.code == "insufficient_action_points"
    assert resources(hero)["action_points"] == 5
    assert not Roll.objects.exists() and RoomEvent.objects.count() == events


def test_a_roll_refused_by_the_rules_gives_the_points_back(people):
    campaign, hero = table(people, "fgr")
    with pytest.raises(ServiceError) as caught:
        roll_for(campaign, hero, people["player"], fgr_roll(2, skill=3, faces=[4]))
    assert (caught.value.code, caught.value.field) == ("faces_exhausted", "request.faces")
    assert resources(hero)["action_points"] == 5
    assert not Roll.objects.exists()


def test_insight_dice_are_spent_and_a_moment_of_insight_earns_one(people):
    campaign, hero = table(people, "xerosum")
    assert resources(hero)["insight_dice"] == 2
    roll = roll_for(
        campaign,
        hero,
        people["player"],
        {"system": "xerosum", "action": "check", "insight_cmod": True, "faces": [6, 6]},
        fill={"amod": "Reason", "smod": "Lockpicking"},
    )
    assert roll.result["total"] == 12 + 2 + 1 + 3
    assert roll.result["insight_gained"] == 1
    assert resources(hero)["insight_dice"] == 2  # one spent, one earned
    roll_for(
        campaign,
        hero,
        people["player"],
        {
            "system": "xerosum",
            "action": "check",
            "insight_extra_die": True,
            "insight_cmod": True,
            "faces": [3, 3, 4],
        },
    )
    assert resources(hero)["insight_dice"] == 0
    with pytest.raises(ServiceError) as caught:
        roll_for(
            campaign,
            hero,
            people["player"],
            {"system": "xerosum", "action": "check", "insight_cmod": True},
        )
    assert caught.value.code == "insufficient_insight_dice"


def test_character_and_fate_points_are_spent(people):
    campaign, hero = table(people, "rd6")
    roll = roll_for(
        campaign,
        hero,
        people["player"],
        {"system": "rd6", "action": "roll", "character_points": 2, "difficulty": 1},
        fill={"dice": "Blaster"},
    )
    assert (roll.request["dice"], roll.request["pips"]) == (4, 2)
    assert resources(hero)["character_points"] == 3
    request = {"system": "rd6", "action": "roll", "dice": 2, "fate_point": True}
    roll_for(campaign, hero, people["gm"], request)
    assert resources(hero)["fate_points"] == 0
    with pytest.raises(ServiceError) as caught:
        roll_for(campaign, hero, people["player"], request)
    assert caught.value.code == "insufficient_fate_points"


def test_rules_refusals_come_before_any_spending(people):
    campaign, hero = table(people, "rd6")
    request = {
        "system": "rd6",
        "action": "roll",
        "dice": 2,
        "character_points": 1,
        "fate_point": True,
    }
    with pytest.raises(ServiceError) as caught:
        roll_for(campaign, hero, people["player"], request)
    assert caught.value.code == "cp_and_fp"
    assert resources(hero)["character_points"] == 5 and resources(hero)["fate_points"] == 1


def test_who_may_roll_for_a_character(people):
    campaign, hero = table(people, "fgr")
    request = fgr_roll(0, skill=1)
    with pytest.raises(NotAllowed):
        roll_for(campaign, hero, people["other"], request)
    with pytest.raises(NotAllowed):
        roll_for(campaign, hero, people["watcher"], request)
    npc = character_create(campaign_id=campaign.pk, by=people["gm"], name="Orc", kind="npc")
    with pytest.raises(NotFound):
        roll_for(campaign, npc, people["player"], request)
    roll = roll_for(campaign, npc, people["gm"], request, visibility="gm")
    assert roll.visibility == "gm" and roll.character_id == npc.pk


def test_a_character_of_another_campaign_is_refused(people):
    campaign, _ = table(people, "fgr")
    _, elsewhere = table(people, "fgr")
    with pytest.raises(ServiceError) as caught:
        roll_for(campaign, elsewhere, people["gm"], fgr_roll(0, skill=1))
    assert caught.value.field == "character_id"


def test_without_a_character_it_is_a_plain_roll_and_fill_is_refused(people):
    campaign, _ = table(people, "fgr")
    roll = roll_adjudicate(
        campaign_id=campaign.pk, by=people["player"], request=fgr_roll(0, skill=2)
    )
    assert roll.character_id is None and roll.physical is False
    with pytest.raises(ServiceError) as caught:
        roll_adjudicate(
            campaign_id=campaign.pk,
            by=people["player"],
            request=fgr_roll(0),
            fill={"skill": "Swordplay"},
        )
    assert caught.value.field == "fill"


def test_a_character_of_a_campaign_the_roller_is_no_member_of_is_no_character(people):
    """The one roll service reads the roller's membership of the room once;
    a character elsewhere is refused as a lookup of it would be: the same
    answer as an id that names nothing, so the id tells nothing."""
    campaign, _ = table(people, "fgr")
    stranger = get_user_model().objects.create_user("stranger")
    theirs = factories.campaign(stranger, name="Elsewhere", game="fgr")
    hidden = character_create(campaign_id=theirs.pk, by=stranger, name="Hidden")
    answers = []
    for character_id in (hidden.pk, hidden.pk + 1000):
        with pytest.raises(NotFound) as caught:
            roll_adjudicate(
                campaign_id=campaign.pk,
                by=people["player"],
                request=fgr_roll(0, skill=1),
                character_id=character_id,
            )
        answers.append((caught.value.code, caught.value.message, caught.value.field))
    assert answers[0] == answers[1] == ("not_found", "no such character", None)
    assert not Roll.objects.exists()
