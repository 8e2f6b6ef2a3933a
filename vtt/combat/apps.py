from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "vtt.combat"
    label = "combat"
    verbose_name = "Combat"

    def ready(self):
        # The trail and the resource history follow the room log as it is written.
        from . import projection

        projection.register()
