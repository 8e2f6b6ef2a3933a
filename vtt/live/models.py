"""What the live rooms keep besides the room's log: receipts of intents
already carried out (vtt.live.receipts)."""

from django.conf import settings
from django.db import models

from vtt.tabletop.models import Campaign


class IntentReceipt(models.Model):
    """An intent a member's client sent with an id, and the answer it got.
    Written in the transaction that carried the intent out, so a client that
    sends it again (its socket died before the answer came) gets this answer
    instead of acting twice."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The client's id, typed: "s:<string>" or "i:<integer>", so "1" and 1 differ.
    intent_id = models.CharField(max_length=80)
    intent = models.CharField(max_length=40)
    answer = models.TextField()  # what the ack carried besides type, id and intent (JSON)
    created = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user", "intent_id"], name="one_receipt_per_intent_id"
            )
        ]

    def __str__(self):
        return f"{self.campaign_id}/{self.user_id} {self.intent} {self.intent_id}"
