"""A damaged, foreign or newer archive, or one whose rows do not fit, is
refused with a message that says why, exit 2 from the command, and nothing
written: not a row, not a file."""

import io
import json
import zipfile

import pytest
from django.core.management import CommandError, call_command

from vtt import dice
from vtt.records.backup import BadArchive, export_campaign, import_campaign
from vtt.records.backup import archive as envelope
from vtt.records.backup.graph import campaign_tables

from .campaign import rich_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def exported():
    battle = rich_campaign()
    return battle, export_campaign(battle.campaign)


def database() -> dict:
    """Every row of every campaign table and every user, as they are."""
    from django.contrib.auth import get_user_model

    out = {t.label: list(t.model._base_manager.order_by("pk").values()) for t in campaign_tables()}
    # Logging in to upload moves last_login; nothing an import writes.
    out["users"] = list(get_user_model().objects.order_by("pk").values())
    for user in out["users"]:
        user.pop("last_login", None)
    return out


def files(root) -> set:
    return {p for p in root.rglob("*") if p.is_file()}


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def rezip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, content in parts.items():
            z.writestr(name, content)
    return out.getvalue()


def with_rows(data: bytes, change) -> bytes:
    """The archive with campaign.json changed and its checksum made to
    match: what only the rows' own checks can refuse."""
    parts = members(data)
    rows = json.loads(parts["campaign.json"])
    change(rows)
    parts["campaign.json"] = json.dumps(rows).encode()
    manifest = json.loads(parts["manifest.json"])
    manifest["files"]["campaign.json"] = envelope._sha256(parts["campaign.json"])
    parts["manifest.json"] = json.dumps(manifest).encode()
    return rezip(parts)


def with_manifest(data: bytes, **changes) -> bytes:
    parts = members(data)
    manifest = {**json.loads(parts["manifest.json"]), **changes}
    parts["manifest.json"] = json.dumps(manifest).encode()
    return rezip(parts)


def flipped(data: bytes) -> bytes:
    """One byte of the rows changed, in a stored (uncompressed) archive."""
    parts = members(data)
    text = parts["campaign.json"]
    at = text.index(b"The Tomb")
    parts["campaign.json"] = text[:at] + b"X" + text[at + 1 :]
    return rezip(parts)


def first_event(rows, kind):
    return next(r for r in rows["tables"]["tabletop.roomevent"] if r["kind"] == kind)


