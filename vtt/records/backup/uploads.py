"""Who may import a campaign, how often, and where an uploaded archive
waits while its importer chooses the name and the members to keep
(docs/backup.md, "Import").

Who: CAMPAIGN_IMPORT_BY, "staff", "gms" (staff and anyone who GMs a
campaign, the default) or "everyone". How often: CAMPAIGN_IMPORTS_PER_HOUR
uploads per user over the last hour, counted in the database (refused
uploads count too: judging an archive is the costly part).

The archive waits in the default storage (every worker sees it) under an
unguessable name that only the uploader's session holds; it is deleted
when imported or replaced, and whatever is left a day later goes with the
next upload."""

import math
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.files.storage import default_storage
from django.utils import timezone

from vtt.core.errors import NotAllowed, ServiceError
from vtt.tabletop import policy
from vtt.tabletop.models import ImportUpload, Membership

PENDING = "imports/pending/"
KEPT_FOR = timedelta(days=1)
WINDOW = timedelta(hours=1)


def may_import(user) -> bool:
    who = settings.CAMPAIGN_IMPORT_BY
    if not user.is_authenticated or not user.is_active:
        return False
    if who == "everyone" or user.is_staff:
        return True
    # Anything but "everyone" or "gms" is read as the narrowest: staff.
    return who == "gms" and Membership.objects.filter(policy.gms_q(), user=user).exists()


def check_may_import(user) -> None:
    if not may_import(user):
        who = "staff" if settings.CAMPAIGN_IMPORT_BY not in ("gms", "everyone") else "GMs"
        raise NotAllowed(f"on this server only {who} may import a campaign", "archive")


def count_upload(user) -> None:
    """An upload by `user`, refused (ServiceError "rate_limited") if it is
    over CAMPAIGN_IMPORTS_PER_HOUR."""
    limit = settings.CAMPAIGN_IMPORTS_PER_HOUR
    now = timezone.now()
    ImportUpload.objects.filter(at__lte=now - WINDOW).delete()
    if limit > 0:
        recent = ImportUpload.objects.filter(user=user, at__gt=now - WINDOW).order_by("-at")
        times = list(recent.values_list("at", flat=True)[:limit])
        if len(times) >= limit:
            minutes = max(1, math.ceil((times[-1] + WINDOW - now).total_seconds() / 60))
            error = ServiceError(
                "rate_limited",
                f"{limit} archives an hour at most; try again in {minutes} minutes",
                "archive",
            )
            error.retry_after = minutes * 60
            raise error
    ImportUpload.objects.create(user=user, at=now)


def stage(upload) -> str:
    """The upload kept until its import is confirmed: its stored name."""
    _sweep()
    name = f"{PENDING}{secrets.token_urlsafe(24)}.zip"
    return default_storage.save(name, upload)


def staged(name: str):
    """The staged archive, open for reading; None if it is gone."""
    if not isinstance(name, str) or not name.startswith(PENDING) or ".." in name:
        return None
    try:
        return default_storage.open(name, "rb")
    except (FileNotFoundError, OSError):
        return None


def discard(name: str | None) -> None:
    if isinstance(name, str) and name.startswith(PENDING) and ".." not in name:
        default_storage.delete(name)


def _sweep() -> None:
    """Archives staged more than KEPT_FOR ago, never confirmed."""
    try:
        _dirs, names = default_storage.listdir(PENDING)
    except (FileNotFoundError, NotADirectoryError):
        return
    old = timezone.now() - KEPT_FOR
    for name in names:
        try:
            if default_storage.get_modified_time(PENDING + name) < old:
                default_storage.delete(PENDING + name)
        except (FileNotFoundError, OSError):
            continue
