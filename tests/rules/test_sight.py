"""Fog of war (vtt.rules.sight): barriers and their stored form, the exact
sight rule in rooms, doors, windows and the dark, the many-points answer
against the one-point answer, the drawn view against the rule, and the
explored area's path text."""

import math
import random
from fractions import Fraction

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vtt.rules import grid, sight
from vtt.rules.sight import (
    CLOSED,
    DOOR,
    LOCKED,
    OPEN,
    WALL,
    WINDOW,
    Barrier,
    Eye,
    Light,
    Sight,
)

W, H = 12, 10


def room(x0, y0, x1, y1, west=None):
    """A closed room's walls; `west` puts a door at y0+1..y0+2 in its west wall."""
    walls = [[x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1]]
    if west is None:
        walls.append([x0, y1, x0, y0])
    else:
        walls += [[x0, y1, x0, y0 + 2], [x0, y0 + 1, x0, y0], [x0, y0 + 1, x0, y0 + 2, DOOR, west]]
    return sight.parse_barriers(walls)


def centres(width=W, height=H):
    return [(x + 0.5, y + 0.5) for y in range(height) for x in range(width)]


# barriers ------------------------------------------------------------------------


def test_what_each_barrier_blocks():
    table = {
        (WALL, CLOSED): (True, True),
        (WINDOW, CLOSED): (False, True),
        (DOOR, CLOSED): (True, True),
        (DOOR, LOCKED): (True, True),
        (DOOR, OPEN): (False, False),
    }
    for (kind, state), (sees, moves) in table.items():
        b = Barrier(0, 0, 1, 0, kind, state)
        assert (b.blocks_sight(), b.blocks_movement()) == (sees, moves), (kind, state)


def test_the_stored_form_reads_and_writes_back_shortest():
    raw = [
        [0, 0, 4, 0],
        [4, 0, 4, 3.5, "window"],
        [4, 3.5, 4, 5, "door"],
        [0, 5, 2, 5, "door", "open"],
        [2, 5, 4, 5, "door", "locked"],
        [0, 0, 0, 5, "door", "closed"],
    ]
    barriers = sight.parse_barriers(raw)
    assert [b.kind for b in barriers] == [WALL, WINDOW, DOOR, DOOR, DOOR, DOOR]
    assert [b.state for b in barriers] == [CLOSED, CLOSED, CLOSED, OPEN, LOCKED, CLOSED]
    assert [b.as_list() for b in barriers] == raw[:5] + [[0, 0, 0, 5, "door"]]
    assert sight.parse_barriers([b.as_list() for b in barriers]) == barriers
    assert sight.sight_segments(barriers) == [
        (0, 0, 4, 0),
        (4, 3.5, 4, 5),
        (2, 5, 4, 5),
        (0, 0, 0, 5),
    ]
    assert sight.movement_segments(barriers) == [
        (0, 0, 4, 0),
        (4, 0, 4, 3.5),
        (4, 3.5, 4, 5),
        (2, 5, 4, 5),
        (0, 0, 0, 5),
    ]


@pytest.mark.parametrize(
    "bad, words",
    [
        ([1, 2, 3], "must be [x1, y1, x2, y2]"),
        ("1234", "must be [x1, y1, x2, y2]"),
        ([1, 2, 3, 4, "door", "open", "x"], "must be [x1, y1, x2, y2]"),
        ([1, "2", 3, 4], "y1 must be a number"),
        ([1, 2, None, 4], "x2 must be a number"),
        ([1, 2, 3, True], "y2 must be a number"),
        ([1, 2, 3, float("nan")], "y2 must be a number"),
        ([1, 2, 1, 2], "two different ends"),
        ([1, 2, 3, 4, "portcullis"], "the kind must be one of"),
        ([1, 2, 3, 4, 7], "the kind must be one of"),
        ([1, 2, 3, 4, "door", "ajar"], "a door's state is one of"),
        ([1, 2, 3, 4, "window", "open"], "only a door has a state"),
        ([1, 2, 3, 4, "wall", "closed"], "only a door has a state"),
    ],
)
def test_a_malformed_item_is_named_with_what_is_wrong(bad, words):
    with pytest.raises(ValueError) as caught:
        sight.parse_barriers([[0, 0, 1, 0], bad])
    assert str(caught.value).startswith("walls[1]: ")
    assert words in str(caught.value)
    assert caught.value.index == 1


