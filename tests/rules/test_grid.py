"""Grid geometry: distances under both diagonal rules, range categories, line
of sight against walls (including the touching cases), and range bands."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.rules import adjudicate
from vtt.rules.grid import (
    adjacent,
    distance_ft,
    line_of_sight,
    range_bands,
    range_category,
)

squares = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


# distance --------------------------------------------------------------------


@pytest.mark.parametrize(
    "b, uniform, alternating",
    [
        ((0, 0), 0, 0),
        ((1, 0), 5, 5),
        ((1, 1), 5, 5),
        ((2, 2), 10, 15),
        ((3, 3), 15, 20),
        ((4, 4), 20, 30),
        ((5, 2), 25, 30),
        ((-3, 7), 35, 40),
    ],
)
def test_distance_under_both_diagonal_rules(b, uniform, alternating):
    assert distance_ft((0, 0), b) == uniform
    assert distance_ft((0, 0), b, "uniform") == uniform
    assert distance_ft((0, 0), b, "alternating") == alternating


def test_unknown_diagonal_rule_is_an_error():
    with pytest.raises(ValueError):
        distance_ft((0, 0), (1, 1), "euclid")


@settings(max_examples=200)
@given(squares, squares, squares, st.sampled_from(["uniform", "alternating"]))
def test_distance_is_a_metric(a, b, c, diagonal):
    d = distance_ft(a, b, diagonal)
    assert d == distance_ft(b, a, diagonal)
    assert d % 5 == 0
    assert (d == 0) == (a == b)
    if diagonal == "uniform":  # 5-10-5 counts afresh on each leg, so no triangle rule there
        assert d <= distance_ft(a, c) + distance_ft(c, b)
    assert distance_ft(a, b) <= distance_ft(a, b, "alternating") <= 1.5 * distance_ft(a, b) + 5


# categories ------------------------------------------------------------------


@pytest.mark.parametrize(
    "distance, range_ft, touching, category",
    [
        (5, 30, True, "adjacent"),
        (0, 30, True, "adjacent"),
        (5, 0, True, "adjacent"),
        (10, 30, False, "near"),
        (30, 30, False, "near"),
        (35, 30, False, "far"),
        (60, 30, False, "far"),
        (65, 30, False, "out_of_range"),
        (100, 60, False, "far"),
        (30, None, False, "near"),
        (35, None, False, "far"),
        (95, None, False, "far"),
        (100, None, False, "out_of_range"),
        (10, 0, False, "out_of_range"),
        (500, "line_of_sight", False, "near"),
        (5, "line_of_sight", True, "adjacent"),
    ],
)
def test_range_category(distance, range_ft, touching, category):
    assert range_category(distance, range_ft, touching) == category


def test_line_of_sight_range_needs_sight():
    assert range_category(10, "line_of_sight", False, visible=False) == "out_of_range"
    assert range_category(5, "line_of_sight", True, visible=False) == "out_of_range"
    # A weapon's category is a matter of distance only.
    assert range_category(10, 30, False, visible=False) == "near"


def test_adjacent_means_touching_by_side_or_corner():
    assert adjacent((2, 2), (3, 3))
    assert adjacent((2, 2), (2, 1))
    assert adjacent((2, 2), (2, 2))
    assert not adjacent((2, 2), (4, 2))
    assert not adjacent((2, 2), (3, 4))


# line of sight ----------------------------------------------------------------


def test_open_ground_and_the_same_square_are_in_sight():
    assert line_of_sight((0, 0), (9, 4), [])
    assert line_of_sight((3, 3), (3, 3), [[3, 3, 4, 4]])


def test_a_wall_across_the_line_blocks():
    assert not line_of_sight((0, 0), (4, 0), [[2, -1, 2, 1]])
    assert not line_of_sight((0, 0), (4, 3), [[2, 0, 2, 5]])


def test_a_wall_beside_the_line_does_not_block():
    assert line_of_sight((0, 0), (4, 0), [[0, 1, 5, 1]])
    assert line_of_sight((0, 0), (4, 0), [[6, -1, 6, 1]])


def test_walls_are_segments_not_lines():
    assert line_of_sight((0, 0), (4, 0), [[2, 1, 2, 3]])


def test_grazing_a_wall_end_does_not_block():
    # The line from (0.5, 0.5) to (3.5, 3.5) passes through the corner (2, 2).
    assert line_of_sight((0, 0), (3, 3), [[2, 2, 2, 0]])
    assert line_of_sight((0, 0), (3, 3), [[2, 2, 5, 2]])


def test_a_corner_whose_walls_stay_on_one_side_does_not_block():
    # Both arms of the corner at (2, 2) leave below the line y = x.
    assert line_of_sight((0, 0), (3, 3), [[2, 0, 2, 2], [2, 2, 4, 2]])


def test_a_straight_wall_drawn_in_two_pieces_blocks_at_the_joint():
    assert not line_of_sight((0, 0), (3, 3), [[2, 0, 2, 2], [2, 2, 2, 4]])


def test_a_closed_corner_blocks_a_line_through_its_point():
    # Arms going left and up from (2, 2); the line from (1.5, 2.5) to (2.5, 1.5)
    # leaves the corner's inside through the corner point itself.
    walls = [[2, 2, 0, 2], [2, 2, 2, 4]]
    assert not line_of_sight((1, 2), (2, 1), walls)
    # The line y = x runs past the outside of the same corner.
    assert line_of_sight((0, 0), (3, 3), walls)


def test_running_along_a_wall_does_not_block():
    assert line_of_sight((0, 0), (3, 3), [[0, 0, 5, 5]])
    assert line_of_sight((0, 0), (3, 3), [[1.5, 1.5, 2.5, 2.5]])


def test_a_wall_along_the_line_that_turns_across_it_blocks_where_walls_meet():
    walls = [[1.5, 1.5, 2.5, 2.5], [2.5, 2.5, 3, 2], [2.5, 2.5, 2, 3]]
    assert not line_of_sight((0, 0), (4, 4), walls)
    assert line_of_sight((0, 0), (4, 4), walls[:2])


def test_a_wall_through_a_square_centre_does_not_block_that_squares_own_view():
    # The wall ends at (0.5, 0.5), the viewer's centre.
    assert line_of_sight((0, 0), (4, 0), [[0.5, 0.5, 0.5, 3]])
    # ... or runs through it.
    assert line_of_sight((0, 0), (4, 0), [[0.5, -2, 0.5, 3]])
    assert line_of_sight((4, 0), (0, 0), [[0.5, -2, 0.5, 3]])


def test_a_point_wall_hides_nothing():
    assert line_of_sight((0, 0), (4, 0), [[2, 0.5, 2, 0.5]])


def test_fractional_walls_are_exact():
    # 0.1-style coordinates: the line y = 0.5 meets the wall end exactly.
    assert line_of_sight((0, 0), (4, 0), [[2.25, 0.5, 2.25, 3]])
    assert not line_of_sight((0, 0), (4, 0), [[2.25, 0.5, 2.25, 3], [2.25, 0.5, 2.25, -3]])
    assert not line_of_sight((0, 0), (4, 0), [[2.25, 0.4999, 2.25, 3]])


@settings(max_examples=200)
@given(
    squares,
    squares,
    st.lists(
        st.tuples(*[st.integers(-10, 10)] * 4).map(list),
        max_size=6,
    ),
)
def test_line_of_sight_is_symmetric(a, b, walls):
    assert line_of_sight(a, b, walls) == line_of_sight(b, a, walls)


@settings(max_examples=100)
@given(squares, squares, st.lists(st.tuples(*[st.integers(-10, 10)] * 4).map(list), max_size=4))
def test_a_blocked_line_stays_blocked_when_walls_are_added(a, b, walls):
    extra = [[-10, 0, 10, 0]]
    if not line_of_sight(a, b, walls):
        assert not line_of_sight(a, b, walls + extra)


# range bands -------------------------------------------------------------------


def test_range_bands_draw_rings_around_the_origin():
    bands = range_bands((5, 5), 10, 11, 11)
    assert len(bands) == 11 and all(len(row) == 11 for row in bands)
    assert bands[5][6] == "adjacent"
    assert bands[4][4] == "adjacent"
    assert bands[5][7] == "near"  # 10 ft
    assert bands[5][9] == "far"  # 20 ft
    assert bands[5][10] == "out_of_range"  # 25 ft
    assert bands[0][0] == "out_of_range"


def test_range_bands_follow_the_diagonal_rule():
    uniform = range_bands((0, 0), 10, 4, 4)
    alternating = range_bands((0, 0), 10, 4, 4, diagonal="alternating")
    assert uniform[2][2] == "near"  # 10 ft
    assert alternating[2][2] == "far"  # 15 ft


def test_range_bands_use_walls_only_for_line_of_sight():
    walls = [[3, -1, 3, 10]]
    weapon = range_bands((0, 0), 30, 6, 1, walls)
    spell = range_bands((0, 0), "line_of_sight", 6, 1, walls)
    assert weapon[0] == ["adjacent", "adjacent", "near", "near", "near", "near"]
    assert spell[0] == [
        "adjacent",
        "adjacent",
        "near",
        "out_of_range",
        "out_of_range",
        "out_of_range",
    ]


@settings(max_examples=30)
@given(
    st.tuples(st.integers(0, 7), st.integers(0, 5)),
    st.sampled_from([None, 0, 5, 10, 30, "line_of_sight"]),
    st.sampled_from(["uniform", "alternating"]),
    st.lists(st.tuples(*[st.integers(0, 8)] * 4).map(list), max_size=3),
)
def test_range_bands_agree_with_the_adjudicator(origin, range_ft, diagonal, walls):
    bands = range_bands(origin, range_ft, 8, 6, walls, diagonal)
    for y in range(6):
        for x in range(8):
            r = adjudicate(
                {
                    "system": "artifice",
                    "action": "range",
                    "from": list(origin),
                    "to": [x, y],
                    "range_ft": range_ft,
                    "walls": walls,
                    "diagonal": diagonal,
                }
            )
            assert bands[y][x] == r["category"]
