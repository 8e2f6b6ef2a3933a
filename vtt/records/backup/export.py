"""A campaign as one archive: every row of every campaign table
(vtt.records.backup.graph), the users they name by user name, and the
picture files they point to.

Who reads it: the server's operator (`manage.py export_campaign`) gets
everything; a GM downloading from the console gets everything a GM may
see, which is all but the whispers between other members (a whisper is
its two members' alone, the GM included). Neither door exports while a
play session is open: the archive carries every session's seed, and an
open session's seed must stay secret until it ends (docs/dice.md)."""

from django.db.models import Q

from vtt.core.errors import ServiceError
from vtt.tabletop import event_kinds
from vtt.tabletop.models import Campaign, PlaySession

from . import archive
from .graph import campaign_tables, is_file, user_model

WHISPERS = "tabletop.roomevent"


def export_campaign(campaign: Campaign, *, reader=None) -> bytes:
    """The archive of `campaign`. `reader`: the GM downloading it (None: the
    operator, who gets every row)."""
    open_session = PlaySession.objects.filter(campaign=campaign, ended_at__isnull=True).first()
    if open_session is not None:
        raise ServiceError(
            "session_open",
            f"session {open_session.number} is open: end it first (its seed is secret until"
            " then, and the archive carries every session's seed)",
            "campaign",
        )
    tables, files, counts, user_ids = {}, {}, {}, set()
    urls = {}
    for table in campaign_tables():
        rows = table.model._base_manager.filter(**{table.path: campaign.pk}).order_by("pk")
        if table.label == WHISPERS and reader is not None:
            rows = rows.exclude(_others_whispers(reader))
        out = []
        for row in rows:
            out.append(_row(row, files, urls))
            user_ids.update(getattr(row, f.attname) for f in table.users)
        tables[table.label] = out
        counts[table.label] = len(out)
    users = user_model()._base_manager.filter(pk__in=user_ids - {None}).order_by("pk")
    data = {
        "users": [
            {
                "id": u.pk,
                "username": u.get_username(),
                "first_name": getattr(u, "first_name", ""),
                "last_name": getattr(u, "last_name", ""),
            }
            for u in users
        ],
        "tables": tables,
        "files": urls,
    }
    counts["users"] = len(data["users"])
    counts["files"] = len(files)
    return archive.write(data, files, counts)


def _others_whispers(reader) -> Q:
    return Q(kind=event_kinds.WHISPER) & ~Q(actor=reader) & ~Q(data__to__id=reader.pk)


def _row(row, files: dict, urls: dict) -> dict:
    out = {}
    for field in row._meta.concrete_fields:
        value = field.value_from_object(row)
        if is_file(field):
            name = value.name if value else None
            if name and name not in files:
                with value.storage.open(name, "rb") as stored:
                    files[name] = stored.read()
                urls[name] = {"url": value.storage.url(name)}
            value = name or None
        elif value is not None and field.get_internal_type() in ("DateTimeField", "DateField"):
            value = value.isoformat()
        elif value is not None and field.get_internal_type() == "BinaryField":
            value = bytes(value).hex()
        out[field.attname] = value
    return out
