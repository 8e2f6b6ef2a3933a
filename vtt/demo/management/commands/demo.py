"""`manage.py demo`: a campaign for each of the five games, ready to play.

A GM (username gm) and a player (username player), members of every demo
campaign (each game's vtt/games/<game>/demo.py, gathered by
vtt/demo: The Tomb for Artifice, The Goblin Shrine for Fantasy
Ground Rules, Dead Freight for Xero Sum, Dock Street for Rd6, Route 9 for
Apocalyptia). Safe to run again: what exists is left alone, and
passwords are made (and printed, and written to .demo-passwords) only for
users this run creates. The file holds one line per demo user, with the
password that logs in now: a line left by a run against another database
is dropped, so a newcomer never copies a stale one."""

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from vtt.demo import DEMOS
from vtt.demo.build import lay_out

DEMO_USERS = ("gm", "player")


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
        for username in DEMO_USERS:
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
        kept = {**_still_working(path), **created}
        text = "".join(
            f"{username}: {kept[username]}\n" for username in DEMO_USERS if username in kept
        )
        # A new file is its owner's alone before anything is in it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        path.chmod(0o600)


def _still_working(path: Path) -> dict:
    """The file's passwords that still log their demo user in (a user this
    run did not create keeps the line it had)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    users = {u.username: u for u in get_user_model().objects.filter(username__in=DEMO_USERS)}
    working = {}
    for line in text.splitlines():
        username, _, password = line.partition(": ")
        user = users.get(username)
        if user is not None and password and user.check_password(password):
            working[username] = password
    return working
