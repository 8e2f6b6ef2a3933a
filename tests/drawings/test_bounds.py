"""A drawing's bounds: each refusal names its field, nothing is stored and
no event is appended."""

import pytest

from vtt.core.errors import ServiceError
from vtt.drawings.models import Drawing
from vtt.tabletop.models import RoomEvent

from .table import draw, make_table

pytestmark = pytest.mark.django_db

HUGE = [[1 + i % 10, 1 + (i // 10) % 5] for i in range(100_000)]


@pytest.mark.parametrize(
    ("points", "fields", "code", "field"),
    [
        (HUGE, {}, "too_many", "points"),
        ([[1, 1]] * 2001, {}, "too_many", "points"),
        ([[1, 1]], {}, "invalid", "points"),
        ([], {}, "invalid", "points"),
        ("1,1 2,2", {}, "invalid", "points"),
        ([[1, 1], [21, 1]], {}, "out_of_bounds", "points[1]"),  # the map is 20 wide
        ([[1, 1], [1, -0.01]], {}, "out_of_bounds", "points[1]"),
        ([[1, 1], [1, 10.5]], {}, "out_of_bounds", "points[1]"),
        ([[1, 1], [float("nan"), 1]], {}, "invalid", "points[1]"),
        ([[1, 1], [float("inf"), 1]], {}, "invalid", "points[1]"),
        ([[1, 1], [True, 1]], {}, "invalid", "points[1]"),
        ([[1, 1], [1, 1, 1]], {}, "invalid", "points[1]"),
        ([[1, 1], "2,2"], {}, "invalid", "points[1]"),
        ([[1, 1], [2, 2], [3, 3]], {"shape": "line"}, "too_many", "points"),
        ([[1, 1], [2, 2]], {"shape": "text", "text": "hi"}, "too_many", "points"),
        ([[1, 1]], {"shape": "text", "text": "   "}, "invalid", "text"),
        ([[1, 1]], {"shape": "text", "text": "x" * 201}, "invalid", "text"),
        ([[1, 1]], {"shape": "text", "text": "a\x00b"}, "invalid", "text"),
        ([[1, 1], [2, 2]], {"text": "words"}, "invalid", "text"),
        ([[1, 1], [2, 2]], {"shape": "star"}, "invalid", "shape"),
        ([[1, 1], [2, 2]], {"layer": "top"}, "invalid", "layer"),
        ([[1, 1], [2, 2]], {"color": "red"}, "invalid", "color"),
        ([[1, 1], [2, 2]], {"color": "#ff00001"}, "invalid", "color"),
        ([[1, 1], [2, 2]], {"color": "#ff000g"}, "invalid", "color"),
        ([[1, 1], [2, 2]], {"width": 0}, "invalid", "width"),
        ([[1, 1], [2, 2]], {"width": 9}, "invalid", "width"),
        ([[1, 1], [2, 2]], {"width": 2.5}, "invalid", "width"),
        ([[1, 1], [2, 2]], {"stroke": "k" * 41}, "invalid", "stroke"),
    ],
)
def test_bad_drawings_are_refused_and_nothing_is_stored(points, fields, code, field):
    t = make_table()
    before = RoomEvent.objects.count()
    with pytest.raises(ServiceError) as refused:
        draw(t.scene, t.gm, points, **fields)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert refused.value.message
    assert not Drawing.objects.exists()
    assert RoomEvent.objects.count() == before


def test_points_on_the_edge_are_on_the_map_and_kept_to_a_thousandth():
    t = make_table()
    drawing = draw(t.scene, t.gm, [[0, 0], [20, 10], [1.23456, 2.0004]])
    assert drawing.points == [[0, 0], [20, 10], [1.235, 2.0]]
    assert draw(t.scene, t.gm, [[1, 1]] * 2000).points[-1] == [1, 1]
    assert draw(t.scene, t.gm, [[0, 0], [1, 1]], color="#ABCDEF").color == "#abcdef"