def test_walls_must_be_a_list():
    with pytest.raises(ValueError, match="walls must be a list"):
        sight.parse_barriers({"walls": []})


# the rule, exactly -----------------------------------------------------------------


def test_an_eye_in_a_closed_room_sees_the_room_and_nothing_outside():
    scene = Sight(sight.sight_segments(room(2, 2, 8, 7)), W, H, lit=True)
    eye = Eye(4.5, 3.5)
    for x, y in centres():
        inside = 2 < x < 8 and 2 < y < 7
        assert scene.sees([eye], (x, y)) == inside, (x, y)
    assert scene.seen([eye], centres()) == [scene.sees([eye], p) for p in centres()]


@pytest.mark.parametrize("state, through", [(OPEN, True), (CLOSED, False), (LOCKED, False)])
def test_a_door_lets_sight_through_only_when_open(state, through):
    barriers = room(4, 2, 9, 7, west=state)  # the door spans (4, 3)..(4, 4)
    scene = Sight(sight.sight_segments(barriers), W, H, lit=True)
    eye, outside = Eye(6.5, 3.5), (1.5, 3.5)
    assert scene.sees([eye], outside) is through
    assert scene.seen([eye], [outside]) == [through]
    segments = sight.movement_segments(barriers)
    assert sight.path_blocked((eye.x, eye.y), outside, segments) is not through


def test_a_window_lets_sight_through_but_not_a_token():
    barriers = sight.parse_barriers([[5, 0, 5, 10, "window"]])
    scene = Sight(sight.sight_segments(barriers), W, H, lit=True)
    assert scene.sees([Eye(2.5, 4.5)], (8.5, 4.5))
    assert sight.path_blocked((2.5, 4.5), (8.5, 4.5), sight.movement_segments(barriers))
    assert not sight.path_blocked((2.5, 4.5), (4.5, 9.5), sight.movement_segments(barriers))


def test_in_the_dark_an_eye_sees_within_its_sight_or_what_a_light_in_view_lights():
    eye = Eye(1.5, 4.5, sight=2)
    dark = Sight([], W, H, lit=False)
    assert dark.sees([eye], (3.5, 4.5))  # 2 squares: within its sight
    assert not dark.sees([eye], (6.5, 4.5))  # 5 squares
    assert Sight([], W, H, lit=True).sees([eye], (6.5, 4.5))
    torch = Light(7.5, 4.5, radius=2)
    assert Sight([], W, H, False, [torch]).sees([eye], (6.5, 4.5))
    assert not Sight([], W, H, False, [torch]).sees([eye], (10.5, 4.5))  # 3 from the torch
    # The torch lights the point, but the eye's own line to it is walled.
    walled = Sight([(5, 3, 5, 6)], W, H, False, [torch])
    assert not walled.sees([eye], (6.5, 4.5))


def test_a_light_behind_a_wall_does_not_light_what_the_eye_sees():
    wall = (8, 0, 8, 10)  # between the torch and the point, not between eye and point
    torch = Light(9.5, 4.5, radius=3)
    scene = Sight([wall], W, H, False, [torch])
    eye = Eye(1.5, 4.5, sight=1)
    assert not scene.sees([eye], (7.5, 4.5))
    assert scene.seen([eye], [(7.5, 4.5), (1.5, 5.5)]) == [False, True]
    assert Sight([], W, H, False, [torch]).sees([eye], (7.5, 4.5))


