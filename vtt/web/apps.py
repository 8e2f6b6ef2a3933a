from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "vtt.web"
    label = "web"
    verbose_name = "Browser table"
