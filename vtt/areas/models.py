from django.conf import settings
from django.db import models
from django.utils import timezone

from vtt.tabletop.models import Scene


class AreaTemplate(models.Model):
    """An area template on a scene (vtt.areas.geometry says what it covers)."""

    class Shape(models.TextChoices):
        CIRCLE = "circle", "Circle (burst)"
        CONE = "cone", "Cone"
        LINE = "line", "Line"
        SQUARE = "square", "Square"

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="area_templates")
    shape = models.CharField(max_length=8, choices=Shape.choices)
    # The grid intersection it stands on (geometry's module doc).
    x = models.PositiveIntegerField()
    y = models.PositiveIntegerField()
    size = models.PositiveSmallIntegerField()  # squares
    angle = models.PositiveSmallIntegerField(default=0)  # degrees clockwise from east
    label = models.CharField(max_length=40, blank=True, default="")  # "Fireball", "Breath"
    gm_only = models.BooleanField(default=False)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("id",)

    def __str__(self):
        return f"{self.get_shape_display()} {self.size * 5} ft on scene {self.scene_id}"
