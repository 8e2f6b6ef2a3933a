"""The lit-area geometry: lights that walls shadow or do not, a dim scene's
unlit reach, and each light's area as the map draws it."""

import pytest

from vtt.rules import sight

# A 20 x 10 map parted by a wall down x = 10 (no gap).
WALL = [(10, 0, 10, 10)]


def scene(lit=False, lights=(), ambient=0):
    return sight.Sight(WALL, 20, 10, lit, lights, ambient)


def test_in_the_dark_an_eye_without_sight_sees_only_what_a_light_reaches():
    eye = sight.Eye(2.5, 5.5)
    dark = scene()
    assert not dark.sees([eye], (6.5, 5.5))
    torch = sight.Light(5.5, 5.5, 2)
    lit = scene(lights=[torch])
    assert lit.sees([eye], (6.5, 5.5))  # one square from the torch
    assert not lit.sees([eye], (8.5, 5.5))  # three: out of its reach


def test_a_light_behind_a_wall_lights_nothing_on_this_side_unless_it_casts_no_shadows():
    eye = sight.Eye(8.5, 5.5)
    point = (9.5, 5.5)
    shadowed = sight.Light(11.5, 5.5, 4)
    assert not scene(lights=[shadowed]).sees([eye], point)
    through = sight.Light(11.5, 5.5, 4, shadows=False)
    assert scene(lights=[through]).sees([eye], point)
    # The eye still needs its own line of sight: the light's far side stays unseen.
    assert not scene(lights=[through]).sees([eye], (11.5, 5.5))


def test_many_points_agree_with_the_exact_rule():
    lights = [sight.Light(11.5, 5.5, 4, shadows=False), sight.Light(3.5, 2.5, 3)]
    for ambient in (0, 2):
        seeing = scene(lights=lights, ambient=ambient)
        eyes = [sight.Eye(8.5, 5.5), sight.Eye(1.5, 8.5, 1)]
        points = [(x + 0.5, y + 0.5) for x in range(20) for y in range(10)]
        assert seeing.seen(eyes, points) == [seeing.sees(eyes, p) for p in points]


def test_a_dim_scene_is_seen_out_to_its_reach_without_light():
    eye = sight.Eye(2.5, 5.5)
    dim = scene(ambient=4)
    assert dim.sees([eye], (6.5, 5.5))
    assert not dim.sees([eye], (7.5, 5.5))
    # Its own dark vision reaches further when it is longer.
    assert dim.sees([sight.Eye(2.5, 5.5, 6)], (7.5, 5.5))
    # A lit scene knows no reach: ambient means nothing there.
    assert scene(lit=True, ambient=4).sees([eye], (9.5, 5.5))


def test_the_drawn_view_is_the_seen_area_of_a_dim_scene():
    eye = sight.Eye(2.5, 5.5)
    area = scene(ambient=3).view([eye])
    assert area.contains(sight.disc(2.5, 5.5, 2.9).intersection(sight.rect(0, 0, 10, 10)))
    assert not area.intersects(sight.rect(6, 0, 4, 10))


def test_a_lights_area_is_clipped_by_walls_and_its_radius():
    torch = sight.Light(8.5, 5.5, 3)
    seeing = scene(lights=[torch])
    bright = seeing.light_area(torch, 1.5)
    dim = seeing.light_area(torch)
    assert dim.area > bright.area > 0
    assert dim.contains(bright)
    assert dim.bounds[2] == pytest.approx(10)  # the wall stops it at x = 10
    through = sight.Light(8.5, 5.5, 3, shadows=False)
    assert scene(lights=[through]).light_area(through).bounds[2] == pytest.approx(11.5)
    # What a scene's lights light is the union of their areas.
    assert seeing.lit_area().equals(dim)


def test_a_light_or_ambient_off_the_rules_is_refused():
    with pytest.raises(ValueError):
        sight.Light(1, 1, -1)
    with pytest.raises(ValueError):
        sight.Sight(WALL, 20, 10, False, (), float("nan"))
