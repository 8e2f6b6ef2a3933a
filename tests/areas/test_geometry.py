"""Which squares each template shape covers, worked out by hand on the
grid: the server's twin of static/js/map/template_shapes.js (whose own test
runs both on the same cases)."""

import pytest

from vtt.areas import geometry


def test_a_burst_of_one_square_covers_the_four_squares_round_its_corner():
    assert geometry.squares("circle", 5, 5, 1, 0, 20, 20) == {(4, 4), (5, 4), (4, 5), (5, 5)}


def test_a_burst_of_two_squares_is_round_not_square():
    covered = geometry.squares("circle", 5, 5, 2, 0, 20, 20)
    # Centres 1.58 squares away are in; the corners' (2.12) are out.
    assert (3, 4) in covered and (6, 5) in covered
    assert (3, 3) not in covered and (6, 6) not in covered
    assert len(covered) == 12


def test_a_square_covers_size_by_size_squares_from_its_corner():
    assert geometry.squares("square", 2, 3, 2, 0, 20, 20) == {(2, 3), (3, 3), (2, 4), (3, 4)}


def test_a_line_east_is_one_square_wide_and_size_long():
    assert geometry.squares("line", 0, 4, 6, 0, 20, 20) == {(i, 4) for i in range(6)} | {
        (i, 3) for i in range(6)
    }


def test_a_line_is_one_square_wide_when_it_runs_through_centres():
    # From the corner (0, 4) south-east the line passes square centres.
    covered = geometry.squares("line", 0, 0, 4, 45, 20, 20)
    assert {(0, 0), (1, 1), (2, 2)} <= covered
    assert (0, 2) not in covered and (3, 0) not in covered


def test_a_cone_along_the_grid_covers_the_squares_it_covers_half_of():
    # East from a corner, 15 ft: the first column's squares are a quarter
    # inside (their centres out), the second's three quarters (in), the
    # third's outer ones a quarter again: as a printed template would say.
    assert geometry.squares("cone", 0, 5, 3, 0, 20, 20) == {(1, 4), (1, 5), (2, 4), (2, 5)}


def test_a_diagonal_cone_fans_out_from_its_corner():
    covered = geometry.squares("cone", 0, 0, 4, 45, 20, 20)
    # (0, 1) and (1, 0) have their centres on the cone's edges exactly: in.
    assert covered == {(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)}
    assert (3, 3) not in covered  # its centre is 4.95 squares away: past 20 ft


def test_a_cone_turned_south_covers_what_east_did_turned():
    east = geometry.squares("cone", 10, 10, 4, 0, 30, 30)
    south = geometry.squares("cone", 10, 10, 4, 90, 30, 30)
    # Turning a quarter clockwise about the corner (10, 10): square (x, y)
    # goes to (9 - (y - 10) + 10, x) in the map's y-down grid.
    assert south == {(19 - y, x) for x, y in east}


def test_the_map_edge_cuts_a_template():
    assert geometry.squares("circle", 0, 0, 1, 0, 20, 20) == {(0, 0)}


def test_a_token_is_held_when_any_square_of_it_is_covered():
    covered = geometry.squares("square", 4, 4, 1, 0, 20, 20)
    assert geometry.holds(covered, 3, 3, 2)  # a large token's corner square
    assert not geometry.holds(covered, 2, 2, 2)


@pytest.mark.parametrize("size, feet", [(1, 5), (3, 15), (100, 500)])
def test_a_size_in_squares_is_five_feet_each(size, feet):
    assert geometry.feet(size) == feet
