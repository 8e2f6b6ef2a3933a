"""The spectator links' REST shapes (vtt.spectators)."""

from rest_framework import serializers

from vtt.spectators.models import MAX_DELAY
from vtt.spectators.services import MAX_LABEL, MAX_MINUTES

from .serializers import StrictSerializer, Text, Whole


class SpectatorLinkIn(StrictSerializer):
    label = Text(required=False, allow_blank=True, max_length=MAX_LABEL, default="")
    delay_seconds = Whole(required=False, min_value=0, max_value=MAX_DELAY, default=0)
    expires_in_minutes = Whole(required=False, allow_null=True, min_value=1, max_value=MAX_MINUTES)


class SpectatorLinkOut(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    delay_seconds = serializers.IntegerField()
    expires_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=["open", "expired", "revoked"])


class SpectatorLinkMade(SpectatorLinkOut):
    token = serializers.CharField(help_text="Shown this once: only its hash is kept.")
    url = serializers.CharField(help_text="The page that watches the room (/watch/<token>/).")
