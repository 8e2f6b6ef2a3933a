"""The room page's wound states (static/js/room/wounds.js) against the
server's (vtt/games/wounds.py), in Chromium: for every game's track, and
Strain Sixes' of a kind of its own, the page reads the kit's declaration
(WoundTrack.declaration) and finds the same state, out and dead flags as
the kit for the same resources and settings, with the campaign's own
state names and thresholds too."""

from pathlib import Path

import pytest

from tests.games import sixes
from vtt import games

pytestmark = pytest.mark.browser

WOUNDS_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "room" / "wounds.js"

# Settings a campaign may change, by the setting's name.
CUSTOM = {
    "wound_states": {"ladder": ["Up", "Hurt", "Down", "Gone"], "dying": ["Fine", "Hurt", "Down"]},
    "wounds_per_state": 3,
    "starting_wound_points": 6,
    "condition_track": ["Fine", "Scratched", "Out", "Gone"],
}


def kits():
    return [*games.KITS.values(), sixes.KIT, sixes.STRAIN_KIT]


def resources_for(kit, settings) -> list:
    track = kit.wound_track
    if track.kind == "condition":
        names = settings.get("condition_track") or track.default_track
        return [{"condition": name} for name in [*names, "Unknown"]]
    return [{track.reads[0]: n} for n in range(0, 26)]


def settings_for(kit, custom: bool) -> dict:
    clean = {name: s.default for name, s in kit.settings.items()}
    if custom:
        for name in clean:
            value = CUSTOM.get(name)
            if isinstance(value, dict):
                value = value.get(kit.wound_track.kind)
            if value is not None:
                clean[name] = value
    return clean


@pytest.fixture(scope="module")
def js(browser):
    page = browser.new_page()
    source = WOUNDS_JS.read_text()

    def states(track, cases):
        return page.evaluate(
            """async ([source, track, cases]) => {
              const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
              const w = await import(url);
              return cases.map(([resources, settings]) => w.woundState(track, resources, settings));
            }""",
            [source, track, cases],
        )

    yield states
    page.close()


@pytest.mark.parametrize("custom", [False, True], ids=["defaults", "the campaign's"])
@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.id)
def test_the_page_reads_each_track_as_the_server_does(js, kit, custom):
    settings = settings_for(kit, custom)
    cases = [(r, settings) for r in resources_for(kit, settings)]
    found = js(kit.wound_track.declaration(), cases)
    for (resources, _), page in zip(cases, found, strict=True):
        server = kit.wounds(resources, settings)
        assert page == server, (kit.id, resources)
    # Not one state only: the cases walk the whole track.
    assert len({f["state"] for f in found}) >= 3
