from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "vtt.tabletop"
    label = "tabletop"
    verbose_name = "Tabletop"