def test_an_eye_sees_its_own_centre_and_nothing_off_the_map():
    blind = Eye(3.5, 3.5, sight=0)
    scene = Sight([(3, 3, 4, 4), (3, 4, 4, 3)], W, H, lit=False)  # crossed walls on its square
    assert scene.sees([blind], (3.5, 3.5))
    assert not scene.sees([blind], (3.5, 4.5))
    lit = Sight([], W, H, lit=True)
    assert not lit.sees([Eye(1.5, 1.5)], (-0.5, 1.5))
    assert not lit.sees([Eye(1.5, 1.5)], (1.5, H + 0.5))
    assert lit.sees([Eye(1.5, 1.5)], (W, H))  # the map's edge is on the map
    assert not lit.sees([Eye(-1, 1.5)], (1.5, 1.5))  # an eye off the map sees nothing
    assert not lit.sees([], (1.5, 1.5))


def test_corners_grazed_and_closed():
    # An L-shaped corner at (4, 4): sight along the diagonal through it is
    # stopped when its walls leave on both sides, not when they stay on one.
    closed = Sight([(4, 2, 4, 4), (4, 4, 6, 4)], W, H, lit=True)
    assert not closed.sees([Eye(2.5, 5.5)], (5.5, 2.5))
    grazed = Sight([(4, 2, 4, 4), (4, 4, 2, 4)], W, H, lit=True)
    assert grazed.sees([Eye(2.5, 5.5)], (5.5, 2.5))
    straight = Sight([(4, 0, 4, 4), (4, 4, 4, 9)], W, H, lit=True)  # one wall, two pieces
    assert not straight.sees([Eye(2.5, 3.5)], (5.5, 4.5))


def test_a_sight_line_on_a_fraction_of_a_square_is_exact():
    # The line from (0.5, 0) to (1.5, 3) passes exactly through (5/6, 1), the end of a wall.
    wall_left = (Fraction(5, 6), 1, 0, 1)
    wall_right = (Fraction(5, 6), 1, 2, 1)
    both = Sight([wall_left, wall_right], 3, 3, lit=True)
    one = Sight([wall_left], 3, 3, lit=True)
    eye = Eye(Fraction(1, 2), 0)
    assert not both.sees([eye], (1.5, 3))
    assert one.sees([eye], (1.5, 3))
    assert both.seen([eye], [(1.5, 3)]) == [False]
    assert one.seen([eye], [(1.5, 3)]) == [True]


def test_a_long_wall_hides_what_lies_behind_it_and_not_what_touches_it():
    # The wall covers whole directions from the eye, so what lies beyond it
    # is decided without testing each sight line against it: points on the
    # wall, a hair beyond it and far behind it must still get the rule's answer.
    scene = Sight([(0, 10, 200, 10)], 200, 200, lit=True)
    eye = Eye(100.5, 2.5)
    xs = [x + 0.5 for x in range(0, 200, 7)]
    points = [(x, y) for x in xs for y in (9.5, 10, 10 + 2**-30, 10.5, 150.5)]
    assert scene.seen([eye], points) == [scene.sees([eye], p) for p in points]
    assert all(scene.seen([eye], [(x, 10) for x in xs]))
    assert not any(scene.seen([eye], [(x, 10 + 2**-30) for x in xs]))


def test_eyes_and_lights_check_their_numbers():
    with pytest.raises(ValueError, match="sight cannot be negative"):
        Eye(1, 1, -1)
    with pytest.raises(ValueError, match="radius must be finite"):
        Light(1, 1, math.inf)
    with pytest.raises(ValueError, match="width and height"):
        Sight([], 0, 5, True)


# the rule, for many points ------------------------------------------------------------

coords = st.integers(0, 8)
grid_walls = st.lists(st.tuples(coords, coords, coords, coords), max_size=10)


def _box(corners):
    (x0, x1), (y0, y1) = sorted(corners[0::2]), sorted(corners[1::2])
    return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]


