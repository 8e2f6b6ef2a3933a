"""Where an uploaded map file waits between its count and its import:
the default storage (every worker sees it) under an unguessable name that
only the uploader's session holds, with the campaign and scene it is for.
Replaced by the next upload, deleted once imported."""

import secrets

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

PENDING = "maps/pending/"
SESSION_KEY = "pending_map"


def stage(request, data: bytes, *, campaign_id: int, scene_id: int | None, name: str) -> None:
    discard(request)
    stored = default_storage.save(f"{PENDING}{secrets.token_urlsafe(24)}.uvtt", ContentFile(data))
    request.session[SESSION_KEY] = {
        "file": stored,
        "campaign": campaign_id,
        "scene": scene_id,
        "name": name,
    }


def staged(request, *, campaign_id: int, scene_id: int | None) -> tuple[dict, bytes] | None:
    """The session's staged map for this campaign and scene, and its bytes;
    None if there is none (or it is gone)."""
    pending = request.session.get(SESSION_KEY)
    if not isinstance(pending, dict) or (pending.get("campaign"), pending.get("scene")) != (
        campaign_id,
        scene_id,
    ):
        return None
    name = pending.get("file")
    if not isinstance(name, str) or not name.startswith(PENDING) or ".." in name:
        return None
    try:
        with default_storage.open(name, "rb") as source:
            return pending, source.read()
    except (FileNotFoundError, OSError):
        return None


def discard(request) -> None:
    pending = request.session.pop(SESSION_KEY, None)
    if isinstance(pending, dict) and str(pending.get("file", "")).startswith(PENDING):
        default_storage.delete(pending["file"])
