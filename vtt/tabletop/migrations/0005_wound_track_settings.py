"""Campaigns gain their game's wound track settings (the defaults of
docs/rules.md, "Wound tracks"), so stored settings stay complete; every
other setting is kept. The values are written out here, as they were when
the settings came, so a later change of a default changes no old campaign."""

from django.db import migrations

SKIP = {"skip_fallen": True}
NEW = {
    "artifice": SKIP,
    "fgr": {
        "wound_states": ["Unhurt", "Hurt", "Wounded", "Badly Wounded", "Incapacitated", "Dead"],
        "wounds_per_state": 4,
        **SKIP,
    },
    "rd6": {
        "wound_states": [
            "Healthy",
            "Stunned",
            "Wounded",
            "Severely Wounded",
            "Incapacitated",
            "Dead",
        ],
        "wounds_per_state": 6,
        **SKIP,
    },
    "apocalyptia": {
        "wound_states": ["Unhurt", "Hurt", "Wounded", "Critical", "Incapacitated", "Dead"],
        "wounds_per_state": 3,
        **SKIP,
    },
    "xerosum": {"wound_states": ["Unhurt", "Wounded", "Dying"], **SKIP},
}


def fill(apps, schema_editor):
    Campaign = apps.get_model("tabletop", "Campaign")
    for campaign in Campaign.objects.filter(game__in=NEW):
        settings = dict(campaign.settings or {})
        missing = {k: v for k, v in NEW[campaign.game].items() if k not in settings}
        if missing:
            campaign.settings = {**settings, **missing}
            campaign.save(update_fields=["settings"])


class Migration(migrations.Migration):
    dependencies = [("tabletop", "0004_xerosum_starting_points")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
