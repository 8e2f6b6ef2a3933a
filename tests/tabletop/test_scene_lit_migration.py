"""The migration that drops a scene's `lit` column: `lighting` keeps what
sight read from the flag (a scene not lit but marked "lit" turns dark, one
lit but marked dim or dark turns lit, dim stays dim when not lit), and
going back fills the flag from `lighting` again."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tabletop", "0019_undoable_markers")]
AFTER = [("tabletop", "0020_scene_lit_from_lighting")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_lighting_keeps_what_the_flag_said_and_going_back_fills_it_again():
    apps = migrate(BEFORE)
    Campaign = apps.get_model("tabletop", "Campaign")
    Scene = apps.get_model("tabletop", "Scene")
    campaign = Campaign.objects.create(name="Old table", game="artifice")
    cases = {  # (lit, lighting) before -> lighting after
        "plain lit": ((True, "lit"), "lit"),
        "plain dark": ((False, "dark"), "dark"),
        "dim": ((False, "dim"), "dim"),
        "flag off, word lit": ((False, "lit"), "dark"),
        "flag on, word dark": ((True, "dark"), "lit"),
    }
    ids = {
        name: Scene.objects.create(campaign=campaign, name=name, lit=lit, lighting=word).pk
        for name, ((lit, word), _) in cases.items()
    }
    try:
        migrate(AFTER)
        from vtt.tabletop.models import Scene as Now

        for name, (_, after) in cases.items():
            scene = Now.objects.get(pk=ids[name])
            assert (scene.lighting, scene.lit) == (after, after == "lit"), name
        assert "lit" not in {f.name for f in Now._meta.concrete_fields}

        back = migrate(BEFORE).get_model("tabletop", "Scene")
        for name, (_, after) in cases.items():
            row = back.objects.get(pk=ids[name])
            assert (row.lit, row.lighting) == (after == "lit", after), name
    finally:
        migrate(latest())
