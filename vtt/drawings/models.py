from django.conf import settings
from django.db import models

from vtt.tabletop.models import Scene


class Drawing(models.Model):
    """A finished drawing on a scene (vtt.drawings.bounds says what it may
    hold). Points are map units (squares): [[x, y], ...]."""

    class Shape(models.TextChoices):
        PEN = "pen"
        LINE = "line"
        ARROW = "arrow"
        RECT = "rect"
        ELLIPSE = "ellipse"
        TEXT = "text"

    class Layer(models.TextChoices):
        SHARED = "shared"
        GM = "gm"

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="drawings")
    # Who drew it (kept when they leave: their name stays on it).
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    shape = models.CharField(max_length=8, choices=Shape.choices)
    layer = models.CharField(max_length=8, choices=Layer.choices, default=Layer.SHARED)
    color = models.CharField(max_length=7)
    width = models.PositiveSmallIntegerField()
    points = models.JSONField()
    text = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scene_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(width__gte=1, width__lte=8), name="drawing_width_in_range"
            )
        ]

    def __str__(self):
        return f"{self.shape} on {self.scene_id}"
