"""The room's model of the map's drawings (static/js/room/state.js), run in
Chromium on frames written as the protocol gives them: the snapshot's
scene carries them; drawing.added and drawing.moved keep one in id order,
drawing.removed and drawing.cleared drop theirs, another scene's are
ignored, a scene update keeps them, a scene change without them asks the
page to read them, and a snapshot's replayed log leaves them alone."""

import pytest

from tests.live.test_verify_events import STATE_JS

pytestmark = pytest.mark.browser

ME = {"id": 2, "name": "player"}


def drawing(id_, scene=4, **extra):
    return {
        "id": id_,
        "scene": scene,
        "by": ME,
        "shape": "line",
        "layer": "shared",
        "color": "#e53935",
        "width": 3,
        "points": [[1, 1], [2, 2]],
        "text": "",
        **extra,
    }


SCENE = {"id": 4, "name": "Vault", "width": 14, "height": 8, "walls": [], "fog": False}


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def run(page, drawings, events, replay=False):
    """Apply `events` (kind, data) to a snapshot whose scene holds
    `drawings`: the state's drawings and each event's effects."""
    return page.evaluate(
        """async ([source, drawings, events, replay]) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const { applyEvent, fromSnapshot, drawingsOf } = await import(url);
          const scene = {id: 4, name: "Vault", width: 14, height: 8, walls: [], fog: false, drawings};
          const state = fromSnapshot({seq: 10, campaign: {id: 1}, scene, tokens: []});
          const effects = events.map(([type, data], i) =>
            applyEvent(state, {seq: 11 + i, type, data}, {replay}));
          return { drawings: drawingsOf(state), scene: state.scene, effects };
        }""",
        [STATE_JS.read_text(), drawings, events, replay],
    )


def ids(result):
    return [d["id"] for d in result["drawings"]]


def test_added_and_moved_keep_the_scenes_drawings_in_id_order(page):
    moved = drawing(3, points=[[2, 1], [3, 2]])
    result = run(
        page,
        [drawing(3)],
        [
            ("drawing.added", {"drawing": drawing(5), "stroke": "k-1"}),
            ("drawing.added", {"drawing": drawing(1), "stroke": ""}),
            ("drawing.moved", {"drawing": moved}),
        ],
    )
    assert ids(result) == [1, 3, 5]
    assert result["drawings"][1]["points"] == [[2, 1], [3, 2]]
    assert result["effects"][0] == [["drawing", drawing(5), "k-1"]]
    assert result["effects"][2] == [["drawing", moved, ""]]


def test_removed_and_cleared_drop_theirs(page):
    result = run(
        page,
        [drawing(1), drawing(2), drawing(3), drawing(4)],
        [
            ("drawing.removed", {"id": 2, "scene": 4, "points": [[1, 1], [2, 2]]}),
            ("drawing.cleared", {"scene": 4, "layer": "all", "ids": [1, 4]}),
        ],
    )
    assert ids(result) == [3]
    assert result["effects"] == [[["undrawing", [2]]], [["undrawing", [1, 4]]]]


def test_another_scenes_drawings_are_ignored(page):
    result = run(
        page,
        [drawing(1)],
        [
            ("drawing.added", {"drawing": drawing(7, scene=9), "stroke": ""}),
            ("drawing.removed", {"id": 1, "scene": 9, "points": [[1, 1]]}),
            ("drawing.cleared", {"scene": 9, "layer": "all", "ids": [1]}),
        ],
    )
    assert ids(result) == [1]
    assert result["effects"] == [[], [], []]


def test_a_scene_update_keeps_them_and_a_new_map_without_them_is_read(page):
    updated = {**SCENE, "name": "Vault, lit"}
    result = run(page, [drawing(1)], [("scene.updated", {"scene": updated})])
    assert ids(result) == [1] and result["scene"]["name"] == "Vault, lit"
    other = {**SCENE, "id": 9, "name": "Crypt"}
    result = run(page, [drawing(1)], [("scene.activated", {"scene": other, "tokens": []})])
    assert ["drawings", None] in result["effects"][0]
    assert ids(result) == [] and result["scene"]["name"] == "Crypt"
    carried = {**other, "drawings": [drawing(8, scene=9)]}
    result = run(page, [drawing(1)], [("scene.activated", {"scene": carried, "tokens": []})])
    assert ids(result) == [8]
    assert ["drawings", [drawing(8, scene=9)]] in result["effects"][0]


def test_the_drawings_read_for_a_new_map_keep_those_added_meanwhile(page):
    result = page.evaluate(
        """async ([source, read, added]) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const { applyEvent, fromSnapshot, drawingsOf, setDrawings } = await import(url);
          const scene = {id: 4, name: "Vault", width: 14, height: 8, walls: [], fog: false};
          const state = fromSnapshot({seq: 10, campaign: {id: 1}, scene, tokens: []});
          const crypt = {...scene, id: 9, name: "Crypt"};
          applyEvent(state, {seq: 11, type: "scene.activated", data: {scene: crypt, tokens: []}});
          applyEvent(state, {seq: 12, type: "drawing.added", data: {drawing: added, stroke: ""}});
          const late = setDrawings(state, 4, read);  // for the map the room left: ignored
          const effects = setDrawings(state, 9, read);
          return { late, effects, drawings: drawingsOf(state) };
        }""",
        [STATE_JS.read_text(), [drawing(3, scene=9), drawing(5, scene=9)], drawing(6, scene=9)],
    )
    assert result["late"] == []
    assert [d["id"] for d in result["drawings"]] == [3, 5, 6]
    assert result["effects"] == [["drawings", result["drawings"]]]


def test_a_snapshots_replayed_log_leaves_them_alone(page):
    result = run(
        page,
        [drawing(1)],
        [("drawing.removed", {"id": 1, "scene": 4, "points": []})],
        replay=True,
    )
    assert ids(result) == [1] and result["effects"] == [[]]
