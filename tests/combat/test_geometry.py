"""Range and sight between tokens, and the range bands the map draws: the
boundaries of each category with both diagonal rules, walls, big tokens,
and bands that agree square by square with what an attack measures."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.combat import geometry
from vtt.rules import grid

BOW = {"name": "Long bow", "kind": "missile", "range_ft": 60}
SLING = {"name": "Sling", "kind": "missile", "range_ft": None}
SWORD = {"name": "Sword", "kind": "melee", "range_ft": None}
SPEAR = {"name": "Spear", "kind": "melee", "range_ft": 10}
FIREBOLT = {"name": "Firebolt", "kind": "spell", "range_ft": "line_of_sight"}


def category(weapon, dx, dy, diagonal="uniform", walls=()):
    return geometry.measure((0, 0, 1), (dx, dy, 1), weapon, list(walls), diagonal)["category"]


@pytest.mark.parametrize(
    "dx, expected",
    [(1, "adjacent"), (2, "near"), (6, "near"), (7, "far"), (19, "far"), (20, "out_of_range")],
)
def test_no_listed_range_boundaries_5_30_35_100_ft(dx, expected):
    # 5 ft adjacent; up to 30 ft near; over 30 ft and under 100 ft far.
    assert category(SLING, dx, 0) == expected
    assert category(SLING, 0, dx, "alternating") == expected


@pytest.mark.parametrize(
    "dx, expected",
    [(1, "adjacent"), (12, "near"), (13, "far"), (24, "far"), (25, "out_of_range")],
)
def test_a_60_ft_listed_range_is_near_to_60_and_far_to_120(dx, expected):
    assert category(BOW, dx, 0) == expected
    assert category(BOW, dx, 0, "alternating") == expected


def test_diagonals_count_5_ft_each_or_5_10_5():
    # Six squares diagonally: 30 ft uniform, 45 ft alternating.
    assert geometry.measure((0, 0, 1), (6, 6, 1), SLING, [], "uniform")["distance_ft"] == 30
    assert geometry.measure((0, 0, 1), (6, 6, 1), SLING, [], "alternating")["distance_ft"] == 45
    assert category(SLING, 6, 6) == "near"
    assert category(SLING, 6, 6, "alternating") == "far"
    # 12 diagonal squares: 60 ft uniform (near for the bow), 90 ft alternating (far).
    assert category(BOW, 12, 12) == "near"
    assert category(BOW, 12, 12, "alternating") == "far"
    # A corner touch is adjacent under both rules.
    assert category(SWORD, 1, 1) == category(SWORD, 1, 1, "alternating") == "adjacent"


def test_melee_reaches_the_adjacent_squares_or_its_listed_reach():
    assert category(SWORD, 2, 0) == "out_of_range"
    assert category(SPEAR, 2, 0) == "near"
    assert category(SPEAR, 3, 0) == "out_of_range"


def test_line_of_sight_through_and_past_a_wall():
    wall = [[3, 0, 3, 4]]  # down the grid line x = 3, from y = 0 to 4
    through = geometry.measure((1, 1, 1), (5, 1, 1), FIREBOLT, wall, "uniform")
    past = geometry.measure((1, 5, 1), (5, 5, 1), FIREBOLT, wall, "uniform")
    assert through["line_of_sight"] is False
    assert geometry.refusal(through)[0] == "no_line_of_sight"
    assert past["line_of_sight"] is True and geometry.refusal(past) is None
    # Grazing the wall's end (sight along y = 4.5 passes below y = 4): clear.
    assert geometry.measure((1, 4, 1), (5, 4, 1), FIREBOLT, wall, "uniform")["line_of_sight"]
    # A bow shot is not refused by the wall (only spells need sight).
    assert geometry.refusal(geometry.measure((1, 1, 1), (5, 1, 1), BOW, wall, "uniform")) is None


def test_out_of_range_is_refused():
    far = geometry.measure((0, 0, 1), (20, 0, 1), SLING, [], "uniform")
    assert far["distance_ft"] == 100
    assert geometry.refusal(far)[0] == "out_of_range"


def test_big_tokens_measure_between_their_nearest_squares():
    ogre = (0, 0, 2)  # covers (0..1, 0..1)
    assert geometry.measure(ogre, (2, 1, 1), SWORD, [], "uniform")["category"] == "adjacent"
    assert geometry.measure(ogre, (3, 1, 1), SWORD, [], "uniform")["distance_ft"] == 10
    assert geometry.centre(ogre) == (0.5, 0.5)
    assert geometry.centre((4, 4, 3)) == (5, 5)


def test_bands_use_one_letter_per_square():
    bands = geometry.range_bands((5, 5, 1), BOW, 40, 12, [], "uniform")
    assert len(bands) == 12 and all(len(row) == 40 for row in bands)
    assert bands[5][5] == "a" and bands[5][6] == "a" and bands[5][7] == "n"
    assert bands[5][17] == "n" and bands[5][18] == "f" and bands[5][29] == "f"
    assert bands[5][30] == "o"


walls_strategy = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12)).map(
        list
    ),
    max_size=8,
)
weapons = st.sampled_from(
    [BOW, SLING, SWORD, SPEAR, FIREBOLT, {"name": "Ray", "kind": "spell", "range_ft": 15}]
)


@settings(max_examples=60, deadline=None)
@given(
    origin=st.tuples(st.integers(0, 10), st.integers(0, 10), st.integers(1, 3)),
    weapon=weapons,
    walls=walls_strategy,
    diagonal=st.sampled_from(grid.DIAGONALS),
)
def test_every_band_square_is_what_an_attack_would_measure(origin, weapon, walls, diagonal):
    width = height = 13
    bands = geometry.range_bands(origin, weapon, width, height, walls, diagonal)
    for y in range(height):
        for x in range(width):
            measured = geometry.measure(origin, (x, y, 1), weapon, walls, diagonal)
            expected = (
                "o" if geometry.refusal(measured) else geometry.BAND_LETTERS[measured["category"]]
            )
            assert bands[y][x] == expected, (x, y)


def test_spell_bands_agree_with_the_rules_grid_on_walled_maps():
    rng = random.Random(7)
    for _ in range(6):
        side = rng.randrange(20, 45)
        walls = []
        for _ in range(rng.randrange(5, 80)):
            x, y = rng.randrange(side), rng.randrange(side)
            if rng.random() < 0.4:
                walls.append([x, y, min(side, x + rng.randrange(1, 6)), y])
            elif rng.random() < 0.7:
                walls.append([x, y, x, min(side, y + rng.randrange(1, 6))])
            else:
                walls.append([x + 0.5, y, min(side, x + 3.25), min(side, y + 2.5)])
        origin = (rng.randrange(side), rng.randrange(side))
        ours = geometry.range_bands((*origin, 1), FIREBOLT, side, side, walls, "uniform")
        theirs = grid.range_bands(origin, "line_of_sight", side, side, walls)
        assert ours == ["".join(geometry.BAND_LETTERS[c] for c in row) for row in theirs]