# Rooms: walls meeting at corners, which sight lines through grid corners meet.
boxes = st.lists(st.tuples(coords, coords, coords, coords).map(_box), max_size=2).map(
    lambda rooms: [wall for walls in rooms for wall in walls]
)
odd_walls = st.lists(
    st.tuples(*[st.fractions(0, 8, max_denominator=6) for _ in range(4)]), max_size=3
)
halves = st.integers(0, 16).map(lambda v: v / 2)
thirds = st.integers(0, 24).map(lambda v: Fraction(v, 3))
places = (
    st.tuples(halves, halves)
    | st.tuples(thirds, thirds)
    | st.tuples(st.floats(0, 8), st.floats(0, 8))
)
eyes_strategy = st.lists(
    st.builds(Eye, halves, halves, st.sampled_from([0, 1, 2.5, 4])), max_size=3
)
lights_strategy = st.lists(st.builds(Light, halves, halves, st.sampled_from([1, 3])), max_size=2)


def through_corners(eyes, rooms):
    """Points whose sight lines from an eye pass exactly through a room's corner."""
    corners = {(x, y) for x, y, _, _ in rooms}
    return [
        (x + t * (x - eye.x), y + t * (y - eye.y))
        for eye in eyes
        for x, y in corners
        for t in (Fraction(1, 2), 1, 3)
    ]


@settings(max_examples=150, deadline=None)
@given(
    walls=grid_walls,
    rooms=boxes,
    eyes=eyes_strategy,
    lights=lights_strategy,
    lit=st.booleans(),
    points=st.lists(st.tuples(halves, halves), max_size=25),
)
def test_seen_is_sees_on_the_grid(walls, rooms, eyes, lights, lit, points):
    # Walls on grid lines, centres on half squares: floats are exact here.
    scene = Sight(walls + rooms, 8, 8, lit, lights)
    points = points + through_corners(eyes, rooms)
    assert scene.seen(eyes, points) == [scene.sees(eyes, p) for p in points]


@settings(max_examples=100, deadline=None)
@given(
    walls=grid_walls,
    rooms=boxes,
    odd=odd_walls,
    eyes=eyes_strategy,
    lights=lights_strategy,
    lit=st.booleans(),
    points=st.lists(places, max_size=25),
)
def test_seen_is_sees_anywhere(walls, rooms, odd, eyes, lights, lit, points):
    # Thirds and arbitrary floats: what floats cannot decide is decided exactly.
    scene = Sight(walls + rooms + odd, 8, 8, lit, lights)
    points = points + through_corners(eyes, rooms)
    assert scene.seen(eyes, points) == [scene.sees(eyes, p) for p in points]
    # Each eye alone, the points prepared once for all of them (an eye
    # twice, as stacked tokens are, shares its answer): the same.
    eyes = eyes + eyes[:1]
    each = scene.seen_by_each(eyes, points)
    assert [flags.tolist() for flags in each] == [scene.seen([eye], points) for eye in eyes]


@settings(max_examples=100, deadline=None)
@given(walls=boxes, origin=places, points=st.lists(places, max_size=20))
def test_in_sight_is_line_of_sight_for_every_point(walls, origin, points):
    ox, oy = origin
    points = points + [(2 * x - ox, 2 * y - oy) for x, y, _, _ in walls]  # through corners
    expected = [sight.line_of_sight(origin, p, walls) for p in points]
    assert sight.in_sight(origin, points, walls) == expected


@settings(max_examples=100, deadline=None)
@given(walls=grid_walls, a=st.tuples(coords, coords), b=st.tuples(coords, coords))
def test_line_of_sight_between_points_is_the_grid_rule_between_centres(walls, a, b):
    centre = lambda sq: (sq[0] + 0.5, sq[1] + 0.5)  # noqa: E731
    assert sight.line_of_sight(centre(a), centre(b), walls) == grid.line_of_sight(a, b, walls)


