#!/usr/bin/env python
"""Django's command-line utility for the d6 virtual tabletop."""

import os
import sys

# The rules commands need no Django: answer them before Django starts, so a
# bot piping one request through `manage.py adjudicate` pays no set-up cost.
FAST_COMMANDS = {"adjudicate", "odds"}


def main():
    if len(sys.argv) == 2 and sys.argv[1] in FAST_COMMANDS:
        from vtt.rules.cli import run

        sys.exit(run(sys.argv[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
