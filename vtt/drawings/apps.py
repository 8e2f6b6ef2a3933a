from django.apps import AppConfig


class DrawingsConfig(AppConfig):
    name = "vtt.drawings"
    label = "drawings"
    verbose_name = "Drawings"

    def ready(self):
        # The drawings' event kinds, declared by the part that owns them.
        from vtt.tabletop import event_kinds

        from . import kinds

        for kind in kinds.DECLARED:
            event_kinds.declare(kind)
