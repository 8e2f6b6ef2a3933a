"""manage.py import_map: a map file made a scene from the command line;
counted with --dry-run, a re-import only with --yes, and every refusal an
exit code 2 with nothing written."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.api.test_hostile_input import database_state
from vtt.tabletop.models import Light, Scene

from .uvtt_files import changed, dungeon, encode

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path / "media"


@pytest.fixture
def cellar(tmp_path):
    path = tmp_path / "Cellar.dd2vtt"
    path.write_bytes(encode(dungeon()))
    return path


def run(*args) -> str:
    out = io.StringIO()
    call_command("import_map", *map(str, args), stdout=out)
    return out.getvalue()


def test_a_file_becomes_a_scene_named_after_it(table, cellar):
    said = run(cellar, "--campaign", table.campaign.pk, "--simplify", 0)
    scene = Scene.objects.get(name="Cellar")
    assert f"imported as scene {scene.pk} (Cellar)" in said
    assert "183 wall segments in the file become 12 walls (simplified at 0 squares)" in said
    assert (scene.width, scene.height, scene.lighting, len(scene.walls)) == (12, 10, "dim", 14)
    assert Light.objects.filter(scene=scene).count() == 3


def test_a_dry_run_writes_nothing(table, cellar, media):
    before = database_state()
    said = run(cellar, "--campaign", table.campaign.pk, "--dry-run")
    assert "2 doors; 3 lights" in said and "imported" not in said
    assert database_state() == before and not media.exists()


def test_a_reimport_needs_yes(table, cellar):
    args = (cellar, "--campaign", table.campaign.pk, "--scene", table.scene.pk)
    doc = changed(["resolution", "map_size"], {"x": 20, "y": 15})
    cellar.write_bytes(encode(doc))
    before = database_state()
    with pytest.raises(CommandError) as refused:
        run(*args)
    assert refused.value.returncode == 2
    assert "run again with --yes" in str(refused.value)
    assert database_state() == before
    said = run(*args, "--yes")
    assert "replaces the scene's 1 walls, 0 doors and 0 lights; its tokens stay" in said
    assert len(Scene.objects.get(pk=table.scene.pk).walls) == 14


@pytest.mark.parametrize(
    "content, said",
    [
        (b"{", "not imported: the file is not a Universal VTT map: not JSON"),
        (encode(changed(["image"], None)), "the file carries no image"),
        (encode(changed(["portals", 1, "bounds", 0], {"x": 2.5, "y": 70})), "is outside the map"),
    ],
)
def test_a_bad_file_exits_2_and_writes_nothing(table, cellar, media, content, said):
    cellar.write_bytes(content)
    before = database_state()
    with pytest.raises(CommandError) as refused:
        run(cellar, "--campaign", table.campaign.pk)
    assert refused.value.returncode == 2 and said in str(refused.value)
    assert database_state() == before and not media.exists()


def test_unknown_campaign_scene_or_file_exit_2(table, cellar, tmp_path):
    for args, said in [
        ((cellar, "--campaign", 999_999), "no such campaign"),
        ((cellar, "--campaign", table.campaign.pk, "--scene", 999_999), "no such scene"),
        ((tmp_path / "none.uvtt", "--campaign", table.campaign.pk), "cannot read"),
        ((cellar, "--campaign", table.campaign.pk, "--simplify", 3), "simplify: simplify"),
    ]:
        with pytest.raises(CommandError) as refused:
            run(*args)
        assert refused.value.returncode == 2 and said in str(refused.value), str(refused.value)
