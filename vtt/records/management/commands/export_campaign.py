"""Write a campaign's archive (docs/backup.md).

    python manage.py export_campaign <campaign id> [-o FILE]

Without -o the archive goes to campaign-<id>.zip in the current directory.
Exit 2 on bad input (no such campaign, a play session still open)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from vtt.core.errors import ServiceError
from vtt.records.backup import export_campaign
from vtt.tabletop.models import Campaign


class Command(BaseCommand):
    help = "Export a whole campaign (members, characters, scenes, tokens, the log) as one archive."

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="the campaign's id")
        parser.add_argument("-o", "--output", help="the archive's file (default campaign-<id>.zip)")

    def handle(self, *args, campaign: int, output: str | None, **options):
        found = Campaign.objects.filter(pk=campaign).first()
        if found is None:
            raise CommandError(f"no campaign {campaign}", returncode=2)
        try:
            data = export_campaign(found)
        except ServiceError as error:
            raise CommandError(error.message, returncode=2) from None
        path = Path(output or f"campaign-{found.pk}.zip")
        try:
            path.write_bytes(data)
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}", returncode=2) from None
        self.stdout.write(f"{found.name} (campaign {found.pk}) written to {path}")
