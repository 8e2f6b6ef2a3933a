"""Archives an older server wrote still import: a column this server has
folded into another is read into it (vtt/records/backup/restore.py,
RETIRED). The scene's `lit` flag (before migration 0019) becomes its
`lighting`, as the migration reads it."""

import pytest

from vtt.records.backup import BadArchive, export_campaign, import_campaign

from .campaign import rich_campaign
from .test_refusals import database, files, with_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def exported():
    battle = rich_campaign()
    return battle.users["gm"], export_campaign(battle.campaign)


def older_scene(lit, lighting=None):
    """An archive's scene rows as a server before 0019 wrote them: with the
    `lit` flag, and (before 0016) without `lighting` at all."""

    def change(rows):
        for row in rows["tables"]["tabletop.scene"]:
            row["lit"] = lit
            if lighting is None:
                row.pop("lighting")
            else:
                row["lighting"] = lighting

    return change


@pytest.mark.parametrize(
    "lit, lighting, now",
    [(False, None, "dark"), (True, None, "lit"), (False, "dim", "dim"), (False, "lit", "dark")],
)
def test_an_older_archive_with_the_lit_flag_reads_into_lighting(
    exported, media, lit, lighting, now
):
    gm, data = exported
    copy = import_campaign(with_rows(data, older_scene(lit, lighting)), owner=gm, name="Older")
    scenes = list(copy.scenes.all())
    assert scenes and all(s.lighting == now and s.lit == (now == "lit") for s in scenes)


def test_an_older_archive_whose_lit_flag_is_no_flag_is_refused(exported, media):
    gm, data = exported
    before, stored = database(), files(media)
    with pytest.raises(BadArchive, match="tabletop.scene.lit must be true or false"):
        import_campaign(with_rows(data, older_scene("yes", "lit")), owner=gm, name="Older")
    assert database() == before and files(media) == stored
