"""Shared body of the `adjudicate` and `odds` commands (manage.py also answers
them before Django starts; this is the same code when called through Django)."""

import sys

from django.core.management.base import BaseCommand

from vtt.rules.cli import run


class RulesCommand(BaseCommand):
    rules_command = ""

    def execute(self, *args, **options):
        # Not handle(): the contract wants the bare JSON and exit 2, not
        # Django's CommandError formatting.
        code = run(self.rules_command, sys.stdin, self.stdout._out)
        if code:
            sys.exit(code)
