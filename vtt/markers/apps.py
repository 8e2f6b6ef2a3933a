from django.apps import AppConfig


class MarkersConfig(AppConfig):
    """An app for its event kinds: its rows are the table's."""

    name = "vtt.markers"
    label = "markers"
    verbose_name = "Status markers"

    def ready(self):
        from vtt.tabletop import event_kinds

        from . import kinds

        event_kinds.declare_all(kinds.KINDS)
