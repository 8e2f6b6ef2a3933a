"""Xero Sum campaigns gain the starting Wound and Resilience Points settings
(their defaults, docs/rules.md); every other setting is kept."""

from django.db import migrations

NEW = {"starting_wound_points": 10, "starting_resilience_points": 10}


def fill(apps, schema_editor):
    Campaign = apps.get_model("tabletop", "Campaign")
    for campaign in Campaign.objects.filter(game="xerosum"):
        settings = dict(campaign.settings or {})
        missing = {key: value for key, value in NEW.items() if key not in settings}
        if missing:
            campaign.settings = {**settings, **missing}
            campaign.save(update_fields=["settings"])


class Migration(migrations.Migration):
    dependencies = [("tabletop", "0003_game_from_the_kits")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
