from django.apps import AppConfig


class AreasConfig(AppConfig):
    name = "vtt.areas"
    label = "areas"
    verbose_name = "Area templates"

    def ready(self):
        # The log's kinds for templates are this part's own (vtt.areas.kinds).
        from vtt.tabletop import event_kinds

        from . import kinds

        event_kinds.declare_all(kinds.KINDS)
