from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "vtt.live"
    label = "live"
    verbose_name = "Live rooms"

    def ready(self):
        from vtt.fog import fog_drawing
        from vtt.spectators.signals import link_closed
        from vtt.tabletop.events import event_committed

        from . import painter, spectating, vision_frames
        from .broadcast import on_event_committed

        event_committed.connect(on_event_committed, dispatch_uid="vtt.live.broadcast")
        # A revoked spectator link closes the sockets watching through it.
        link_closed.connect(spectating.on_link_closed, dispatch_uid="vtt.live.spectating")
        # Where rooms run, fog drawings follow the moves, drawn in a process
        # of their own (docs/vision.md).
        fog_drawing.use(vision_frames.can_defer, vision_frames.schedule, painter.paint)
