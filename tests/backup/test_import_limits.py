"""Hostile archives: a zip bomb is refused from the zip's directory before
anything is inflated (the worker does not grow), JSON nested too deeply or
holding text no column takes is a refusal naming it, a forged log counter
or log numbering is never trusted, and an import creates no account."""

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from vtt.records.backup import BadArchive, export_campaign, import_campaign
from vtt.tabletop.models import Character, Membership, RoomEvent, Token

from .campaign import rich_campaign
from .test_refusals import database, files, members, rezip, with_rows

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def exported():
    battle = rich_campaign()
    return battle, export_campaign(battle.campaign)


def verified(campaign_id: int, number: int) -> str:
    out = io.StringIO()
    call_command("verify_session", str(campaign_id), str(number), stdout=out)
    return out.getvalue()


def padded(data: bytes, spaces: int) -> bytes:
    """The archive with `spaces` blanks after campaign.json's object (still
    JSON, its checksum made to match), written a MiB at a time."""
    parts = members(data)
    manifest = json.loads(parts.pop("manifest.json"))
    rows = parts.pop("campaign.json")
    digest = hashlib.sha256(rows)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("campaign.json", "w", force_zip64=True) as member:
            member.write(rows)
            chunk = b" " * 2**20
            for at in range(0, spaces, len(chunk)):
                piece = chunk[: min(len(chunk), spaces - at)]
                member.write(piece)
                digest.update(piece)
        manifest["files"]["campaign.json"] = digest.hexdigest()
        z.writestr("manifest.json", json.dumps(manifest))
        for name, content in parts.items():
            z.writestr(name, content)
    return out.getvalue()


def refused(data: bytes, owner) -> str:
    before, stored = database(), files(Path(settings.MEDIA_ROOT))
    with pytest.raises(BadArchive) as error:
        import_campaign(data, owner=owner)
    assert error.value.field == "archive"
    assert database() == before
    assert files(Path(settings.MEDIA_ROOT)) == stored
    return error.value.message


def test_a_zip_bomb_is_refused_before_it_is_inflated_and_the_worker_does_not_grow(
    exported, tmp_path
):
    """The issue's bomb: campaign.json and 380 MiB of spaces, under a MB
    zipped. A fresh process imports it (as the command does) and reports
    its peak resident size before and after."""
    battle, data = exported
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(padded(data, 380 * 2**20))
    assert bomb.stat().st_size < 2**20
    script = textwrap.dedent(
        f"""
        import resource, sys, django
        django.setup()
        from vtt.records.backup import import_campaign
        raw = open({str(bomb)!r}, "rb").read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            import_campaign(raw, owner=None)
            said = "imported"
        except Exception as error:
            said = getattr(error, "message", repr(error))
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print((after - before) // 1024)
        print(said)
        """
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "worker-media"),
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    grown_mib, said = done.stdout.strip().splitlines()[-2:]
    # Nothing of the 380 MiB was read: the process grew by a few MiB at most.
    assert int(grown_mib) < 32, f"the worker grew by {grown_mib} MiB"
    assert "campaign.json unpacks to 380 MB" in said


def test_a_member_that_inflates_too_many_times_is_refused(exported):
    battle, data = exported
    says = refused(padded(data, 8 * 2**20), battle.users["gm"])
    assert "campaign.json inflates" in says and "zip bomb" in says


def test_rows_over_their_cap_are_refused(exported, settings):
    battle, data = exported
    settings.IMPORT_MAX_ROWS_MB = 1
    settings.IMPORT_MAX_RATIO = 10_000
    says = refused(padded(data, 2 * 2**20), battle.users["gm"])
    # Two MiB of padding on the campaign's own rows: a little over 2 MB.
    assert re.search(r"campaign\.json unpacks to 2\.\d MB, more than the 1\.0 MB", says), says


def test_an_archive_unpacking_to_more_than_the_whole_cap_is_refused(exported, settings):
    battle, data = exported
    settings.IMPORT_MAX_UNPACKED_MB = 1
    settings.IMPORT_MAX_RATIO = 10_000
    says = refused(padded(data, 2**20), battle.users["gm"])
    assert "more than the 1 MB this server accepts" in says


def with_raw(data: bytes, name: str, raw: bytes) -> bytes:
    """The archive with member `name` replaced and the manifest's checksum
    of it made to match (the manifest itself: as given)."""
    parts = members(data)
    parts[name] = raw
    if name != "manifest.json":
        manifest = json.loads(parts["manifest.json"])
        manifest["files"][name] = hashlib.sha256(raw).hexdigest()
        parts["manifest.json"] = json.dumps(manifest).encode()
    return rezip(parts)


@pytest.mark.parametrize("name", ["campaign.json", "manifest.json"])
def test_json_nested_100000_deep_is_refused_by_name(exported, name):
    battle, data = exported
    says = refused(with_raw(data, name, b"[" * 100_000), battle.users["gm"])
    assert f"{name} is nested more than 64 levels deep" in says


def test_a_log_payload_nested_deeper_than_any_kind_is_refused(exported):
    battle, data = exported

    def deep(rows):
        nested = "x"
        for _ in range(200):
            nested = [nested]
        chat = next(r for r in rows["tables"]["tabletop.roomevent"] if r["kind"] == "chat")
        chat["data"]["extra"] = nested

    says = refused(with_rows(data, deep), battle.users["gm"])
    assert "campaign.json is nested more than 64 levels deep" in says


