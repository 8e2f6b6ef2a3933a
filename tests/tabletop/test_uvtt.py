"""Reading Universal VTT files (vtt/maps/uvtt.py) and joining
their walls (wall_paths.py): each field, and each refusal naming what it
passed. Plain Python: no database."""

import json

import pytest

from vtt.core.errors import ServiceError
from vtt.maps import uvtt, wall_paths

from .uvtt_files import DELETE, changed, dungeon, encode, picture, point

LIMITS = uvtt.Limits(
    max_bytes=4 * 1024 * 1024,
    max_segments=5_000,
    max_portals=50,
    max_lights=20,
    max_depth=8,
    max_side=200,
)


def read(doc, limits=LIMITS):
    return uvtt.read(doc if isinstance(doc, bytes) else encode(doc), limits)


def refusal(doc, limits=LIMITS) -> str:
    with pytest.raises(ServiceError) as caught:
        read(doc, limits)
    assert caught.value.field == "file"
    return caught.value.message


@pytest.mark.parametrize("version", [0.2, 0.3])
def test_every_field_of_a_map_is_read(version):
    found = read(dungeon(version=version))
    assert (found.format, found.width, found.height, found.pixels_per_grid) == (version, 12, 10, 8)
    assert found.segments == 176 + 2 + 1 + 4
    assert len(found.polylines) == 4
    assert found.polylines[3] == ((9, 3), (10, 3), (10, 4), (9, 4), (9, 3))
    door, arch = found.portals
    assert (door.x1, door.y1, door.x2, door.y2, door.closed, door.freestanding) == (
        6,
        4,
        6,
        5,
        True,
        False,
    )
    assert (arch.x1, arch.y1, arch.x2, arch.y2, arch.closed, arch.freestanding) == (
        2.5,
        7.5,
        3.5,
        7.5,
        False,
        True,
    )
    assert [(a.x, a.y, a.range, a.intensity, a.color, a.shadows) for a in found.lights] == [
        (2, 2, 4, 1, "#ffaa55", True),
        (9, 7, 6, 0.5, "#3366ff", False),
        (11, 1, 2, 2, "#ff0000", True),
    ]
    # ff808080: half grey is dim; the picture has its light painted in.
    assert (found.lighting, found.baked_lighting) == ("dim", True)
    assert found.image == picture()


def test_points_are_counted_from_the_map_origin():
    found = read(dungeon(origin=(-30.5, 12)))
    assert found.polylines[3][0] == (9, 3)
    assert (found.lights[0].x, found.lights[0].y) == (2, 2)
    assert found.portals[0].y2 == 5


@pytest.mark.parametrize(
    "ambient, lighting",
    [
        ("ffffffff", "lit"),
        ("ffd0d0d0", "lit"),
        ("ff808080", "dim"),
        ("ff202020", "dark"),
        ("00ffffff", "dark"),
        ("ffffff", "lit"),
    ],
)
def test_the_ambient_light_makes_the_scene_lit_dim_or_dark(ambient, lighting):
    doc = changed(["environment", "ambient_light"], ambient)
    assert read(doc).lighting == lighting


def test_without_environment_a_map_is_lit_as_scenes_are():
    found = read(changed(["environment"], DELETE))
    assert (found.lighting, found.baked_lighting) == ("lit", False)


def test_optional_lists_and_a_data_url_picture():
    doc = dungeon()
    for name in ("objects_line_of_sight", "portals", "lights"):
        del doc[name]
    doc["image"] = "data:image/png;base64," + doc["image"]
    found = read(doc)
    assert (found.portals, found.lights, found.image) == ((), (), picture())


def test_a_webp_or_jpeg_picture_is_carried_as_it_is():
    assert read(dungeon(kind="WEBP")).image[8:12] == b"WEBP"
    assert read(dungeon(kind="JPEG")).image[:2] == b"\xff\xd8"


