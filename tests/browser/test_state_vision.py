"""The room's model of fog of war (static/js/room/state.js), run in Chromium
on frames written as the protocol gives them: the snapshot's vision, live
vision frames (another scene's ignored), tokens entering and leaving view
with any event's `data.sight` and with `sight.changed` (those entering
named for the turn order, which may lack them), and the vision
dropped when the fog is lifted or the map changes."""

import pytest

from tests.live.test_verify_events import STATE_JS

pytestmark = pytest.mark.browser

SCENE = {"id": 4, "name": "Vault", "width": 14, "height": 8, "walls": [], "fog": True}
TENREC = {"id": 1, "scene_id": 4, "name": "Tenrec", "x": 5, "y": 3, "version": 2}
GHOUL = {"id": 2, "scene_id": 4, "name": "Ghoul", "x": 10, "y": 2, "version": 1}
VISION = {
    "scene": 4,
    "group": "party",
    "view": "M0 0 L7 0 L7 8 L0 8 Z",
    "explored": "M0 0 L7 0 L7 8 L0 8 Z",
    "tokens": [1],
}


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def run(page, snapshot, steps):
    """Apply `steps` ([kind, frame], kind "event" or "vision") to the state
    read from `snapshot`; the state and each step's effect names."""
    return page.evaluate(
        """async ([source, snapshot, steps]) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const { applyEvent, applyVision, fromSnapshot } = await import(url);
          const state = fromSnapshot(snapshot);
          const effects = steps.map(([kind, frame]) =>
            (kind === "event" ? applyEvent(state, frame) : applyVision(state, frame)).map((e) => e[0]));
          return { state, effects };
        }""",
        [STATE_JS.read_text(), snapshot, steps],
    )


def snapshot(**extra):
    tokens = {"fields": list(TENREC), "defaults": {}, "rows": [list(TENREC.values())]}
    return {"seq": 10, "campaign": {"id": 1}, "scene": SCENE, "tokens": tokens, **extra}


def test_the_snapshot_vision_is_held_and_one_for_another_scene_is_not(page):
    held = run(page, snapshot(vision=VISION), [])["state"]
    assert held["vision"] == VISION
    assert run(page, snapshot(vision={**VISION, "scene": 5}), [])["state"]["vision"] is None
    assert run(page, snapshot(vision=None), [])["state"]["vision"] is None


def test_a_live_vision_frame_replaces_the_vision_unless_for_another_scene(page):
    wider = {"type": "vision", **VISION, "view": "M0 0 L14 0 L14 8 L0 8 Z", "tokens": [1, 2]}
    elsewhere = {"type": "vision", **VISION, "scene": 5, "view": ""}
    result = run(page, snapshot(vision=VISION), [["vision", wider], ["vision", elsewhere]])
    assert result["state"]["vision"]["view"] == wider["view"]
    assert result["state"]["vision"]["tokens"] == [1, 2]
    assert "type" not in result["state"]["vision"]
    assert result["effects"] == [["vision"], []]


def test_a_vision_frames_lit_areas_are_held_with_it(page):
    lit = [{"color": "#ffb347", "bright": "M1 1 L2 1 L2 2 Z", "dim": "M0 0 L3 0 L3 3 Z"}]
    lamp = {"type": "vision", **VISION, "lit": lit}
    result = run(page, snapshot(vision=VISION), [["vision", lamp]])
    assert result["state"]["vision"]["lit"] == lit
    out = {"type": "vision", **VISION, "lit": []}
    assert (
        run(page, snapshot(vision=VISION), [["vision", lamp], ["vision", out]])["state"]["vision"][
            "lit"
        ]
        == []
    )


def test_tokens_enter_and_leave_view_with_any_event(page):
    door_opened = {
        "seq": 11,
        "type": "scene.updated",
        "data": {"scene": SCENE, "sight": {"enter": [GHOUL], "leave": []}},
    }
    door_closed = {
        "seq": 12,
        "type": "scene.updated",
        "data": {"scene": SCENE, "sight": {"enter": [], "leave": [2]}},
    }
    result = run(page, snapshot(), [["event", door_opened]])
    assert sorted(result["state"]["tokens"]) == ["1", "2"]
    # The page draws the ghoul, and asks whether the turn order lacks it.
    assert result["effects"][0] == ["scene", "token", "sighted", "tokensChanged"]
    result = run(page, snapshot(), [["event", door_opened], ["event", door_closed]])
    assert sorted(result["state"]["tokens"]) == ["1"]
    assert "untoken" in result["effects"][1]
    assert result["state"]["seq"] == 12


