from django.apps import AppConfig


class HandoutsConfig(AppConfig):
    """An app for its event kind: its rows are the table's."""

    name = "vtt.handouts"
    label = "handouts"
    verbose_name = "Handouts"

    def ready(self):
        from . import kinds

        kinds.declare_all()
