"""A roll's request, result and draw are stored once, in its "roll" log
entry: each roll row is linked to its entry and its own copy dropped. A row
whose entry is missing or says something else keeps its copy (own_*), so
nothing is lost; going back copies the entry's values onto the row again."""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 1000


def link_rolls(apps, schema_editor):
    Roll = apps.get_model("tabletop", "Roll")
    RoomEvent = apps.get_model("tabletop", "RoomEvent")
    entries = (
        RoomEvent.objects.filter(kind="roll")
        .order_by("pk")
        .values_list("pk", "campaign_id", "data")
    )
    pending = {}

    def flush():
        rolls = Roll.objects.filter(pk__in=pending, event__isnull=True)
        linked = []
        for roll in rolls:
            event_id, campaign_id, data = pending[roll.pk]
            same = (
                campaign_id == roll.campaign_id
                and data.get("request") == roll.own_request
                and data.get("result") == roll.own_result
                and data.get("draw") == roll.own_draw
            )
            if same:
                roll.event_id = event_id
                roll.own_request = roll.own_result = roll.own_draw = None
                linked.append(roll)
        Roll.objects.bulk_update(linked, ["event", "own_request", "own_result", "own_draw"])
        pending.clear()

    for event_id, campaign_id, data in entries.iterator(chunk_size=BATCH):
        roll_id = data.get("roll_id") if isinstance(data, dict) else None
        if isinstance(roll_id, int):
            pending[roll_id] = (event_id, campaign_id, data)
        if len(pending) >= BATCH:
            flush()
    flush()


def copy_back(apps, schema_editor):
    Roll = apps.get_model("tabletop", "Roll")
    rolls = Roll.objects.filter(event__isnull=False).select_related("event")
    batch = []
    for roll in rolls.iterator(chunk_size=BATCH):
        data = roll.event.data
        roll.own_request = data.get("request") or {}
        roll.own_result = data.get("result") or {}
        roll.own_draw = data.get("draw")
        batch.append(roll)
        if len(batch) >= BATCH:
            Roll.objects.bulk_update(batch, ["own_request", "own_result", "own_draw"])
            batch = []
    Roll.objects.bulk_update(batch, ["own_request", "own_result", "own_draw"])
    Roll.objects.filter(own_request__isnull=True).update(own_request={})
    Roll.objects.filter(own_result__isnull=True).update(own_result={})


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0009_undoable_index_by_room"),
    ]

    operations = [
        migrations.RenameField("roll", "request", "own_request"),
        migrations.RenameField("roll", "result", "own_result"),
        migrations.RenameField("roll", "draw", "own_draw"),
        migrations.AlterField(
            model_name="roll",
            name="own_request",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="roll",
            name="own_result",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="roll",
            name="event",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="roll",
                to="tabletop.roomevent",
            ),
        ),
        migrations.RunPython(link_rolls, copy_back),
        migrations.RemoveIndex(model_name="roll", name="roll_history"),
        migrations.AddIndex(
            model_name="roll",
            index=models.Index(fields=["campaign", "-id"], name="roll_pages"),
        ),
        migrations.AlterModelOptions(name="roll", options={"ordering": ["-id"]}),
    ]
