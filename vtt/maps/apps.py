from django.apps import AppConfig


class MapsConfig(AppConfig):
    """An app only for its command, `import_map`: its rows are the table's."""

    name = "vtt.maps"
    label = "maps"