def test_sight_changed_moves_tokens_in_and_out_and_is_logged(page):
    came = {"seq": 11, "type": "sight.changed", "data": {"enter": [GHOUL], "leave": [1]}}
    result = run(page, snapshot(), [["event", came]])
    assert list(result["state"]["tokens"]) == ["2"]
    assert result["effects"] == [["token", "untoken", "sighted", "tokensChanged"]]
    assert result["state"]["log"][-1]["type"] == "sight.changed"


def test_a_token_walking_into_view_is_named_for_the_turn_order_once(page):
    """The ghoul's own move brings it into view: its event carries it (not
    `sight.enter`), and the page is told a token it did not have arrived; a
    move of a token it had is not news."""
    walked = {"seq": 11, "type": "token.moved", "data": {"token": GHOUL, "from": [12, 2]}}
    again = {"seq": 12, "type": "token.moved", "data": {"token": {**GHOUL, "version": 2}}}
    result = run(page, snapshot(), [["event", walked], ["event", again]])
    assert "sighted" in result["effects"][0]
    assert "sighted" not in result["effects"][1]


def test_lifting_the_fog_or_changing_the_map_drops_the_vision(page):
    lifted = {"seq": 11, "type": "scene.updated", "data": {"scene": {**SCENE, "fog": False}}}
    result = run(page, snapshot(vision=VISION), [["event", lifted]])
    assert result["state"]["vision"] is None
    assert result["effects"] == [["scene", "vision"]]
    other = {**SCENE, "id": 5, "name": "Crypt"}
    moved = {"seq": 11, "type": "scene.activated", "data": {"scene": other, "tokens": []}}
    assert run(page, snapshot(vision=VISION), [["event", moved]])["state"]["vision"] is None


def slim(token: dict, **moved) -> dict:
    """A move's token: what it changed ({id, scene_id, x, y, version, hidden})."""
    fields = {**token, "hidden": False, **moved}
    return {key: fields[key] for key in ("id", "scene_id", "x", "y", "version", "hidden")}


def test_a_slim_move_is_laid_over_the_held_token_and_a_whole_one_replaces_it(page):
    moved = {
        "seq": 11,
        "type": "token.moved",
        "data": {"token": slim(TENREC, x=6, version=3), "from": [5, 3]},
    }
    older = {  # logged before moves were slim: the whole token
        "seq": 12,
        "type": "token.moved",
        "data": {"token": {**TENREC, "x": 7, "version": 4}, "from": [6, 3]},
    }
    result = run(page, snapshot(), [["event", moved], ["event", older]])
    assert result["state"]["tokens"]["1"] == {**TENREC, "x": 7, "version": 4}
    assert result["effects"][0][:3] == ["token", "trail", "tokenMoved"]
    # The log holds the event as it came.
    assert result["state"]["log"][0]["data"]["token"] == slim(TENREC, x=6, version=3)
    halfway = run(page, snapshot(), [["event", moved]])["state"]["tokens"]["1"]
    assert halfway == {**TENREC, "x": 6, "version": 3, "hidden": False}


def test_a_token_walking_into_view_by_its_own_move_comes_whole_in_its_sight(page):
    ghoul = {**GHOUL, "x": 6, "version": 2, "hidden": False}
    walked_in = {
        "seq": 11,
        "type": "token.moved",
        "data": {
            "token": slim(ghoul),
            "from": [10, 2],
            "sight": {"enter": [ghoul], "leave": []},
        },
    }
    unknown = {  # a slim move of a token not held changes nothing on the map
        "seq": 12,
        "type": "token.moved",
        "data": {"token": slim({**GHOUL, "id": 9}), "from": [1, 1]},
    }
    result = run(page, snapshot(), [["event", walked_in], ["event", unknown]])
    assert result["state"]["tokens"]["2"] == ghoul
    assert "9" not in result["state"]["tokens"]
    assert "sighted" in result["effects"][0] and "token" in result["effects"][0]
    assert "token" not in result["effects"][1]
