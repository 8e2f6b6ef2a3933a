from django.apps import AppConfig


class HandoutsConfig(AppConfig):
    """An app for its event kind: its rows are the table's."""

    name = "vtt.handouts"
    label = "handouts"
    verbose_name = "Handouts"

    def ready(self):
        from vtt.tabletop import event_kinds

        from . import kinds

        event_kinds.declare_all(kinds.KINDS)