BAD = {
    "not a zip": (lambda d: b"hello, not an archive", "not a zip file"),
    "a flipped byte": (flipped, "does not match its checksum"),
    "a truncated file": (lambda d: d[: len(d) // 2], "not a zip file"),
    "a foreign zip": (
        lambda d: rezip({"readme.txt": b"holiday photos"}),
        "it has no manifest.json",
    ),
    "another format": (lambda d: with_manifest(d, format="someone-else"), "not a campaign archive"),
    "a newer version": (lambda d: with_manifest(d, version=99), "newer than this server reads"),
    "an unlisted member": (
        lambda d: rezip({**members(d), "files/extra.png": b"x"}),
        "do not match its manifest",
    ),
    "an unknown table": (
        lambda d: with_rows(d, lambda r: r["tables"].update({"shop.item": []})),
        "a table this server does not know: shop.item",
    ),
    "an unknown column": (
        lambda d: with_rows(
            d, lambda r: r["tables"]["tabletop.scene"][0].update({"colour": "red"})
        ),
        "this server has no column colour",
    ),
    "a log entry of no declared kind": (
        lambda d: with_rows(d, lambda r: first_event(r, "chat").update({"kind": "magic"})),
        "is not one this server keeps",
    ),
    "a log payload not matching its kind": (
        lambda d: with_rows(d, lambda r: first_event(r, "chat")["data"].pop("text")),
        "is not one this server keeps",
    ),
    "a key to a row it does not hold": (
        lambda d: with_rows(
            d, lambda r: r["tables"]["tabletop.token"][0].update({"scene_id": 999999})
        ),
        "names a row the archive does not hold",
    ),
    "a role no member has": (
        lambda d: with_rows(
            d, lambda r: r["tables"]["tabletop.membership"][0].update({"role": "king"})
        ),
        "tabletop.membership.role",
    ),
    "a game this server lacks": (
        lambda d: with_rows(
            d, lambda r: r["tables"]["tabletop.campaign"][0].update({"game": "chess"})
        ),
        "no game 'chess'",
    ),
    "a picture that is no picture": (
        lambda d: _bad_picture(d),
        "is refused: the file is not an image",
    ),
}


def _bad_picture(data: bytes) -> bytes:
    parts = members(data)
    name = next(n for n in parts if n.startswith("files/"))
    parts[name] = b"<html><script>alert(1)</script></html>"
    manifest = json.loads(parts["manifest.json"])
    manifest["files"][name] = envelope._sha256(parts[name])
    parts["manifest.json"] = json.dumps(manifest).encode()
    return rezip(parts)


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_archive_is_refused_by_name_and_changes_nothing(case, exported, media):
    battle, data = exported
    spoil, says = BAD[case]
    bad = spoil(data)
    before, stored = database(), files(media)
    with pytest.raises(BadArchive) as refused:
        import_campaign(bad, owner=battle.users["stranger"])
    assert says in refused.value.message
    assert refused.value.field == "archive"
    assert database() == before
    assert files(media) == stored


def test_the_command_refuses_with_exit_2_and_writes_nothing(exported, media, tmp_path):
    battle, data = exported
    path = tmp_path / "damaged.zip"
    path.write_bytes(flipped(data))
    before, stored = database(), files(media)
    with pytest.raises(CommandError) as refused:
        call_command("import_campaign", str(path), "--owner", battle.users["stranger"].username)
    assert refused.value.returncode == 2
    assert "does not match its checksum" in str(refused.value)
    assert database() == before and files(media) == stored


def test_a_failure_while_writing_rows_deletes_the_pictures_already_stored(exported, media):
    """Rows that pass every check but break a database rule (two sessions
    open at once) roll back, and the pictures written before go too."""
    battle, data = exported

    def two_open(rows):
        for session in rows["tables"]["tabletop.playsession"]:
            session["ended_at"] = None

    before, stored = database(), files(media)
    with pytest.raises(BadArchive) as refused:
        import_campaign(with_rows(data, two_open), owner=battle.users["stranger"])
    assert "break a rule of this server" in refused.value.message
    assert database() == before
    assert files(media) == stored


def test_the_commands_round_trip_through_a_file(exported, tmp_path):
    battle, _ = exported
    path = tmp_path / "tomb.zip"
    out = io.StringIO()
    call_command("export_campaign", str(battle.campaign.pk), "-o", str(path), stdout=out)
    assert "written to" in out.getvalue()
    out = io.StringIO()
    call_command(
        "import_campaign", str(path), "--owner", "artifice-stranger", "--same-names", stdout=out
    )
    assert "GMs: artifice-gm, artifice-stranger" in out.getvalue()


def test_the_commands_refuse_bad_input_with_exit_2(db, tmp_path):
    for args in (
        ("export_campaign", "999999"),
        ("import_campaign", str(tmp_path / "missing.zip")),
    ):
        with pytest.raises(CommandError) as refused:
            call_command(*args)
        assert refused.value.returncode == 2


def test_no_export_while_a_session_is_open(exported):
    """The archive carries the seeds; an open session's is secret."""

    battle, _ = exported
    dice.session_start(campaign_id=battle.campaign.pk, by=battle.users["gm"])
    with pytest.raises(CommandError) as refused:
        call_command("export_campaign", str(battle.campaign.pk), "-o", "/dev/null")
    assert refused.value.returncode == 2
    assert "end it first" in str(refused.value)
