"""An export imported into an empty database reproduces the campaign, row
for row and field by field (new ids aside), its pictures byte for byte, and
its dice still check; imported next to other campaigns it gets ids of its
own and touches nothing else."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from vtt.combat.services.undo import undo_last
from vtt.drawings.models import Drawing
from vtt.records.backup import export_campaign, import_campaign
from vtt.records.backup.graph import campaign_tables, is_file, label
from vtt.records.backup.ids import STAND_IN_TOP, NewIds, rewrite, rewrite_event
from vtt.records.backup.restore import GROUPS, REWRITTEN, preview_import
from vtt.tabletop.models import Campaign, PlaySession, RoomEvent, Token

from .campaign import rich_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def snapshot(campaign) -> dict:
    """Every row of the campaign, table by table, in id order, with the
    pictures' bytes and the users' names beside."""
    out = {}
    for table in campaign_tables():
        rows = []
        for row in table.model._base_manager.filter(**{table.path: campaign.pk}).order_by("pk"):
            values = {}
            for field in row._meta.concrete_fields:
                value = field.value_from_object(row)
                if is_file(field):
                    value = value.open("rb").read() if value else None
                    getattr(row, field.name).close()
                elif field.get_internal_type() == "BinaryField":
                    value = bytes(value)
                values[field.attname] = value
            rows.append(values)
        out[table.label] = rows
    return out


def picture_urls(campaign) -> dict:
    """(table, id, column) -> the URL its picture is served at."""
    out = {}
    for table in campaign_tables():
        files = [f for f in table.model._meta.concrete_fields if is_file(f)]
        for row in table.model._base_manager.filter(**{table.path: campaign.pk}):
            for field in files:
                if getattr(row, field.name):
                    out[(table.label, row.pk, field.name)] = getattr(row, field.name).url
    return out


def usernames() -> dict[int, str]:
    return dict(get_user_model().objects.values_list("pk", "username"))


def id_maps(before: dict, after: dict, names_before, names_after) -> dict:
    """old id -> new id, per table: rows keep their order."""
    maps = {
        name: {old["id"]: new["id"] for old, new in zip(before[name], after[name], strict=True)}
        for name in before
    }
    by_name = {name: pk for pk, name in names_after.items()}
    maps["user"] = {pk: by_name[name] for pk, name in names_before.items() if name in by_name}
    # A log numbered from 1 without a gap keeps its numbers.
    maps["seq"] = {e["seq"]: e["seq"] for e in before["tabletop.roomevent"]}
    return maps


def translated(before: dict, maps: dict, urls: dict) -> dict:
    """The rows as they must read after an import: keys through the maps."""
    ids = NewIds(maps)
    out = {}
    for table in campaign_tables():
        rows = []
        for row in before[table.label]:
            row = dict(row)
            for field in table.model._meta.concrete_fields:
                value = row[field.attname]
                if field.primary_key:
                    row[field.attname] = maps[table.label][value]
                elif field in table.users and value is not None:
                    row[field.attname] = maps["user"][value]
                elif field in table.links and value is not None:
                    row[field.attname] = maps[label(field.related_model)][value]
                elif GROUPS.get(table.label) == field.name:
                    row[field.attname] = ids.group(value)
                elif field.attname in REWRITTEN.get(table.label, ()) and "kind" in row:
                    row[field.attname] = rewrite_event(row["kind"], value, ids, urls)
                elif field.attname in REWRITTEN.get(table.label, ()):
                    row[field.attname] = rewrite(value, ids, urls)
            rows.append(row)
        out[table.label] = rows
    return out


def test_every_table_of_the_campaign_has_rows_in_the_test_campaign():
    battle = rich_campaign()
    empty = [name for name, rows in snapshot(battle.campaign).items() if not rows]
    # A new table with a path to Campaign must be given rows here, so the
    # round trip below compares it.
    assert empty == []


def test_an_export_imported_into_an_empty_database_reproduces_the_campaign():
    battle = rich_campaign()
    campaign = battle.campaign
    before, names_before = snapshot(campaign), usernames()
    old_urls = picture_urls(campaign)
    data = export_campaign(campaign)
    # The empty database: the campaign gone, and its people's accounts made
    # again (new ids), as on another server they would be.
    campaign.delete()
    User = get_user_model()
    User.objects.all().delete()
    for name in sorted(names_before.values()):
        User.objects.create_user(username=name)
    assert not Campaign.objects.exists() and not RoomEvent.objects.exists()
    accounts = {u.username: u for u in User.objects.all()}
    names_here = usernames()

    members = {m.id: accounts[m.username] for m in preview_import(data).members}
    imported = import_campaign(data, owner=None, name=campaign.name, members=members)

    after, names_after = snapshot(imported), usernames()
    # The import made no account.
    assert names_after == names_here
    maps = id_maps(before, after, names_before, names_after)
    new_urls = picture_urls(imported)
    urls = {url: new_urls[(t, maps[t][pk], f)] for (t, pk, f), url in old_urls.items()}
    assert len(set(urls.values())) == len(urls) == len(new_urls)
    expected = translated(before, maps, urls)
    for name in expected:
        assert after[name] == expected[name], name
    # A drawing's events name it by its new id (a stand-in once it is gone),
    # each the same: a replay still erases what it drew.
    drawn = {e["kind"]: e["data"] for e in after["tabletop.roomevent"] if "drawing" in e["kind"]}
    kept = Drawing.objects.get(scene__campaign=imported, shape="ellipse")
    assert drawn["drawing.added"]["drawing"]["id"] == kept.pk
    assert drawn["drawing.added"]["drawing"]["scene"] == kept.scene_id
    erased = [e["data"] for e in after["tabletop.roomevent"] if e["kind"] in ("drawing.removed",)][
        0
    ]
    added = [
        e["data"]["drawing"]
        for e in after["tabletop.roomevent"]
        if e["kind"] == "drawing.added" and e["data"]["drawing"]["shape"] == "arrow"
    ][0]
    assert erased["id"] == added["id"] > 2**52 and erased["scene"] == kept.scene_id


def verified(campaign_id: int, number: int) -> str:
    out = io.StringIO()
    call_command("verify_session", str(campaign_id), str(number), stdout=out)
    return out.getvalue()


def test_imported_beside_other_campaigns_it_gets_ids_of_its_own_and_still_plays():
    battle = rich_campaign()
    original = battle.campaign
    data = export_campaign(original)
    before = snapshot(original)
    gm = battle.users["gm"]

    copy = import_campaign(data, owner=gm)
    again = import_campaign(data, owner=gm)

    # The original is untouched; each copy has rows of its own.
    assert snapshot(original) == before
    assert copy.pk != again.pk != original.pk
    for campaign in (copy, again):
        events = RoomEvent.objects.filter(campaign=campaign)
        assert campaign.event_seq == max(e.seq for e in events)
        # Every token the log names is one of this campaign's, or a stand-in
        # for one deleted before the export: never another campaign's.
        own = set(Token.objects.filter(scene__campaign=campaign).values_list("pk", flat=True))
        for event in events.filter(kind__startswith="token."):
            token_id = event.data["token"]["id"]
            assert token_id in own or token_id > STAND_IN_TOP - 100
        # Each ended session still checks, roll by roll, from the log.
        for session in PlaySession.objects.filter(campaign=campaign):
            assert "DOES NOT MATCH" not in verified(campaign.pk, session.number)
            assert "MISSING" not in verified(campaign.pk, session.number)
    # Undo reads the log's ids: the copy's last move goes back on the copy.
    moved = RoomEvent.objects.filter(campaign=copy, kind="token.moved").last()
    token = Token.objects.get(pk=moved.data["token"]["id"])
    assert token.scene.campaign_id == copy.pk
    undo_last(campaign_id=copy.pk, by=gm)
    token.refresh_from_db()
    assert [token.x, token.y] == moved.data["from"]
    assert snapshot(original) == before
