from django.apps import AppConfig


class SpectatorsConfig(AppConfig):
    name = "vtt.spectators"
    label = "spectators"
    verbose_name = "Spectators"
