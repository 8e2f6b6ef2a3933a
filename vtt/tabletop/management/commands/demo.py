"""`manage.py demo`: a campaign for each of the five games, ready to play.

A GM (username gm) and a player (username player), members of every demo
campaign (vtt/tabletop/demo: The Tomb for Artifice, The Goblin Shrine for
Fantasy Ground Rules, Dead Freight for Xero Sum, Dock Street for Rd6, Route 9
for Apocalyptia). Safe to run again: what exists is left alone, and
passwords are made (and printed, and written to .demo-passwords) only for
users this run creates."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from vtt.tabletop.demo import DEMOS
from vtt.tabletop.demo.build import lay_out


class Command(BaseCommand):
    help = "Create a demo campaign for each game (safe to run again; changes nothing then)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--passwords-file",
            default=str(Path(settings.BASE_DIR) / ".demo-passwords"),
            help="Where the new users' passwords are written (default: .demo-passwords).",
        )

    def handle(self, *args, passwords_file, **options):
        with transaction.atomic():
            created, users = self._users()
            made = [demo for demo in DEMOS if lay_out(demo, users["gm"], users["player"])]
        if created:
            self._write_passwords(Path(passwords_file), created)
        for demo in made:
            self.stdout.write(self.style.SUCCESS(f"The demo campaign {demo.campaign!r} is ready."))
        if not made and not created:
            names = ", ".join(demo.campaign for demo in DEMOS)
            self.stdout.write(f"The demo campaigns ({names}) are already there; nothing changed.")

    def _users(self):
        created, users = {}, {}
        for username in ("gm", "player"):
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                password = secrets.token_urlsafe(9)
                user = get_user_model().objects.create_user(username=username, password=password)
                created[username] = password
            users[username] = user
        return created, users

    def _write_passwords(self, path: Path, created: dict):
        lines = [f"{username}: {password}" for username, password in created.items()]
        self.stdout.write(f"Demo users (these passwords are shown once; also in {path.name}):")
        for line in lines:
            self.stdout.write(f"  {line}")
        with path.open("a", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")
        path.chmod(0o600)
