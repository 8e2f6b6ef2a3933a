"""Scenes gain their light (lit, dim or dark, and whether the picture has
its light painted in) and the lights on them (docs/maps.md)."""

import django.db.models.deletion
from django.db import migrations, models


def dark_stays_dark(apps, schema_editor):
    """A scene that was not lit is dark (dim is new)."""
    Scene = apps.get_model("tabletop", "Scene")
    Scene.objects.filter(lit=False).update(lighting="dark")


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0015_attacks_on_turn_setting"),
    ]

    operations = [
        migrations.AddField(
            model_name="scene",
            name="baked_lighting",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="scene",
            name="lighting",
            field=models.CharField(
                choices=[("lit", "Lit"), ("dim", "Dim"), ("dark", "Dark")],
                default="lit",
                max_length=4,
            ),
        ),
        migrations.RunPython(dark_stays_dark, migrations.RunPython.noop),
        migrations.CreateModel(
            name="Light",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("x", models.FloatField()),
                ("y", models.FloatField()),
                ("bright", models.FloatField(default=0)),
                ("dim", models.FloatField(default=0)),
                ("color", models.CharField(default="#ffffff", max_length=7)),
                ("intensity", models.FloatField(default=1)),
                ("shadows", models.BooleanField(default=True)),
                ("on", models.BooleanField(default=True)),
                (
                    "scene",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lights",
                        to="tabletop.scene",
                    ),
                ),
                (
                    "token",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lights",
                        to="tabletop.token",
                    ),
                ),
            ],
            options={
                "ordering": ["scene_id", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("bright__gte", 0),
                            ("dim__gte", models.F("bright")),
                            ("intensity__gte", 0),
                        ),
                        name="light_reaches_out",
                    )
                ],
            },
        ),
    ]
