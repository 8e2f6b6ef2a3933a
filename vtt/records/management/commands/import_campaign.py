"""Read a campaign's archive into this server as a new campaign
(docs/backup.md).

    python manage.py import_campaign FILE [--owner USERNAME] [--name NAME]
        [--member OLD=NEW ...] [--same-names]

An import creates no accounts. --owner names the account that becomes a GM
of the imported campaign; --member keeps the archive's member OLD as this
server's account NEW (repeatable); --same-names keeps every member whose
user name is an account here (moving a campaign between servers that share
their players). Members not kept are dropped. The campaign is named NAME,
or the archive's name marked "(imported <date>)". A damaged or foreign
archive, an unknown user name or a campaign left without a GM is refused
with the reason and exit 2; nothing is written."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from vtt.core.errors import ServiceError
from vtt.records.backup import import_campaign, max_archive_bytes
from vtt.records.backup.restore import preview_import
from vtt.tabletop import policy
from vtt.tabletop.models import Membership


class Command(BaseCommand):
    help = "Import a campaign archive written by export_campaign, as a new campaign."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive")
        parser.add_argument("--owner", help="the user name that becomes a GM of it")
        parser.add_argument("--name", help="the new campaign's name")
        parser.add_argument(
            "--member",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="keep the archive's member OLD as this server's user NEW",
        )
        parser.add_argument(
            "--same-names",
            action="store_true",
            help="keep every member whose user name is an account here",
        )

    def handle(self, *args, file: str, owner, name, member, same_names, **options):
        path = Path(file)
        try:
            if path.stat().st_size > max_archive_bytes():
                raise CommandError(
                    f"{path} is larger than {settings.IMPORT_MAX_ARCHIVE_MB} MB", returncode=2
                )
            with path.open("rb") as source:
                try:
                    preview = preview_import(source)
                    members = self.members(preview, member, same_names)
                    campaign = import_campaign(
                        source, owner=account(owner) if owner else None, name=name, members=members
                    )
                except ServiceError as error:
                    raise CommandError(f"not imported: {error.message}", returncode=2) from None
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        gms = Membership.objects.filter(policy.gms_q(), campaign=campaign).select_related("user")
        self.stdout.write(
            f"{campaign.name} imported as campaign {campaign.pk}; GMs: "
            + ", ".join(m.user.get_username() for m in gms)
        )
        kept = {m.user.get_username() for m in Membership.objects.filter(campaign=campaign)}
        dropped = [m.username for m in preview.members if m.role and m.id not in members]
        if dropped:
            self.stdout.write(f"  not kept: {', '.join(dropped)} (members here: {len(kept)})")

    def members(self, preview, pairs: list[str], same_names: bool) -> dict:
        by_name = {m.username: m.id for m in preview.members}
        out = {}
        if same_names:
            User = get_user_model()
            found = User.objects.filter(**{f"{User.USERNAME_FIELD}__in": list(by_name)})
            out = {by_name[u.get_username()]: u for u in found}
        for pair in pairs:
            old, sep, new = pair.partition("=")
            if not sep or old not in by_name:
                raise CommandError(
                    f"--member {pair}: the archive has no user {old!r}", returncode=2
                )
            out[by_name[old]] = account(new)
        return out


def account(username: str):
    User = get_user_model()
    user = User.objects.filter(**{User.USERNAME_FIELD: username}, is_active=True).first()
    if user is None:
        raise CommandError(f"no user {username!r} on this server", returncode=2)
    return user
