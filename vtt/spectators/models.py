from django.conf import settings
from django.db import models

from vtt.tabletop.models import Campaign

MAX_DELAY = 600  # seconds a link may hold the room back (a stream's delay)


class SpectatorLink(models.Model):
    """A link to watch a campaign's room. The token itself is shown once,
    when the link is made; only its SHA-256 is kept, so the table's
    database never holds a working link."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="spectator_links")
    label = models.CharField(max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    delay_seconds = models.PositiveSmallIntegerField(default=0)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(delay_seconds__lte=MAX_DELAY),
                name="spectator_link_delay_bounded",
            )
        ]

    def __str__(self):
        return self.label or f"spectator link {self.pk}"
