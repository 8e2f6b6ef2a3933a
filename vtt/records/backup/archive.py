"""The archive's envelope: a zip holding `manifest.json` (format, version,
when, the app's version, row counts and the SHA-256 of every other member),
`campaign.json` (the rows) and `files/<stored name>` (the pictures).

Reading it checks the envelope only, and refuses anything it does not
recognise with a message that says what is wrong; the rows are judged by
vtt.records.backup.restore. Sizes are judged from the zip's directory
before anything is inflated (a zip bomb is refused unread), and each member
is read with a cap whatever its header says. The JSON it holds is judged
before any of it reaches a column: nesting no deeper than MAX_DEPTH, no NUL
and no lone surrogate in any text (PostgreSQL and UTF-8 refuse them)."""

import hashlib
import io
import json
import zipfile
from importlib import metadata

from django.conf import settings
from django.utils import timezone

from vtt.core.errors import ServiceError

FORMAT = "d6vtt-campaign"
VERSION = 1
MANIFEST = "manifest.json"
DATA = "campaign.json"
FILES = "files/"
MAX_MEMBERS = 20_000
# The manifest lists a checksum per member: 20,000 of them fit easily.
MAX_MANIFEST_BYTES = 4 * 2**20
# A member this small may compress as well as it likes.
RATIO_FROM_BYTES = 2**20
# JSON nested deeper than this is no archive's: the deepest payload of the
# log (a reveal's copy of an attack) is a dozen levels down.
MAX_DEPTH = 64


class BadArchive(ServiceError):
    """An archive refused: nothing was written."""

    def __init__(self, message: str):
        super().__init__("bad_archive", message, "archive")


def max_archive_bytes() -> int:
    """An archive bigger than this is refused before it is opened (the web
    upload and the command alike)."""
    return settings.IMPORT_MAX_ARCHIVE_MB * 2**20


def app_version() -> str:
    try:
        return metadata.version("d6vtt")
    except metadata.PackageNotFoundError:
        return "unknown"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write(data: dict, files: dict[str, bytes], counts: dict[str, int]) -> bytes:
    """The archive's bytes: the rows, the files under their stored names."""
    members = {DATA: json.dumps(data, sort_keys=True, separators=(",", ":")).encode()}
    members.update({FILES + name: content for name, content in files.items()})
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "app_version": app_version(),
        "counts": counts,
        "files": {name: _sha256(content) for name, content in sorted(members.items())},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))
        for name, content in sorted(members.items()):
            archive.writestr(name, content)
    return out.getvalue()


def read(raw) -> tuple[dict, dict, dict[str, bytes]]:
    """(manifest, rows, files by stored name) of a sound archive (its bytes,
    or a binary file open on it); BadArchive naming the first fault
    otherwise."""
    source = io.BytesIO(raw) if isinstance(raw, bytes | bytearray) else raw
    source.seek(0, io.SEEK_END)
    if source.tell() > max_archive_bytes():
        raise BadArchive(f"the archive is larger than {settings.IMPORT_MAX_ARCHIVE_MB} MB")
    source.seek(0)
    try:
        archive = zipfile.ZipFile(source)
        entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise BadArchive("this is not a campaign archive (not a zip file)") from None
    with archive:
        names = [e.filename for e in entries]
        if MANIFEST not in names:
            raise BadArchive("this is not a campaign archive: it has no manifest.json")
        if len(entries) > MAX_MEMBERS or len(set(names)) != len(names):
            raise BadArchive("the archive's member list is not one this server writes")
        _check_sizes(entries)
        manifest = _manifest(_member(archive, MANIFEST))
        listed = manifest["files"]
        present = set(names) - {MANIFEST}
        if set(listed) != present:
            missing = sorted(set(listed) - present)
            extra = sorted(present - set(listed))
            raise BadArchive(
                "the archive's files do not match its manifest"
                + (f": missing {', '.join(missing[:3])}" if missing else "")
                + (f": not listed {', '.join(extra[:3])}" if extra else "")
            )
        contents = {}
        for name in sorted(present):
            content = _member(archive, name)
            if _sha256(content) != listed[name]:
                raise BadArchive(f"the archive is damaged: {name} does not match its checksum")
            contents[name] = content
    if DATA not in contents:
        raise BadArchive(f"the archive has no {DATA}")
    rows = parse_json(contents.pop(DATA), DATA)
    if not isinstance(rows, dict):
        raise BadArchive(f"the archive is damaged: {DATA} is not an object")
    files = {}
    for name, content in contents.items():
        if not name.startswith(FILES):
            raise BadArchive(f"the archive holds {name}, which this format has no place for")
        files[name[len(FILES) :]] = content
    return manifest, rows, files


