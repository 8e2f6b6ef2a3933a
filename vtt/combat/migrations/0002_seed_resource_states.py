"""What every character already had when combat arrived: the "before" state
of their next change, so undo works for characters made earlier too."""

from django.db import migrations


def seed(apps, schema_editor):
    Character = apps.get_model("tabletop", "Character")
    ResourceState = apps.get_model("combat", "ResourceState")
    states = [
        ResourceState(character_id=c.pk, seq=c.campaign.event_seq, resources=c.resources)
        for c in Character.objects.select_related("campaign").iterator()
        if not ResourceState.objects.filter(character_id=c.pk).exists()
    ]
    ResourceState.objects.bulk_create(states, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("combat", "0001_initial")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