@pytest.mark.parametrize(
    "doc, said",
    [
        (b"this is no json", "not JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"[1, 2]", "must be a JSON object"),
        (changed(["format"], DELETE), "has no format"),
        (changed(["format"], 1.0), "format 1.0 is not one this server reads (0.1, 0.2, 0.3)"),
        (changed(["resolution"], DELETE), "no resolution"),
        (changed(["image"], DELETE), "carries no image"),
        (changed(["image"], ""), "carries no image"),
        (changed(["image"], "not base64 at all!"), "image is not base64"),
        (changed(["image"], {"png": "abc"}), "image must be the picture in base64"),
        (
            changed(["line_of_sight", 1], [point(6, 0)]),
            "line_of_sight[1]: a wall needs at least two points, not 1",
        ),
        (
            changed(["line_of_sight", 0, 3], point(13, 0)),
            "line_of_sight[0][3] (13, 0) is outside the map of 12 x 10 squares",
        ),
        (
            changed(["lights", 1, "position"], point(-1, 2)),
            "lights[1].position (-1, 2) is outside the map",
        ),
        (
            changed(["portals", 0, "bounds", 1], point(6, 40)),
            "portals[0].bounds[1] (6, 40) is outside the map",
        ),
        (
            changed(["portals", 0, "bounds"], [point(6, 4)]),
            "portals[0].bounds must be two points, not 1",
        ),
        (
            changed(["portals", 0, "bounds"], [point(6, 4), point(6, 4)]),
            "a door needs two different ends",
        ),
        (changed(["portals", 0, "closed"], "yes"), "portals[0].closed must be true or false"),
        (changed(["lights", 0, "range"], -2), "lights[0].range must be between 0 and 400, not -2"),
        (
            changed(["lights", 0, "color"], "orange"),
            "lights[0].color must be a colour written AARRGGBB",
        ),
        (
            changed(["lights", 0, "color"], "ffzzzzzz"),
            "lights[0].color must be a colour written AARRGGBB in hex",
        ),
        (
            changed(["environment", "ambient_light"], 7),
            "environment.ambient_light must be a colour",
        ),
        (
            changed(["resolution", "map_size", "x"], 0),
            "resolution.map_size.x must be more than 0 squares",
        ),
        (
            changed(["resolution", "map_size", "y"], 250),
            "resolution.map_size.y is 250 squares; a scene has at most 200 squares a side",
        ),
        (
            changed(["resolution", "pixels_per_grid"], "70"),
            "resolution.pixels_per_grid must be a number",
        ),
        (
            changed(["line_of_sight", 0, 2, "x"], {"x": [1]}),
            "line_of_sight[0][2].x must be a number",
        ),
        (changed(["line_of_sight", 0, 2], [1, 2]), "line_of_sight[0][2] must be an object"),
        (changed(["lights"], {"0": {}}), "lights must be a list"),
        (
            changed(["lights", 2, "intensity"], 1e300),
            "lights[2].intensity must be between 0 and 100",
        ),
    ],
)
def test_a_bad_file_is_refused_saying_where(doc, said):
    assert said in refusal(doc)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinite_numbers_are_refused(constant):
    text = encode(dungeon()).replace(b'"range": 4', b'"range": ' + constant.encode())
    assert f"holds {constant}, which is not a number" in refusal(text)


def test_a_number_too_large_for_a_float_is_refused_as_infinite():
    text = encode(dungeon()).replace(b'"range": 4', b'"range": 1e999')
    assert "lights[0].range must be a finite number, not inf" in refusal(text)


def test_nested_junk_is_refused_naming_the_depth_limit():
    doc = dungeon()
    junk = []
    for _ in range(20):
        junk = [junk]
    doc["extra"] = junk
    assert "more than 8 deep (MAP_IMPORT_MAX_DEPTH)" in refusal(doc)
    deep = b"[" * 100_000 + b"]" * 100_000
    assert "(MAP_IMPORT_MAX_DEPTH)" in refusal(deep)


def test_a_file_past_the_byte_limit_is_refused_before_it_is_read():
    limits = uvtt.Limits(**{**LIMITS.__dict__, "max_bytes": 1000})
    message = refusal(encode(dungeon()), limits)
    assert "a map file may be at most 0.000953674 MB (MAP_IMPORT_MAX_BYTES)" in message
    hundred_mb = b" " * (100 * 1024 * 1024)
    assert "a map file may be at most 4 MB (MAP_IMPORT_MAX_BYTES)" in refusal(hundred_mb)


def test_too_many_walls_portals_or_lights_name_their_limit():
    walls = changed(["line_of_sight"], [[point(0, 0), point(1, 1)]] * 200_000)
    del walls["objects_line_of_sight"]
    roomy = uvtt.Limits(**{**LIMITS.__dict__, "max_bytes": 32 * 1024 * 1024})
    assert refusal(walls, roomy) == (
        "the file has 200,000 wall segments; a map may have at most 5,000 (MAP_IMPORT_MAX_SEGMENTS)"
    )
    portals = changed(["portals"], dungeon()["portals"] * 26)
    assert "52 portals; a map may have at most 50 (MAP_IMPORT_MAX_PORTALS)" in refusal(portals)
    lights = changed(["lights"], dungeon()["lights"] * 7)
    assert "21 lights; a map may have at most 20 (MAP_IMPORT_MAX_LIGHTS)" in refusal(lights)


# ---------------------------------------------------------------- walls joined


def test_collinear_segments_that_meet_become_one_wall():
    lines = [[(0, 0), (0.25, 0), (0.5, 0)], [(0.5, 0), (1, 0), (1, 1)]]
    assert wall_paths.wall_segments(lines, 0) == [[0, 0, 1, 0], [1, 0, 1, 1]]


def test_a_fork_keeps_its_corner():
    lines = [[(0, 0), (1, 0)], [(1, 0), (2, 0)], [(1, 0), (1, 1)]]
    assert sorted(wall_paths.wall_segments(lines, 0)) == [[0, 0, 1, 0], [1, 0, 1, 1], [1, 0, 2, 0]]


def test_a_closed_loop_keeps_its_shape():
    square = [[(0, 0), (0.5, 0), (1, 0), (1, 1), (0, 1), (0, 0)]]
    walls = wall_paths.wall_segments(square, 0)
    assert len(walls) == 4
    ends = {tuple(w[:2]) for w in walls} | {tuple(w[2:]) for w in walls}
    assert ends == {(0, 0), (1, 0), (1, 1), (0, 1)}


def test_the_tolerance_decides_which_bends_go():
    wobble = [[(0, 0), (1, 0.04), (2, 0), (3, 0.2), (4, 0)]]
    assert len(wall_paths.wall_segments(wobble, 0)) == 4
    assert wall_paths.wall_segments(wobble, 0.05) == [[0, 0, 2, 0], [2, 0, 3, 0.2], [3, 0.2, 4, 0]]
    assert wall_paths.wall_segments(wobble, 0.25) == [[0, 0, 4, 0]]


def test_repeated_and_empty_segments_count_once_or_not_at_all():
    lines = [[(0, 0), (1, 0)], [(1, 0), (0, 0)], [(2, 2), (2, 2.00001)]]
    assert wall_paths.wall_segments(lines, 0) == [[0, 0, 1, 0]]


def test_the_dungeon_outer_wall_becomes_four_walls():
    found = read(dungeon())
    walls = wall_paths.wall_segments(found.polylines, 0)
    # The dividing wall meets the outer loop at (6, 0) and (6, 10), forks
    # that split the loop into two paths of three walls each; the dividing
    # wall is two (its corner at (6, 2) is on a straight line); the pillar 4.
    assert len(walls) == 3 + 3 + 2 + 4
    assert [6, 0, 6, 4] in walls or [6, 4, 6, 0] in walls


def test_a_long_wavy_wall_is_simplified_without_recursion():
    import math

    wave = [[(x / 100, 5 + math.sin(x / 100) * 2) for x in range(0, 19_000)]]
    assert 100 < len(wall_paths.wall_segments(wave, 0.05)) < 1_000
    assert json.dumps(wall_paths.wall_segments(wave, 0.05))
