from django.apps import AppConfig


class MapsConfig(AppConfig):
    """An app for its command, `import_map`, and its event kind: its rows
    are the table's."""

    name = "vtt.maps"
    label = "maps"

    def ready(self):
        from vtt.tabletop import event_kinds

        from . import kinds

        event_kinds.declare_all(kinds.KINDS)
