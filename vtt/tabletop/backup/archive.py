"""The archive's envelope: a zip holding `manifest.json` (format, version,
when, the app's version, row counts and the SHA-256 of every other member),
`campaign.json` (the rows) and `files/<stored name>` (the pictures).

Reading it checks the envelope only, and refuses anything it does not
recognise with a message that says what is wrong; the rows are judged by
vtt.tabletop.backup.restore."""

import hashlib
import io
import json
import zipfile
from importlib import metadata

from django.utils import timezone

from ..errors import ServiceError

FORMAT = "d6vtt-campaign"
VERSION = 1
MANIFEST = "manifest.json"
DATA = "campaign.json"
FILES = "files/"
# An archive bigger than this is refused before it is opened (the web upload
# and the command alike); a campaign's pictures are 10 MB each at most.
MAX_ARCHIVE_BYTES = 200 * 1024 * 1024
# The unpacked whole, against a zip that inflates to fill the disk.
MAX_UNPACKED_BYTES = 400 * 1024 * 1024
MAX_MEMBERS = 20_000


class BadArchive(ServiceError):
    """An archive refused: nothing was written."""

    def __init__(self, message: str):
        super().__init__("bad_archive", message, "archive")


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


def read(raw: bytes) -> tuple[dict, dict, dict[str, bytes]]:
    """(manifest, rows, files by stored name) of a sound archive; BadArchive
    naming the first fault otherwise."""
    if len(raw) > MAX_ARCHIVE_BYTES:
        raise BadArchive(f"the archive is larger than {MAX_ARCHIVE_BYTES // 2**20} MB")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise BadArchive("this is not a campaign archive (not a zip file)") from None
    with archive:
        names = [e.filename for e in entries]
        if MANIFEST not in names:
            raise BadArchive("this is not a campaign archive: it has no manifest.json")
        if len(entries) > MAX_MEMBERS or len(set(names)) != len(names):
            raise BadArchive("the archive's member list is not one this server writes")
        if sum(e.file_size for e in entries) > MAX_UNPACKED_BYTES:
            raise BadArchive("the archive unpacks to more than this server accepts")
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
    try:
        rows = json.loads(contents.pop(DATA))
    except ValueError:
        raise BadArchive(f"the archive is damaged: {DATA} is not JSON") from None
    if not isinstance(rows, dict):
        raise BadArchive(f"the archive is damaged: {DATA} is not an object")
    files = {}
    for name, content in contents.items():
        if not name.startswith(FILES):
            raise BadArchive(f"the archive holds {name}, which this format has no place for")
        files[name[len(FILES) :]] = content
    return manifest, rows, files


def _member(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        return archive.read(name)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError):
        raise BadArchive(f"the archive is damaged: {name} cannot be read") from None


def _manifest(raw: bytes) -> dict:
    try:
        manifest = json.loads(raw)
    except ValueError:
        raise BadArchive("the archive is damaged: its manifest is not JSON") from None
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
