from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """An app for its commands (export_campaign, import_campaign,
    verify_session); it has no models."""

    name = "vtt.records"
    label = "records"
    verbose_name = "Records"