@settings(max_examples=100, deadline=None)
@given(
    line=st.integers(1, 9),
    door=st.tuples(st.integers(0, 10), st.integers(0, 10)).filter(lambda d: d[0] != d[1]),
    state=st.sampled_from([CLOSED, LOCKED]),
    eye=st.tuples(st.floats(0, 1, exclude_min=True, exclude_max=True), st.floats(0.01, 9.99)),
    point=st.tuples(st.floats(0, 1, exclude_min=True, exclude_max=True), st.floats(0.01, 9.99)),
)
def test_no_sight_through_a_closed_door(line, door, state, eye, point):
    # A wall down x = line across the whole map, with a door somewhere in it.
    lo, hi = sorted(door)
    raw = [[line, lo, line, hi, DOOR, state]]
    raw += [[line, 0, line, lo]] if lo > 0 else []
    raw += [[line, hi, line, 10]] if hi < 10 else []
    scene = Sight(sight.sight_segments(sight.parse_barriers(raw)), 10, 10, lit=True)
    west = Eye(eye[0] * line, eye[1])
    east = (line + point[0] * (10 - line), point[1])
    assume(west.x < line < east[0])
    assert not scene.sees([west], east)
    assert scene.seen([west], [east]) == [False]


@settings(max_examples=60, deadline=None)
@given(
    walls=grid_walls,
    eye=st.tuples(halves, halves),
    radii=st.tuples(st.floats(0, 10), st.floats(0, 10)).map(sorted),
    lights=lights_strategy,
    points=st.lists(places, max_size=20),
)
def test_a_larger_sight_never_sees_less(walls, eye, radii, lights, points):
    scene = Sight(walls, 8, 8, False, lights)
    short, long = Eye(*eye, radii[0]), Eye(*eye, radii[1])
    for p, near, far in zip(
        points, scene.seen([short], points), scene.seen([long], points), strict=True
    ):
        assert far or not near, p
    assert scene.view([short]).area <= scene.view([long]).area + 1e-9


@settings(max_examples=80, deadline=None)
@given(a=places, b=places, radius=st.sampled_from([0, 1, 3, 20]))
def test_on_an_open_map_sight_between_two_eyes_is_mutual(a, b, radius):
    for scene in (Sight([], 8, 8, lit=True), Sight([], 8, 8, lit=False)):
        first, second = Eye(*a, radius), Eye(*b, radius)
        assert scene.sees([first], b) == scene.sees([second], a)


@settings(max_examples=80, deadline=None)
@given(walls=grid_walls, odd=odd_walls, a=places, b=places)
def test_in_a_lit_scene_sight_between_two_eyes_is_mutual(walls, odd, a, b):
    scene = Sight(walls + odd, 8, 8, lit=True)
    assert scene.sees([Eye(*a)], b) == scene.sees([Eye(*b)], a)


# the area to draw ------------------------------------------------------------------

# Places in general position (no three in a row with a wall's end but by
# accident), away from the map's edges: the view is an area, and what
# the rule sees without one (a line of sight slipping along a row of wall
# ends or the map's edge; a blind eye's own centre) has nothing to draw.
general = st.integers(1, 79_999).map(lambda v: (v + math.sqrt(2) % 1) / 10_000)
general_places = st.tuples(general, general)


@settings(max_examples=80, deadline=None)
@given(
    walls=grid_walls,
    eyes=st.lists(st.builds(Eye, general, general, st.sampled_from([1.5, 3])), max_size=3),
    lights=st.lists(st.builds(Light, general, general, st.sampled_from([1, 3])), max_size=2),
    lit=st.booleans(),
    points=st.lists(general_places, min_size=1, max_size=30),
)
def test_the_view_holds_every_seen_point(walls, eyes, lights, lit, points):
    scene = Sight(walls, 8, 8, lit, lights)
    view = scene.view(eyes)
    assert view.is_valid
    for p, seen in zip(points, scene.seen(eyes, points), strict=True):
        here = shapely.Point(p)
        if seen and view.boundary.distance(here) > 1e-6:
            assert view.contains(here), p


