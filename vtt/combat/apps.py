from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "vtt.combat"
    label = "combat"
    verbose_name = "Combat"

    def ready(self):
        # The fights' kinds of the log, and the trail and the resource
        # history that follow the log as it is written.
        from vtt.tabletop import event_kinds

        from . import kinds, projection

        event_kinds.declare_all(kinds.KINDS)
        projection.register()
