from ._rules import RulesCommand


class Command(RulesCommand):
    help = "Adjudicate one rules request: JSON on stdin, the result as JSON on stdout."
    rules_command = "adjudicate"
