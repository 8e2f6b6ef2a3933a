"""A scene's `lit` column goes: it only repeated `lighting` (lit exactly
when lighting is "lit"), and Scene.lit now reads it from there. A scene
whose two columns disagreed keeps what sight read, the flag: not lit and
lighting "lit" becomes dark, lit and dim or dark becomes lit."""

from django.db import migrations


def lighting_from_lit(apps, schema_editor):
    Scene = apps.get_model("tabletop", "Scene")
    Scene.objects.filter(lit=False, lighting="lit").update(lighting="dark")
    Scene.objects.filter(lit=True).exclude(lighting="lit").update(lighting="lit")


def lit_from_lighting(apps, schema_editor):
    Scene = apps.get_model("tabletop", "Scene")
    Scene.objects.exclude(lighting="lit").update(lit=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0019_undoable_markers"),
    ]

    operations = [
        # Going back, the column comes again (true) and is then filled from lighting.
        migrations.RunPython(lighting_from_lit, lit_from_lighting),
        migrations.RemoveField(model_name="scene", name="lit"),
    ]
