from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "vtt.live"
    label = "live"
    verbose_name = "Live rooms"

    def ready(self):
        from vtt.tabletop.events import event_committed

        from .broadcast import on_event_committed

        event_committed.connect(on_event_committed, dispatch_uid="vtt.live.broadcast")