def _cap(name: str) -> int:
    """The most bytes member `name` may unpack to."""
    if name == MANIFEST:
        return MAX_MANIFEST_BYTES
    if name == DATA:
        return settings.IMPORT_MAX_ROWS_MB * 2**20
    return settings.IMAGE_MAX_BYTES


def _check_sizes(entries) -> None:
    """From the zip's directory alone, before anything is inflated: each
    member within its cap, the whole within IMPORT_MAX_UNPACKED_MB, and no
    member that inflates more than IMPORT_MAX_RATIO times."""
    for entry in entries:
        name = entry.filename
        if entry.file_size > _cap(name):
            raise BadArchive(
                f"the archive's {name} unpacks to {_mb(entry.file_size)}, more than the"
                f" {_mb(_cap(name))} this server accepts"
            )
        ratio = entry.file_size / max(entry.compress_size, 1)
        if entry.file_size > RATIO_FROM_BYTES and ratio > settings.IMPORT_MAX_RATIO:
            raise BadArchive(
                f"the archive's {name} inflates {ratio:.0f} times, more than the"
                f" {settings.IMPORT_MAX_RATIO} this server accepts (a zip bomb?)"
            )
    total = sum(e.file_size for e in entries)
    if total > settings.IMPORT_MAX_UNPACKED_MB * 2**20:
        raise BadArchive(
            f"the archive unpacks to {_mb(total)}, more than the"
            f" {settings.IMPORT_MAX_UNPACKED_MB} MB this server accepts"
        )


def _mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size < 10 * 2**20 else f"{size // 2**20} MB"


def _member(archive: zipfile.ZipFile, name: str) -> bytes:
    """The member's bytes, read with its cap: a header that understates its
    size is caught after cap + 1 bytes, not after it has filled memory."""
    cap = _cap(name)
    try:
        with archive.open(name) as member:
            content = member.read(cap + 1)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError):
        raise BadArchive(f"the archive is damaged: {name} cannot be read") from None
    if len(content) > cap:
        raise BadArchive(f"the archive's {name} unpacks to more than {_mb(cap)}")
    return content


def parse_json(raw: bytes, name: str):
    """`raw` parsed, or BadArchive naming the fault: not JSON, nested too
    deeply, or text PostgreSQL cannot store."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadArchive(f"{name} is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:
        raise BadArchive(f"the archive is damaged: {name} is not JSON") from None
    _check_json(value, name)
    return value


def _check_json(value, name: str) -> None:
    """Depth and text of a parsed document, without recursion (a document
    json.loads managed may still be deeper than Python recurses)."""
    stack = [(value, 1, ())]
    while stack:
        item, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            raise BadArchive(f"{name} is nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key, name, where + (key,))
                stack.append((inner, depth + 1, where + (key,)))
        elif isinstance(item, list):
            stack.extend((inner, depth + 1, where + (i,)) for i, inner in enumerate(item))
        elif isinstance(item, str):
            _check_text(item, name, where)


def _check_text(text: str, name: str, where: tuple) -> None:
    if text.isascii() and "\x00" not in text:
        return
    at = "/".join(str(part) for part in where) or "the top"
    if "\x00" in text:
        raise BadArchive(f"{name}: the text at {at} holds a NUL character, which no column takes")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadArchive(
            f"{name}: the text at {at} holds a lone surrogate (half of a UTF-16 pair),"
            " which is not Unicode text"
        ) from None


def _manifest(raw: bytes) -> dict:
    manifest = parse_json(raw, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BadArchive(f"this is not a campaign archive of this tabletop (format {FORMAT!r})")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BadArchive("the archive's manifest has no format version")
    if version > VERSION:
        raise BadArchive(
            f"the archive is format version {version}, newer than this server reads"
            f" ({VERSION}): update this server first"
        )
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in files.items()
    ):
        raise BadArchive("the archive's manifest does not list its files' checksums")
    return manifest
