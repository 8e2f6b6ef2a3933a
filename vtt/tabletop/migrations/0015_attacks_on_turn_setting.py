"""Campaigns gain the table's `attacks_on_turn` setting, off as it was
before there was one (anyone attacked at any time), so stored settings stay
complete; every other setting is kept."""

from django.db import migrations


def fill(apps, schema_editor):
    Campaign = apps.get_model("tabletop", "Campaign")
    for campaign in Campaign.objects.all():
        settings = dict(campaign.settings or {})
        if "attacks_on_turn" not in settings:
            campaign.settings = {**settings, "attacks_on_turn": False}
            campaign.save(update_fields=["settings"])


class Migration(migrations.Migration):
    dependencies = [("tabletop", "0014_import_uploads")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
