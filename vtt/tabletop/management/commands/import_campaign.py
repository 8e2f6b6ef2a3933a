"""Read a campaign's archive into this server as a new campaign
(docs/backup.md).

    python manage.py import_campaign FILE [--owner USERNAME]

--owner names the account that becomes a GM of the imported campaign
(default: the first GM the archive lists, by user name). A damaged or
foreign archive is refused with the reason and exit 2; nothing is
written."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from vtt.tabletop.backup import MAX_ARCHIVE_BYTES, import_campaign
from vtt.tabletop.errors import ServiceError
from vtt.tabletop.models import Membership, Role


class Command(BaseCommand):
    help = "Import a campaign archive written by export_campaign, as a new campaign."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive")
        parser.add_argument("--owner", help="the user name that becomes a GM of it")

    def handle(self, *args, file: str, owner: str | None, **options):
        path = Path(file)
        try:
            if path.stat().st_size > MAX_ARCHIVE_BYTES:
                raise CommandError(
                    f"{path} is larger than {MAX_ARCHIVE_BYTES // 2**20} MB", returncode=2
                )
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=2) from None
        user = None
        if owner is not None:
            User = get_user_model()
            user = User.objects.filter(**{User.USERNAME_FIELD: owner}).first()
            if user is None:
                raise CommandError(f"no user {owner!r} on this server", returncode=2)
        try:
            campaign = import_campaign(raw, owner=user)
        except ServiceError as error:
            raise CommandError(f"not imported: {error.message}", returncode=2) from None
        gms = Membership.objects.filter(campaign=campaign, role=Role.GM).select_related("user")
        self.stdout.write(
            f"{campaign.name} imported as campaign {campaign.pk}; GMs: "
            + ", ".join(m.user.get_username() for m in gms)
        )
        for account in inactive_members(campaign):
            self.stdout.write(f"  {account} has no usable account here yet (inactive)")


def inactive_members(campaign) -> list[str]:
    rows = Membership.objects.filter(campaign=campaign, user__is_active=False)
    return [m.user.get_username() for m in rows.select_related("user")]
