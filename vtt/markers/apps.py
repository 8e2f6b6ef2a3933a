from django.apps import AppConfig


class MarkersConfig(AppConfig):
    """An app for its event kinds: its rows are the table's."""

    name = "vtt.markers"
    label = "markers"
    verbose_name = "Status markers"

    def ready(self):
        from . import kinds

        kinds.declare_all()
