"""A game lives in its own package (vtt/games/<game>/): outside it, no code
of vtt/, no template and no browser code names the game's id or a field of
its sheet that is the game's alone. Read as text, as a grep would, so a
comment or a string counts as much as code.

A game's sheet fields are read from its kit: the keys of a blank sheet and
of a new entry, and its character's counters, less those another game also
has on its sheet or in its rolls' fields (a name two games share is the
table's, not one game's). Sixes, the
test-only game, is checked with the five."""

import re
from pathlib import Path

import pytest

from tests.games import sixes
from vtt import games

ROOT = Path(__file__).resolve().parents[2]
TREES = {
    "vtt": ROOT / "vtt",
    "templates": ROOT / "templates",
    "static": ROOT / "static",
}
# Folders where a game may be named, and why. Keep this short.
ALLOWED_PLACES = {
    # A migration is history: it says what the games were when it was
    # written, and it runs as written forever.
    "migrations": "history",
}
# Names that are also plain words of Python, HTML or SQL, or of every d6
# game ("exploding sixes", the test game's id), so a grep for them finds
# everything: not checked.
COMMON_WORDS = {"class", "code", "condition", "sixes"}
# Parts that still name a game, each with what is left to do. Strict: the
# day a part is clean, its mark must go.
PENDING: dict = {}
TEXT = {".py", ".html", ".js", ".mjs", ".css", ".txt", ".json", ".md"}


def _kits() -> dict:
    return {**games.KITS, sixes.KIT.id: sixes.KIT}


def _keys(value, found: set) -> set:
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            _keys(inner, found)
    elif isinstance(value, list | tuple):
        for inner in value:
            _keys(inner, found)
    return found


def _field_names(kit, requests: bool = False) -> set:
    """The sheet's field names and the counters; with `requests`, the rules'
    request fields too (a name another game's rolls use is not one game's)."""
    settings = {key: setting.default for key, setting in kit.settings.items()}
    found = _keys(kit.clean_sheet({}, settings), set())
    found |= _keys(kit.new_entries, set())
    found |= set(kit.starting_resources(settings))
    if requests:
        for action in kit.system.actions.values():
            found |= set(action.fields)
    # Names as code writes them; "Strength" or "Will Power" are the game's
    # words for the players, not fields.
    return {name for name in found if re.fullmatch(r"[a-z][a-z0-9_]*", name)}


def _own_fields(game: str) -> set:
    kits = _kits()
    fields = _field_names(kits[game])
    others = set().union(
        *(_field_names(kit, requests=True) for other, kit in kits.items() if other != game)
    )
    return fields - others - COMMON_WORDS


def _names(game: str) -> list[str]:
    return sorted(({game} - COMMON_WORDS) | _own_fields(game))


def _hits(tree: Path, game: str) -> list[str]:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, _names(game))) + r")\b")
    own = ROOT / "vtt" / "games" / game
    hits = []
    for path in sorted(tree.rglob("*")):
        if not path.is_file() or path.suffix not in TEXT or own in path.parents:
            continue
        if any(part in ALLOWED_PLACES for part in path.relative_to(ROOT).parts):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            found = pattern.search(line)
            if found:
                hits.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)}")
    return hits


def _cases():
    for tree in TREES:
        for game in sorted(_kits()):
            reason = PENDING.get((tree, game))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(tree, game, marks=marks, id=f"{tree}-{game}")


@pytest.mark.parametrize(("tree", "game"), list(_cases()))
def test_only_the_games_own_package_names_it(tree, game):
    assert _hits(TREES[tree], game) == []


def test_the_field_names_checked_are_the_games_own():
    # The check would pass vacuously if no field were found: each game has
    # some of its own (Rd6's Character Points, Xero Sum's Insight Dice...).
    assert {"character_points", "fate_points"} <= _own_fields("rd6")
    assert {"insight_dice", "smod"} <= _own_fields("xerosum")
    assert {"traits"} <= _own_fields("apocalyptia")
    assert {"abilities"} <= _own_fields("artifice")
    assert {"grit"} <= _own_fields("sixes")
    # ...and none another game has too.
    assert "skills" not in _own_fields("rd6")