def test_a_nul_in_a_column_is_refused_by_name(exported):
    battle, data = exported

    def nul(rows):
        rows["tables"]["tabletop.scene"][0]["name"] = "Tomb\u0000entrance"

    says = refused(with_rows(data, nul), battle.users["gm"])
    assert "tables/tabletop.scene/0/name holds a NUL character" in says


def test_a_lone_surrogate_is_refused_by_name(exported):
    battle, data = exported

    def surrogate(rows):
        chat = next(r for r in rows["tables"]["tabletop.roomevent"] if r["kind"] == "chat")
        chat["data"]["text"] = "Forward\ud800!"

    says = refused(with_rows(data, surrogate), battle.users["gm"])
    assert "holds a lone surrogate" in says and "/data/text" in says


def test_a_forged_log_counter_is_not_trusted(exported):
    battle, data = exported

    def forged(rows):
        rows["tables"]["tabletop.campaign"][0]["event_seq"] = 10**15

    copy = import_campaign(with_rows(data, forged), owner=battle.users["gm"])
    seqs = list(RoomEvent.objects.filter(campaign=copy).values_list("seq", flat=True))
    assert copy.event_seq == len(seqs) == max(seqs)


def test_a_log_numbered_from_anywhere_is_numbered_from_1_and_its_references_follow(exported):
    """Every seq shifted far up, with the seqs that name entries shifted the
    same: the copy's log runs 1..n, and each reference names the entry it
    named before (a reveal its roll, an attack itself, a trail step and a
    resource state their moves)."""
    battle, data = exported
    shift = 10**12

    def moved(rows):
        tables = rows["tables"]
        for event in tables["tabletop.roomevent"]:
            event["seq"] += shift
            shifted(event["data"], shift)
        for table in ("combat.trailstep", "combat.resourcestate"):
            for row in tables[table]:
                row["seq"] += shift
        tables["tabletop.campaign"][0]["event_seq"] += shift

    original = {e.seq: e for e in RoomEvent.objects.filter(campaign=battle.campaign)}
    assert any(e.kind == "reveal" for e in original.values())
    assert any(e.kind == "combat.attack" for e in original.values())
    copy = import_campaign(with_rows(data, moved), owner=battle.users["gm"])
    events = {e.seq: e for e in RoomEvent.objects.filter(campaign=copy)}
    assert sorted(events) == list(range(1, len(events) + 1))
    assert copy.event_seq == len(events)
    for seq, event in original.items():
        assert events[seq].kind == event.kind
        if event.kind == "reveal":
            assert events[seq].data["of_seq"] == event.data["of_seq"]
        if event.kind == "combat.attack":
            assert events[seq].data["attack"]["seq"] == seq
    from vtt.combat.models import ResourceState, TrailStep

    for model, path in (
        (TrailStep, "token__scene__campaign"),
        (ResourceState, "character__campaign"),
    ):
        before = sorted(
            model.objects.filter(**{path: battle.campaign}).values_list("seq", flat=True)
        )
        after = sorted(model.objects.filter(**{path: copy}).values_list("seq", flat=True))
        assert after == before and after
    for number in (1, 2):
        report = verified(copy.pk, number)
        assert "DOES NOT MATCH" not in report and "MISSING" not in report


def shifted(value, by: int) -> None:
    """Every seq a payload names (however deep), moved up `by`."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("of_seq", "seq", "undo_of") and isinstance(item, int):
                value[key] = item + by
            else:
                shifted(item, by)
    elif isinstance(value, list):
        for item in value:
            shifted(item, by)


def test_a_reference_to_an_entry_the_log_lacks_is_refused(exported):
    battle, data = exported

    def dangling(rows):
        reveal = next(r for r in rows["tables"]["tabletop.roomevent"] if r["kind"] == "reveal")
        reveal["data"]["of_seq"] = 9999

    says = refused(with_rows(data, dangling), battle.users["gm"])
    assert "names entry #9999, which the log does not hold" in says


def test_an_import_creates_no_accounts_and_drops_the_members_not_kept(exported, media):
    """User rows in an archive naming people this server lacks: no account
    is made. The members nobody takes the place of are left out; their
    characters stay unowned and the log keeps their names."""
    battle, data = exported

    def strangers(rows):
        for user in rows["users"]:
            user["username"] = "nobody-here-" + user["username"]

    User = get_user_model()
    accounts = set(User.objects.values_list("username", flat=True))
    stranger = battle.users["stranger"]
    copy = import_campaign(with_rows(data, strangers), owner=stranger)
    assert set(User.objects.values_list("username", flat=True)) == accounts
    assert list(Membership.objects.filter(campaign=copy).values_list("user", "role")) == [
        (stranger.pk, "gm")
    ]
    characters = Character.objects.filter(campaign=copy)
    assert characters.count() == Character.objects.filter(campaign=battle.campaign).count()
    assert not characters.exclude(owner=None).exists()
    assert not Token.controllers.through.objects.filter(token__scene__campaign=copy).exists()
    # The log names the player who spoke as it did, by an id no account has.
    said = RoomEvent.objects.filter(campaign=copy, kind="chat").first().data["from"]
    assert said["name"] == "artifice-player"
    assert not User.objects.filter(pk=said["id"]).exists()
