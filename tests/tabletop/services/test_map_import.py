"""A Universal VTT file made a scene (vtt/maps/importing.py):
a new scene, a re-import that replaces walls, doors and lights after a
confirmation and keeps tokens, the preview's counts, and refusals that
store nothing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories
from vtt.core.errors import NotAllowed, NotFound, ServiceError
from vtt.maps.importing import map_import, map_preview
from vtt.rules import sight
from vtt.tabletop.models import Light, Scene, Token

from ..helpers import events_after, last_seq
from ..uvtt_files import changed, dungeon, encode

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def stored_files(media) -> list:
    return (
        sorted(p.name for p in (media / "scenes").glob("*")) if (media / "scenes").exists() else []
    )


def test_a_map_becomes_a_new_scene(table, media):
    seq = last_seq(table.campaign)
    scene, plan = map_import(
        campaign_id=table.campaign.pk, by=table.gm, data=encode(dungeon()), name="Cellar"
    )
    scene.refresh_from_db()
    assert (scene.name, scene.width, scene.height) == ("Cellar", 12, 10)
    assert (scene.lighting, scene.lit, scene.baked_lighting) == ("dim", False, True)
    assert scene.background.name.startswith("scenes/") and len(stored_files(media)) == 1
    assert scene.background.name.endswith(".webp")  # kept as WebP, whatever it came as
    barriers = sight.parse_barriers(scene.walls)
    doors = [b for b in barriers if b.kind == sight.DOOR]
    assert [(d.x1, d.y1, d.x2, d.y2, d.state) for d in doors] == [
        (6, 4, 6, 5, sight.CLOSED),
        (2.5, 7.5, 3.5, 7.5, sight.OPEN),
    ]
    assert len(barriers) - len(doors) == 12  # 183 segments in the file
    lights = list(Light.objects.filter(scene=scene).order_by("pk"))
    assert [(a.x, a.y, a.bright, a.dim, a.color, a.intensity, a.shadows, a.on) for a in lights] == [
        (2, 2, 2, 4, "#ffaa55", 1, True, True),
        (9, 7, 3, 6, "#3366ff", 0.5, False, True),
        (11, 1, 1, 2, "#ff0000", 2, True, True),
    ]
    assert plan.as_dict() == {
        "name": "Cellar",
        "width": 12,
        "height": 10,
        "format": 0.3,
        "segments": 183,
        "walls": 12,
        "doors": 2,
        "lights": 3,
        "lighting": "dim",
        "baked_lighting": True,
        "simplify": 0.05,
        "replaces": None,
    }
    [event] = events_after(table.campaign, seq)
    assert (event.kind, event.data["scene"]["id"]) == ("scene.created", scene.pk)
    assert event.data["scene"]["walls"] == scene.walls
    assert event.data["scene"]["lighting"] == "dim"


def test_the_preview_counts_and_stores_nothing(table, media):
    seq = last_seq(table.campaign)
    scenes = Scene.objects.count()
    plan = map_preview(
        campaign_id=table.campaign.pk, by=table.gm, data=encode(dungeon()), simplify=0
    )
    assert (plan.segments, plan.walls, plan.doors, plan.lights, plan.simplify) == (183, 12, 2, 3, 0)
    assert (Scene.objects.count(), last_seq(table.campaign), stored_files(media)) == (
        scenes,
        seq,
        [],
    )


def test_a_larger_tolerance_leaves_fewer_walls():
    import math

    from tests.tabletop.uvtt_files import point

    wave = [point(x / 10, 5 + math.sin(x / 10)) for x in range(0, 100)]
    doc = changed(["objects_line_of_sight"], [wave])
    fine = map_preview_counts(doc, 0)
    coarse = map_preview_counts(doc, 0.5)
    assert fine > coarse


def map_preview_counts(doc, simplify):
    from tests.tabletop.table import make_table

    table = getattr(map_preview_counts, "table", None) or make_table()
    map_preview_counts.table = table
    return map_preview(
        campaign_id=table.campaign.pk, by=table.gm, data=encode(doc), simplify=simplify
    ).walls


def test_a_reimport_replaces_walls_doors_and_map_lights_once_confirmed(table, media):
    scene = table.scene  # 20 x 15 with one wall and four tokens
    carried = Light.objects.create(scene=scene, token=table.tenrec_token, x=2, y=2, bright=4, dim=8)
    Light.objects.create(scene=scene, x=1, y=1, bright=1, dim=2)
    tokens = sorted(Token.objects.filter(scene=scene).values_list("pk", "x", "y"))
    seq = last_seq(table.campaign)
    doc = changed(["resolution", "map_size"], {"x": 20, "y": 15})
    with pytest.raises(ServiceError) as refused:
        map_import(scene_id=scene.pk, by=table.gm, data=encode(doc))
    assert (refused.value.code, refused.value.field) == ("confirm", "replace")
    assert refused.value.message == (
        "the scene has 1 walls, 1 lights: the import replaces them (its tokens stay); "
        "confirm to go on"
    )
    assert (last_seq(table.campaign), stored_files(media)) == (seq, [])
    preview = map_preview(scene_id=scene.pk, by=table.gm, data=encode(doc))
    assert preview.replaces == {"walls": 1, "doors": 0, "lights": 1}
    assert preview.name == "Tomb entrance"
    scene, _ = map_import(scene_id=scene.pk, by=table.gm, data=encode(doc), replace=True)
    scene.refresh_from_db()
    assert (scene.name, scene.width, scene.height) == ("Tomb entrance", 20, 15)
    assert [0, 5, 10, 5] not in scene.walls and len(scene.walls) == 14
    assert sorted(Token.objects.filter(scene=scene).values_list("pk", "x", "y")) == tokens
    lights = Light.objects.filter(scene=scene)
    assert lights.count() == 4 and lights.filter(token__isnull=False).get() == carried
    assert [e.kind for e in events_after(table.campaign, seq)] == ["scene.updated"]


def test_a_scene_with_nothing_to_replace_needs_no_confirmation(table):
    scene, _ = map_import(scene_id=table.spare_scene.pk, by=table.gm, data=encode(dungeon()))
    assert len(Scene.objects.get(pk=scene.pk).walls) == 14


def test_a_reimport_deletes_the_old_background_once_it_commits(
    table, media, django_capture_on_commit_callbacks
):
    first, _ = map_import(scene_id=table.spare_scene.pk, by=table.gm, data=encode(dungeon()))
    old = first.background.name
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        map_import(scene_id=first.pk, by=table.gm, data=encode(dungeon()), replace=True)
    assert old.split("/")[1] in stored_files(media)
    for callback in callbacks:
        callback()
    assert old.split("/")[1] not in stored_files(media)
    assert len(stored_files(media)) == 1


def test_tokens_outside_the_new_map_refuse_the_import(table, media):
    with pytest.raises(ServiceError) as refused:
        map_import(scene_id=table.scene.pk, by=table.gm, data=encode(dungeon()), replace=True)
    assert refused.value.field == "file"
    assert "token Zombie at (8, 8)" not in refused.value.message  # inside 12 x 10
    assert "token Lurker at (15, 10) would fall outside the imported map of 12 x 10" in (
        refused.value.message
    )
    assert stored_files(media) == []
    assert Scene.objects.get(pk=table.scene.pk).walls == [[0, 5, 10, 5]]


@pytest.mark.parametrize(
    "doc, said",
    [
        (b"{not json", "not JSON"),
        (changed(["image"], "aGVsbG8gd29ybGQ="), "image: the file is not an image we can read"),
        (changed(["lights", 0, "position", "x"], 99), "lights[0].position (99, 2) is outside"),
    ],
)
def test_a_refused_file_stores_nothing(table, media, doc, said):
    seq, scenes, lights = last_seq(table.campaign), Scene.objects.count(), Light.objects.count()
    data = doc if isinstance(doc, bytes) else encode(doc)
    for act in (map_preview, map_import):
        with pytest.raises(ServiceError) as refused:
            act(campaign_id=table.campaign.pk, by=table.gm, data=data)
        assert (refused.value.field, said in refused.value.message) == ("file", True)
    assert (last_seq(table.campaign), Scene.objects.count(), Light.objects.count()) == (
        seq,
        scenes,
        lights,
    )
    assert stored_files(media) == []


def test_the_byte_limit_is_a_setting(table, settings):
    settings.MAP_IMPORT_MAX_BYTES = 2048
    with pytest.raises(ServiceError) as refused:
        map_preview(campaign_id=table.campaign.pk, by=table.gm, data=encode(dungeon()))
    assert "at most 0.00195312 MB (MAP_IMPORT_MAX_BYTES)" in refused.value.message


def test_too_many_walls_for_a_scene_asks_for_a_larger_tolerance(table, settings):
    from tests.tabletop.uvtt_files import point

    zigzag = [point(x / 200, (x % 2) / 2) for x in range(0, 2100)]
    doc = changed(["objects_line_of_sight"], [zigzag])
    with pytest.raises(ServiceError) as refused:
        map_preview(campaign_id=table.campaign.pk, by=table.gm, data=encode(doc), simplify=0)
    assert "a scene holds at most 2,000: raise the simplify tolerance" in refused.value.message


def test_the_tolerance_is_bounded(table):
    with pytest.raises(ServiceError) as refused:
        map_preview(campaign_id=table.campaign.pk, by=table.gm, data=encode(dungeon()), simplify=5)
    assert refused.value.field == "simplify"


def test_only_a_gm_imports(table):
    with pytest.raises(NotAllowed):
        map_preview(campaign_id=table.campaign.pk, by=table.player, data=encode(dungeon()))
    with pytest.raises(NotFound):
        map_import(campaign_id=table.campaign.pk, by=table.outsider, data=encode(dungeon()))
    with pytest.raises(NotAllowed):
        map_import(scene_id=table.scene.pk, by=table.player, data=encode(dungeon()))


def test_the_scene_must_be_of_the_campaign_named(table):
    from tests.tabletop.table import make_user

    other = factories.campaign(table.gm, name="Elsewhere", game="artifice")
    assert make_user("someone")
    with pytest.raises(NotFound):
        map_import(
            campaign_id=other.pk, scene_id=table.spare_scene.pk, by=table.gm, data=encode(dungeon())
        )


def test_the_import_writes_the_lights_at_once(table):
    doc = changed(["lights"], dungeon()["lights"] * 10)
    with CaptureQueriesContext(connection) as queries:
        map_import(campaign_id=table.campaign.pk, by=table.gm, data=encode(doc))
    inserts = [
        q for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "tabletop_light"')
    ]
    assert len(inserts) == 1