def test_the_view_of_a_room_is_the_room():
    scene = Sight(sight.sight_segments(room(2, 2, 8, 7)), W, H, lit=True)
    view = scene.view([Eye(4.5, 3.5)])
    assert view.symmetric_difference(sight.rect(2, 2, 6, 5)).area < 1e-9
    dark = Sight(sight.sight_segments(room(2, 2, 8, 7)), W, H, lit=False)
    assert dark.view([Eye(4.5, 3.5, sight=0)]).is_empty
    small = dark.view([Eye(5, 4.5, sight=1)])
    assert math.pi < small.area < math.pi * 1.01  # the disc, drawn just outside the circle


def test_the_view_after_an_eye_moves_is_a_fresh_scenes():
    rng = random.Random(5)
    walls = [
        (rng.randrange(W), rng.randrange(H), rng.randrange(W), rng.randrange(H)) for _ in range(15)
    ]
    torch = Light(6.5, 5.5, 3)
    scene = Sight(walls, W, H, False, [torch])
    party = [Eye(1.5, 1.5, 2), Eye(9.5, 7.5, 4), Eye(4.5, 8.5, 0)]
    scene.view(party)
    party[1] = Eye(8.5, 2.5, 4)
    moved = scene.view(party)
    fresh = Sight(walls, W, H, False, [torch]).view(party)
    assert moved.symmetric_difference(fresh).area < 1e-9
    lit = scene.relit(True)
    assert lit.view(party).symmetric_difference(Sight(walls, W, H, True).view(party)).area < 1e-9


def test_a_relit_scene_sees_by_its_own_lights():
    # The torch-bearer walks off and comes back: each lighting has its own areas.
    eye, near, far = Eye(2.5, 2.5, 1), Light(4.5, 2.5, 2), Light(9.5, 7.5, 2)
    scene = Sight([(0, 5, W, 5)], W, H, False, [near])  # the far torch is behind the wall
    lit_near = scene.view([eye])
    assert lit_near.area > 2 * math.pi  # its own disc and the torch's
    walked = scene.relit(False, [far])
    assert walked.view([eye]).area < 1.01 * math.pi
    assert not walked.sees([eye], (5.5, 2.5))
    back = walked.relit(False, [near])
    assert back.view([eye]).symmetric_difference(lit_near).area < 1e-9
    assert back.sees([eye], (5.5, 2.5))


# the explored area as text -------------------------------------------------------------


def test_paths_of_rings_and_holes():
    square = sight.rect(1, 2, 3, 4)
    assert sight.to_path(square) == "M 4 2 L 4 6 L 1 6 L 1 2 Z"
    framed = sight.difference(sight.rect(0, 0, 10, 10), sight.rect(2, 2, 2, 2))
    text = sight.to_path(framed)
    assert text.count("M ") == 2
    assert sight.from_path(text).area == 96
    assert sight.to_path(sight.EMPTY) == ""
    assert sight.from_path("").is_empty
    assert sight.to_path(sight.rect(0.123456, 0, 1, 1), digits=3).startswith("M 1.123 0 ")


@pytest.mark.parametrize(
    "text", ["M 1 2 L 3 4", "M 1 2 L 3 Z", "L 1 2 L 3 4 L 5 5 Z", "M 1 2 X", "Z"]
)
def test_a_malformed_path_is_refused(text):
    with pytest.raises(ValueError):
        sight.from_path(text)


@settings(max_examples=60, deadline=None)
@given(
    walls=grid_walls,
    eyes=st.lists(
        st.builds(Eye, general, general, st.sampled_from([0, 2, 3.5])), min_size=1, max_size=3
    ),
    lit=st.booleans(),
    digits=st.integers(1, 4),
)
def test_paths_round_trip_within_their_rounding(walls, eyes, lit, digits):
    area = Sight(walls, 8, 8, lit).view(eyes)
    explored = sight.union(area, sight.rect(0, 0, 1.25, 1.25))
    back = sight.from_path(sight.to_path(explored, digits))
    assert back.is_valid
    assert abs(back.area - explored.area) <= explored.length * 10.0**-digits + 1e-9
