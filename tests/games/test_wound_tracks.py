"""Every game's wound track answers one question, pure: from a character's
resources and the campaign's settings, the state, and whether the
character is out of the fight or dead. Xero Sum's way back from Dying is
the track's too. A sixth game without a track has no state."""

import pytest

from vtt import games
from vtt.core.errors import ServiceError
from vtt.games import game_settings

from . import sixes


def wounds(game, resources, **settings):
    clean = game_settings.clean_settings(game, settings)
    return games.kit(game).wounds(resources, clean)


def state(game, resources, **settings):
    found = wounds(game, resources, **settings)
    return found["state"], found["out"], found["dead"]


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("Healthy", ("Healthy", False, False)),
        ("Critical", ("Critical", False, False)),
        ("Incapacitated", ("Incapacitated", True, False)),
        ("Dead", ("Dead", True, True)),
    ],
)
def test_artifice_reads_the_condition_track(condition, expected):
    assert state("artifice", {"condition": condition, "experience": 0}) == expected


def test_artifice_follows_a_renamed_track():
    track = ["Fine", "Bloodied", "Down", "Gone"]
    assert state("artifice", {"condition": "Down"}, condition_track=track) == ("Down", True, False)
    assert state("artifice", {"condition": "Gone"}, condition_track=track) == ("Gone", True, True)
    assert wounds("artifice", {"condition": "Fine"}, condition_track=track)["hurt"] is False


@pytest.mark.parametrize(
    ("game", "table"),
    [
        # wounds -> state, with the defaults of docs/rules.md
        ("fgr", {0: "Unhurt", 3: "Unhurt", 4: "Hurt", 15: "Badly Wounded", 16: "Incapacitated"}),
        ("rd6", {5: "Healthy", 6: "Stunned", 23: "Severely Wounded", 24: "Incapacitated"}),
        ("apocalyptia", {2: "Unhurt", 3: "Hurt", 11: "Critical", 12: "Incapacitated"}),
    ],
)
def test_damage_counters_climb_the_default_ladder(game, table):
    for count, expected in table.items():
        found = wounds(game, {"wounds": count})
        assert found["state"] == expected, count
        assert found["out"] is (expected == "Incapacitated")
        assert found["dead"] is False
        assert found["hurt"] is (count >= games.kit(game).settings["wounds_per_state"].default)


@pytest.mark.parametrize(("game", "dead_at"), [("fgr", 20), ("rd6", 30), ("apocalyptia", 15)])
def test_the_last_state_is_dead_and_stays(game, dead_at):
    assert state(game, {"wounds": dead_at - 1})[1:] == (True, False)
    assert state(game, {"wounds": dead_at})[1:] == (True, True)
    assert state(game, {"wounds": 9999})[1:] == (True, True)


def test_a_campaign_sets_its_own_states_and_threshold():
    custom = {"wound_states": ["Up", "Down", "Gone"], "wounds_per_state": 10}
    assert state("fgr", {"wounds": 9}, **custom) == ("Up", False, False)
    assert state("fgr", {"wounds": 10}, **custom) == ("Down", True, False)
    assert state("fgr", {"wounds": 20}, **custom) == ("Gone", True, True)


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"wound_states": ["Up", "Down"]}, "settings.wound_states"),
        ({"wound_states": ["Up", "up", "Gone"]}, "settings.wound_states"),
        ({"wounds_per_state": 0}, "settings.wounds_per_state"),
        ({"wounds_per_state": True}, "settings.wounds_per_state"),
        ({"skip_fallen": "no"}, "settings.skip_fallen"),
    ],
)
def test_bad_track_settings_name_the_field(settings, field):
    with pytest.raises(ServiceError) as caught:
        game_settings.clean_settings("rd6", settings)
    assert caught.value.field == field


def test_xerosum_is_dying_at_zero_wound_points():
    assert state("xerosum", {"wound_points": 10}) == ("Unhurt", False, False)
    assert state("xerosum", {"wound_points": 9}) == ("Wounded", False, False)
    assert state("xerosum", {"wound_points": 1}) == ("Wounded", False, False)
    assert state("xerosum", {"wound_points": 0}) == ("Dying", True, False)
    # "Wounded" is measured against the campaign's starting Wound Points.
    assert state("xerosum", {"wound_points": 9}, starting_wound_points=8)[0] == "Unhurt"
    renamed = ["Fine", "Bleeding", "Fading"]
    assert state("xerosum", {"wound_points": 0}, wound_states=renamed)[0] == "Fading"
    with pytest.raises(ServiceError) as caught:
        game_settings.clean_settings("xerosum", {"wound_states": ["A", "B", "C", "D"]})
    assert caught.value.field == "settings.wound_states"


def test_every_insight_die_saves_a_dying_character():
    track = games.kit("xerosum").wound_track
    settings = game_settings.clean_settings("xerosum", None)
    dying = {"insight_dice": 3, "wound_points": 0, "resilience_points": 2, "experience": 5}
    assert track.rescue(dying, settings) == {
        "insight_dice": 0,
        "wound_points": 3,
        "resilience_points": 5,
        "experience": 5,
    }
    for resources, code in (
        ({**dying, "insight_dice": 0}, "insufficient_insight_dice"),
        ({**dying, "wound_points": 1}, "not_dying"),
    ):
        with pytest.raises(ServiceError) as caught:
            track.rescue(resources, settings)
        assert (caught.value.code, caught.value.field) == (code, "character")


def test_other_games_have_no_rescue():
    with pytest.raises(ServiceError) as caught:
        games.kit("rd6").wound_track.rescue({"wounds": 24}, {})
    assert caught.value.code == "no_rescue"


def test_a_game_without_a_track_has_no_state():
    class Trackless(sixes.Sixes):
        wound_track = None  # the test game without the track it declares

    assert Trackless().wounds({"wounds": 9, "fallen": 1}, {}) is None
    assert sixes.KIT.wounds({"wounds": 9}, {}) is not None


@pytest.mark.parametrize("game", ["fgr", "xerosum", "rd6", "apocalyptia"])
def test_a_new_character_starts_unhurt(game):
    settings = game_settings.clean_settings(game, None)
    kit = games.kit(game)
    fresh = kit.wounds(kit.starting_resources(settings), settings)
    assert fresh == {"state": fresh["state"], "out": False, "dead": False, "hurt": False}
