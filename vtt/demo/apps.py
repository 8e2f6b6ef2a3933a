from django.apps import AppConfig


class DemoConfig(AppConfig):
    """An app for its command (`manage.py demo`); it has no models."""

    name = "vtt.demo"
    label = "demo"
    verbose_name = "Demo"
