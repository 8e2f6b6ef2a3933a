import pytest

from vtt import games
from vtt.core.errors import ServiceError
from vtt.games import game_settings
from vtt.games.artifice import sheet as artifice


@pytest.mark.parametrize("game", games.ids())
def test_defaults_are_clean_and_complete(game):
    clean = game_settings.clean_settings(game, None)
    declared = games.kit(game).settings
    assert clean == {key: setting.default for key, setting in declared.items()}
    assert clean["diagonal"] == "uniform"
    # The defaults are copies: changing one campaign's settings leaves the table alone.
    clean["diagonal"] = "alternating"
    if "condition_track" in clean:
        clean["condition_track"].append("Gone")
    assert game_settings.defaults(game) == {k: s.default for k, s in declared.items()}
    assert declared["diagonal"].default == "uniform"


def test_partial_update_keeps_the_rest():
    base = game_settings.clean_settings("rd6", {"complication": "narrate"})
    clean = game_settings.clean_settings("rd6", {"character_point_cap": 4}, base=base)
    assert clean["complication"] == "narrate"
    assert clean["character_point_cap"] == 4
    assert clean["catastrophic_failure"] is False


@pytest.mark.parametrize(
    ("game", "settings", "code", "field"),
    [
        ("artifice", {"complication": "narrate"}, "unknown_field", "settings.complication"),
        ("rd6", {"condition_track": ["A", "B", "C"]}, "unknown_field", "settings.condition_track"),
        ("rd6", {"complication": "explode"}, "invalid", "settings.complication"),
        ("rd6", {"character_point_cap": 11}, "invalid", "settings.character_point_cap"),
        ("rd6", {"character_point_cap": True}, "invalid", "settings.character_point_cap"),
        ("rd6", {"catastrophic_failure": "yes"}, "invalid", "settings.catastrophic_failure"),
        ("fgr", {"diagonal": "euclid"}, "invalid", "settings.diagonal"),
        ("artifice", {"condition_track": ["Fine", "Dead"]}, "invalid", "settings.condition_track"),
        ("artifice", {"condition_track": ["A", "a", "B"]}, "invalid", "settings.condition_track"),
        ("artifice", {"condition_track": "Healthy"}, "invalid", "settings.condition_track"),
        (
            "artifice",
            {"condition_track": ["A", " ", "B"]},
            "invalid",
            "settings.condition_track[1]",
        ),
        (
            "artifice",
            {"abilities": {"Strength": ["A", "B"]}},
            "invalid",
            "settings.abilities.Strength",
        ),
        ("xerosum", [], "invalid", "settings"),
    ],
)
def test_bad_settings_name_the_field(game, settings, code, field):
    with pytest.raises(ServiceError) as caught:
        game_settings.clean_settings(game, settings)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_artifice_abilities_are_renameable_but_distinct():
    renamed = {**artifice.ABILITIES, "Will Power": ["Resolve", "Presence", "Luck"]}
    clean = game_settings.clean_settings("artifice", {"abilities": renamed})
    assert "Luck" in artifice.ability_names(clean)
    assert artifice.ability_attribute(clean, "Luck") == "Will Power"
    twice = {**artifice.ABILITIES, "Will Power": ["Resolve", "Presence", "Might"]}
    with pytest.raises(ServiceError) as caught:
        game_settings.clean_settings("artifice", {"abilities": twice})
    assert caught.value.field == "settings.abilities.Will Power"


def test_unknown_game_is_invalid():
    with pytest.raises(ServiceError) as caught:
        game_settings.clean_settings("d20", {})
    assert caught.value.field == "game"
