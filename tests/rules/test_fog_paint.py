"""One fog drawing's geometry (vtt.rules.fog_paint): what the map draws of
a group's view and explored area."""

import shapely

from vtt.rules import fog_paint, sight

# A 20 x 20 hall with a wall down x = 10, a gap in it from y = 8 to y = 10.
WALLS = fog_paint.Walls(((10, 0, 10, 8), (10, 10, 10, 20)), 20, 20)
WEST = sight.Eye(2.5, 2.5)


def covers(path: str, point) -> bool:
    return sight.from_path(path).covers(shapely.Point(*point))


def group(eyes=(WEST,), places=(), view="", explored=""):
    return fog_paint.Group(tuple(eyes), tuple(places), view, explored)


def test_the_view_is_what_the_eyes_see_and_the_explored_area_grows_by_it():
    view, explored = fog_paint.paint(WALLS, True, (), {"party": group()})["party"]
    assert covers(view, (5, 15)) and not covers(view, (15, 2))
    assert explored == view


def test_every_place_an_eye_stood_is_explored_though_the_eye_moved_on():
    # From (9.5, 9) the eye looks through the gap; it stands west again now.
    through_gap = sight.Eye(9.5, 9)
    first = fog_paint.paint(WALLS, True, (), {"party": group()})["party"]
    view, explored = fog_paint.paint(
        WALLS, True, (), {"party": group(places=[through_gap], view=first[0], explored=first[1])}
    )["party"]
    assert view == first[0]
    assert covers(explored, (15, 9)) and not covers(view, (15, 9))


def test_a_group_with_nothing_new_to_draw_is_left_out():
    view, explored = fog_paint.paint(WALLS, True, (), {"party": group()})["party"]
    same = group(view=view, explored=explored)
    assert fog_paint.paint(WALLS, True, (), {"party": same}) == {}


def test_a_dark_scene_draws_what_sight_and_light_reach():
    short_sight = sight.Eye(2.5, 2.5, 2)
    lamp = sight.Light(5.5, 15.5, 2)
    view, _ = fog_paint.paint(WALLS, False, (lamp,), {"party": group([short_sight])})["party"]
    assert covers(view, (3, 3)) and covers(view, (5.5, 15.5))
    assert not covers(view, (8, 3))
