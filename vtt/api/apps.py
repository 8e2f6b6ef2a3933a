from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "vtt.api"
    label = "api"
