"""The browser's fog preview (static/js/map/sight.js) against the server's
(vtt/rules/sight.py), in Chromium: the same walls read from the same stored
form, and visibility polygons of the same area holding the same points."""

import random
from pathlib import Path

import pytest
import shapely

from vtt.rules import sight

pytestmark = pytest.mark.browser

SIGHT_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "map" / "sight.js"

ROOMS = [  # two rooms, a doorway, an open and a closed door, a window, a pillar
    [2, 2, 9, 2],
    [9, 2, 9, 5],
    [9, 5, 9, 7, "door", "open"],
    [9, 7, 9, 9],
    [9, 9, 2, 9],
    [2, 9, 2, 6],
    [2, 4, 2, 2],
    [9, 2, 15, 2, "window"],
    [15, 2, 15, 9],
    [15, 9, 9, 9, "door", "locked"],
    [5, 5, 6, 5],
    [6, 5, 6, 6],
    [6, 6, 5, 6],
    [5, 6, 5, 5],
    [11.5, 4, 13.25, 7.5],
]
SCENES = [  # (eye, radius or None for a lit scene)
    ((3.5, 3.5), None),
    ((7.5, 7.5), None),
    ((12.5, 5.5), None),
    ((1.5, 11.5), None),
    ((4.5, 7.5), 4),
    ((10.5, 3.5), 2.5),
]
WIDTH, HEIGHT = 18, 13


@pytest.fixture(scope="module")
def js(browser):
    page = browser.new_page()
    source = SIGHT_JS.read_text()

    def call(body: str, arg):
        return page.evaluate(
            """async ([source, body, arg]) => {
              const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
              const s = await import(url);
              return new Function("s", "arg", body)(s, arg);
            }""",
            [source, body, arg],
        )

    yield call
    page.close()


def test_the_walls_read_the_same(js):
    parsed = js("return s.parseBarriers(arg);", ROOMS)
    ours = sight.parse_barriers(ROOMS)
    assert [(b["kind"], b["state"]) for b in parsed] == [(b.kind, b.state) for b in ours]
    assert js("return s.sightSegments(s.parseBarriers(arg));", ROOMS) == [
        list(seg) for seg in sight.sight_segments(ours)
    ]
    for bad in ([1, 2, 3], [1, 2, 3, "4"], [1, 2, 1, 2], [1, 2, 3, 4, "gate"]):
        message = js(
            "try { s.parseBarriers(arg); return null; } catch (e) { return e.message; }",
            [[0, 0, 1, 0], bad],
        )
        with pytest.raises(ValueError) as caught:
            sight.parse_barriers([[0, 0, 1, 0], bad])
        assert message is not None and message.startswith("walls[1]: "), bad
        assert message.split(":")[1].split()[0] == str(caught.value).split(":")[1].split()[0]


def test_the_visibility_polygons_match_the_servers(js):
    segments = sight.sight_segments(sight.parse_barriers(ROOMS))
    rings = js(
        """return arg.scenes.map(([eye, radius]) =>
             s.visibilityPolygon(eye, arg.segments, arg.width, arg.height, radius));""",
        {"scenes": SCENES, "segments": segments, "width": WIDTH, "height": HEIGHT},
    )
    rng = random.Random(3)
    samples = [(rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)) for _ in range(400)]
    for (eye, radius), ring in zip(SCENES, rings, strict=True):
        theirs = shapely.Polygon(ring)
        assert theirs.is_valid, eye
        scene = sight.Sight(segments, WIDTH, HEIGHT, lit=radius is None)
        ours = scene.view([sight.Eye(*eye, radius or 0)])
        # A radius is drawn with chords in the browser, just outside it on the server.
        slack = 1e-6 if radius is None else 0.005 * ours.area
        assert abs(theirs.area - ours.area) <= slack, (eye, theirs.area, ours.area)
        for x, y in samples:
            here = shapely.Point(x, y)
            if ours.boundary.distance(here) > 0.05:
                assert theirs.contains(here) == ours.contains(here), (eye, x, y)


