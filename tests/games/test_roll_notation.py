"""Each game's chat dice notation reads into the request the tray would send,
and every request it makes is one the rules contract takes; what it cannot
read is refused on `text` with the game's syntax."""

import pytest

from tests.games.sixes import KIT as SIXES
from vtt import games
from vtt.core.errors import ServiceError
from vtt.games.game_settings import defaults
from vtt.rules.engine import clean_fields, find_action

READS = [
    # The examples every game must read.
    (
        "artifice",
        "4D vs 3D",
        {"system": "artifice", "action": "test", "actor": {"pool": 4}, "opponent": {"pool": 3}},
    ),
    (
        "artifice",
        "3D diff 2",
        {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2},
    ),
    (
        "rd6",
        "4D+2 diff 3 cp 1",
        {
            "system": "rd6",
            "action": "roll",
            "dice": 4,
            "pips": 2,
            "difficulty": 3,
            "character_points": 1,
        },
    ),
    ("fgr", "3 diff 2", {"system": "fgr", "action": "roll", "skill": 3, "difficulty": 2}),
    ("xerosum", "2d6+2+1", {"system": "xerosum", "action": "check", "amod": 2, "smod": 1}),
    (
        "apocalyptia",
        "d6+3 vs 4",
        {"system": "apocalyptia", "action": "roll", "bonus": 3, "difficulty": 4, "kind": "skill"},
    ),
    # Where the examples leave gaps.
    ("artifice", "3D", {"system": "artifice", "action": "check", "pool": 3, "difficulty": 0}),
    (
        "artifice",
        "3d + 1 diff Moderate",
        {"system": "artifice", "action": "check", "pool": 3, "modifier": 1, "difficulty": 2},
    ),
    (
        "artifice",
        "5D-1 vs 3D wound",
        {
            "system": "artifice",
            "action": "test",
            "actor": {"pool": 5, "modifier": -1},
            "opponent": {"pool": 3},
            "kind": "wound",
        },
    ),
    ("rd6", "3D", {"system": "rd6", "action": "roll", "dice": 3}),
    (
        "rd6",
        "2D+1 fp diff heroic",
        {
            "system": "rd6",
            "action": "roll",
            "dice": 2,
            "pips": 1,
            "fate_point": True,
            "difficulty": 5,
        },
    ),
    (
        "rd6",
        "3D vs 2D+2 cp 2",
        {
            "system": "rd6",
            "action": "opposed",
            "actor": {"dice": 3, "character_points": 2},
            "opponent": {"dice": 2, "pips": 2},
        },
    ),
    ("fgr", "3", {"system": "fgr", "action": "roll", "skill": 3, "difficulty": 1}),
    (
        "fgr",
        "3D-1 ap 2 diff difficult",
        {
            "system": "fgr",
            "action": "roll",
            "skill": 3,
            "modifier_dice": -1,
            "action_points": 2,
            "difficulty": 3,
        },
    ),
    ("fgr", "4 sum", {"system": "fgr", "action": "numeric", "dice": 4}),
    ("xerosum", "2d6", {"system": "xerosum", "action": "check"}),
    (
        "xerosum",
        "3d6 +0 -1 +2 insight",
        {
            "system": "xerosum",
            "action": "check",
            "smod": -1,
            "cmod": 2,
            "insight_extra_die": True,
            "insight_cmod": True,
        },
    ),
    (
        "xerosum",
        "2d6+1 vs 2d6+2",
        {"system": "xerosum", "action": "opposed", "actor": {"amod": 1}, "opponent": {"amod": 2}},
    ),
    (
        "apocalyptia",
        "1d6-1 vs 5 trait calm",
        {
            "system": "apocalyptia",
            "action": "roll",
            "bonus": -1,
            "difficulty": 5,
            "kind": "trait",
            "stressful": False,
        },
    ),
    (
        "apocalyptia",
        "d6+3 vs d6+2",
        {
            "system": "apocalyptia",
            "action": "opposed",
            "actor": {"bonus": 3},
            "opponent": {"bonus": 2},
        },
    ),
    (
        "apocalyptia",
        "d6+2",
        {"system": "apocalyptia", "action": "roll", "bonus": 2, "difficulty": 0, "kind": "skill"},
    ),
]


@pytest.mark.parametrize("game, text, request_", READS, ids=[f"{g}:{t}" for g, t, _ in READS])
def test_the_notation_reads_into_the_request(game, text, request_):
    read = games.kit(game).parse_roll(text, defaults(game))
    assert read == request_
    _, _, action = find_action(read)
    clean_fields(action, read)  # a request the rules contract takes as it is


REFUSED = [
    ("artifice", "3X"),
    ("artifice", "3D diff"),
    ("artifice", "3D diff two"),
    ("artifice", "3D vs"),
    ("artifice", "3D diff 2 vs 3D"),
    ("artifice", ""),
    ("rd6", "4D+2 cp 1 cp 2"),
    ("rd6", "4D+2 diff 3 juggle"),
    ("fgr", "3 sum ap 1"),
    ("fgr", "3+1 sum"),
    ("fgr", "three diff 2"),
    ("xerosum", "2d6+1+1+1+1"),
    ("xerosum", "4d6"),
    ("apocalyptia", "d6+3 vs 4 trait loot"),
    ("apocalyptia", "d8+3"),
]


@pytest.mark.parametrize("game, text", REFUSED, ids=[f"{g}:{t}" for g, t in REFUSED])
def test_what_it_cannot_read_is_refused_with_the_syntax(game, text):
    kit = games.kit(game)
    with pytest.raises(ServiceError) as refused:
        kit.parse_roll(text, defaults(game))
    assert (refused.value.code, refused.value.field) == ("bad_roll", "text")
    # The message shows how this game's rolls are written.
    assert f"{kit.name}: /r " in refused.value.message


@pytest.mark.parametrize("game", sorted(games.KITS))
def test_every_game_has_help_that_shows_its_rolls(game):
    help_text = games.kit(game).roll_help(defaults(game))
    assert help_text.count("/r ") >= 3


def test_a_game_without_a_notation_takes_its_fields_by_name():
    assert SIXES.parse_roll("pool=3 grit", {}) == {
        "system": "sixes",
        "action": "roll",
        "pool": 3,
        "grit": True,
    }
    assert SIXES.parse_roll("roll pool=4 target=6", {})["target"] == 6
    assert "roll: pool, target, grit" in SIXES.roll_help({})
    with pytest.raises(ServiceError) as refused:
        SIXES.parse_roll("", {})
    assert refused.value.code == "bad_roll"
