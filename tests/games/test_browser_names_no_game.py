"""No script knows a game: the browser draws every game's words and controls
from its kit's declaration (GameKit.browser, the tray spec and the room
config), so no JavaScript file under static/ names a game, a field of a
game's sheet or a kind of wound track (docs/architecture.md, "A game").

The names come from the kits themselves, so a new game's are checked too:
each game's id and name, the counters its characters carry, the campaign
settings it adds (a name every game shares, like `diagonal`, is the
table's and not a game's) and its wound track's kind and resource."""

import re
from pathlib import Path

import pytest

from vtt import games
from vtt.games.kit import TABLE_SETTINGS

from . import sixes

STATIC = Path(__file__).resolve().parents[2] / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))

# The one generic key that is also a game's counter: every character the
# server sends carries its wound state as `wounds` (room_config and
# serialize: kit.wounds), whatever the game, so `character.wounds` is the
# table's word. The counter itself (`resources.wounds`) is still refused.
SERVED = {"wounds"}

COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)


def every_kit():
    return [*games.KITS.values(), sixes.KIT, sixes.STRAIN_KIT]


def game_names() -> set[str]:
    """Every game's id and name (said in any case, comments included)."""
    return {name for kit in every_kit() for name in (kit.id, kit.name)}


def field_names() -> dict[str, set[str]]:
    """name -> the games that have it: counters, settings of their own and
    the wound track's resource and kind, less what every game shares."""
    found: dict[str, set[str]] = {}
    kits = every_kit()
    for kit in kits:
        track = kit.wound_track
        names = {
            *kit.counters,
            *kit.starting_resources({k: s.default for k, s in kit.settings.items()}),
            *(k for k in kit.settings if k not in TABLE_SETTINGS),
            *((track.kind, *track.reads) if track else ()),
            *(track.settings if track else ()),
        }
        for name in names:
            found.setdefault(name, set()).add(kit.id)
    shared = {name for name, ids in found.items() if set(games.KITS) <= ids}
    return {name: ids for name, ids in found.items() if name not in shared}


def code(text: str) -> str:
    return COMMENTS.sub("", text)


def field_hits(text: str, name: str) -> list[str]:
    """Where `name` is used as a field: a string that is the name, a
    property (`.name`, `?.name`) or an object key (`name:`)."""
    quoted = rf"([\"'`]){name}\1"
    prop = rf"(?<![\w$])(\w*)\s*\??\.\s*{name}(?![\w$])"
    key = rf"(?<![\w$.]){name}\s*:(?!:)"
    hits = [m.group(0) for m in re.finditer(quoted, text)]
    hits += [m.group(0) for m in re.finditer(key, text)]
    for m in re.finditer(prop, text):
        if name in SERVED and m.group(1) != "resources":
            continue  # the character's served wound state, not the counter
        hits.append(m.group(0))
    return hits


def test_the_scripts_are_found():
    assert len(SCRIPTS) > 40
    assert STATIC / "js" / "room" / "main.js" in SCRIPTS


def test_the_names_come_from_the_kits():
    names = field_names()
    # A few the games really have, so the list is not empty by mistake.
    for name in ("action_points", "insight_dice", "wound_points", "condition_track", "dying"):
        assert name in names
    assert "experience" not in names  # every game's
    assert "diagonal" not in names
    assert {"rd6", "xerosum", "sixes"} <= game_names()


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_script_names_a_game(path):
    text = path.read_text()
    said = [
        name
        for name in game_names()
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I)
    ]
    assert not said, f"{path.relative_to(STATIC)} names the game(s) {said}"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_script_names_a_game_field_or_track(path):
    text = code(path.read_text())
    found = {
        name: (ids, hits)
        for name, ids in field_names().items()
        if (hits := field_hits(text, re.escape(name)))
    }
    assert not found, f"{path.relative_to(STATIC)} uses game fields: " + "; ".join(
        f"{name} ({', '.join(sorted(ids))}): {hits[:3]}" for name, (ids, hits) in found.items()
    )


def test_the_check_would_see_one():
    """The check is not blind: it finds each way a script could name one."""
    assert field_hits('if (x.kind === "dying")', "dying")
    assert field_hits("const have = c.resources?.insight_dice ?? 0;", "insight_dice")
    assert field_hits("return { condition_track: [] };", "condition_track")
    assert field_hits("r.resources.wounds > 0", "wounds")
    assert not field_hits("const w = c.wounds;", "wounds")
    assert not field_hits('el("li", { class: "turns-dying" })', "dying")
    assert not code("// a Dying character\nx();").count("Dying")
