from ._rules import RulesCommand


class Command(RulesCommand):
    help = "Exact odds of a rules request (no faces): JSON on stdin, JSON on stdout."
    rules_command = "odds"