def test_the_view_path_draws_every_eye(js):
    scene = {"width": WIDTH, "height": HEIGHT, "lit": True, "lights": []}
    eyes = [{"x": 3.5, "y": 3.5, "sight": 0}, {"x": 12.5, "y": 5.5, "sight": 0}]
    path = js(
        "return s.viewPath(arg.eyes, s.parseBarriers(arg.walls), arg.scene);",
        {"eyes": eyes, "walls": ROOMS, "scene": scene},
    )
    drawn = _area(path)
    segments = sight.sight_segments(sight.parse_barriers(ROOMS))
    ours = sight.Sight(segments, WIDTH, HEIGHT, True).view(
        [sight.Eye(3.5, 3.5), sight.Eye(12.5, 5.5)]
    )
    assert abs(drawn.area - ours.area) < 0.05
    dark = {**scene, "lit": False, "lights": [{"x": 7.5, "y": 7.5, "radius": 3}]}
    blind = js(
        "return s.viewPath(arg.eyes, s.parseBarriers(arg.walls), arg.scene);",
        {"eyes": eyes, "walls": ROOMS, "scene": dark},
    )
    assert blind == ""  # no eye sees in the dark by itself
    lit = js(
        "return s.lightPath(arg.eyes, s.parseBarriers(arg.walls), arg.scene);",
        {"eyes": eyes, "walls": ROOMS, "scene": dark},
    )
    torch, clip = _area(lit["light"]), _area(lit["clip"])
    expected = sight.Sight(segments, WIDTH, HEIGHT, False, [sight.Light(7.5, 7.5, 3)]).view(
        [sight.Eye(3.5, 3.5), sight.Eye(12.5, 5.5)]
    )
    assert abs(torch.intersection(clip).area - expected.area) <= 0.01 * expected.area


def _area(path: str):
    """What a path of subpaths covers drawn with fill-rule nonzero (each
    subpath a simple ring, all wound the same way): the union of its rings."""
    return shapely.union_all(
        [sight.from_path(part + " Z") for part in path.split(" Z") if part.strip()]
    )


def test_the_polygons_match_the_servers_among_many_walls(js):
    """Many walls, crossing and touching, on a bigger map: the walk of the
    cells a ray passes through finds what testing every wall finds."""
    rng = random.Random(7)
    side = 40
    segments = []
    for _ in range(160):
        x, y = rng.randrange(side), rng.randrange(side)
        if rng.random() < 0.5:
            segments.append((x, y, min(side, x + rng.randint(1, 6)), y))
        else:
            segments.append((x, y, x + rng.uniform(-4, 4), min(side, y + rng.uniform(0.5, 4))))
    segments = [s for s in segments if 0 <= s[2] <= side and (s[0], s[1]) != (s[2], s[3])]
    eyes = [(rng.randrange(side) + 0.5, rng.randrange(side) + 0.5) for _ in range(8)]
    rings = js(
        """return arg.eyes.map((eye) => s.visibilityPolygon(eye, arg.segments, arg.side, arg.side, null));""",
        {"eyes": eyes, "segments": segments, "side": side},
    )
    scene = sight.Sight(segments, side, side, lit=True)
    for eye, ring in zip(eyes, rings, strict=True):
        ours = scene.view([sight.Eye(*eye)])
        theirs = shapely.Polygon(ring) if ring else shapely.Polygon()
        assert abs(theirs.area - ours.area) <= 1e-6 * max(1, ours.area), eye


def test_the_preview_lights_what_the_server_lit(js):
    """On a dark scene the drag preview honours the lit areas the server
    sent (evenodd: a pillar's shadow is a hole): lit where an eye would
    see them from where it stands, as the server would decide."""
    segments = sight.sight_segments(sight.parse_barriers(ROOMS))
    lit_area = "M 2.5 2.5 L 8.5 2.5 L 8.5 8.5 L 2.5 8.5 Z M 5 5 L 6 5 L 6 6 L 5 6 Z"
    scene = {"width": WIDTH, "height": HEIGHT, "lit": False, "lights": []}
    for eye in ((3.5, 3.5), (12.5, 5.5), (7.5, 3.5)):
        drawn = js(
            "return s.previewLight([arg.eye], s.parseBarriers(arg.walls), arg.scene, [arg.area]);",
            {
                "eye": {"x": eye[0], "y": eye[1], "sight": 0},
                "walls": ROOMS,
                "scene": scene,
                "area": lit_area,
            },
        )
        assert drawn["areas"] == lit_area and drawn["light"] == ""
        seen = sight.from_path(drawn["areas"]).intersection(_area(drawn["clip"]))
        sees = sight.Sight(segments, WIDTH, HEIGHT, True).view([sight.Eye(*eye)])
        expected = sight.from_path(lit_area).intersection(sees)
        assert abs(seen.area - expected.area) <= 1e-6, eye
        assert not seen.contains(shapely.Point(5.5, 5.5))  # the pillar's shadow stays dark
    # Nothing lit, or a lit scene: nothing to draw.
    none = {"clip": "", "light": "", "areas": ""}
    args = {"walls": ROOMS, "scene": scene, "area": lit_area}
    assert (
        js(
            "return s.previewLight([{x: 3.5, y: 3.5, sight: 0}], s.parseBarriers(arg.walls), arg.scene, []);",
            args,
        )
        == none
    )
    lit_scene = {**args, "scene": {**scene, "lit": True}}
    assert (
        js(
            "return s.previewLight([{x: 3.5, y: 3.5, sight: 0}], s.parseBarriers(arg.walls), arg.scene, [arg.area]);",
            lit_scene,
        )
        == none
    )
