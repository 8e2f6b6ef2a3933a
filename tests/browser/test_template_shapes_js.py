"""The browser's template shapes (static/js/map/template_shapes.js) against
the server's (vtt/areas/geometry.py), in Chromium: for every shape, sizes
from 1 to 12 squares, every angle a cone or a line takes in steps of 5° and
corners on and near the map's edge, both cover exactly the same squares, so
what the placer sees inside is what the server attacks. The cases include
centres lying on a cone's edge exactly."""

from pathlib import Path

import pytest

from vtt.areas import geometry

pytestmark = pytest.mark.browser

SHAPES_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "map" / "template_shapes.js"
WIDTH, HEIGHT = 18, 14


def cases() -> list[dict]:
    found = []
    for shape in geometry.SHAPES:
        angles = range(0, 360, 5) if shape in geometry.TURNING else (0,)
        for size in (1, 2, 3, 4, 7, 12):
            for angle in angles:
                for x, y in ((0, 0), (6, 7), (17, 3), (18, 14)):
                    found.append({"shape": shape, "x": x, "y": y, "size": size, "angle": angle})
    return found


def test_the_page_covers_the_squares_the_server_does(browser):
    page = browser.new_page()
    every = cases()
    covered = page.evaluate(
        """async ([source, cases, width, height]) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const { squares } = await import(url);
          return cases.map((t) => [...squares(t, width, height)].sort());
        }""",
        [SHAPES_JS.read_text(), every, WIDTH, HEIGHT],
    )
    page.close()
    differ = []
    for case, seen in zip(every, covered, strict=True):
        server = geometry.squares(
            case["shape"], case["x"], case["y"], case["size"], case["angle"], WIDTH, HEIGHT
        )
        if sorted(f"{i},{j}" for i, j in server) != seen:
            differ.append(case)
    assert len(every) > 3000
    assert differ == []
