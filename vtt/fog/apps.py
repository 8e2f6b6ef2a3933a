from django.apps import AppConfig


class FogConfig(AppConfig):
    name = "vtt.fog"
    label = "fog"
    verbose_name = "Fog of war"

    def ready(self):
        # Every event appended on a fog scene is annotated with what each
        # sight group saw of it (vision.annotate_event), in its transaction.
        from vtt.tabletop import event_kinds
        from vtt.tabletop.events import register_annotator

        from . import kinds, vision

        event_kinds.declare_all(kinds.KINDS)
        register_annotator(vision.annotate_event)
