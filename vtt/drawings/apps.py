from django.apps import AppConfig


class DrawingsConfig(AppConfig):
    name = "vtt.drawings"
    label = "drawings"
    verbose_name = "Drawings"

    def ready(self):
        # The drawings' event kinds, declared by the part that owns them.
        from vtt.tabletop import event_kinds

        from . import kinds

        event_kinds.declare_all(kinds.DECLARED)
