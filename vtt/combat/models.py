"""Combat's data: encounters and their turn order, the moves of the current
turn (trails), attacks with their adjudicated steps, weapons a botch broke,
and the two records undo needs (what each character's resources were after
every logged change, and which log entries were undone)."""

from django.conf import settings
from django.db import models

from vtt.tabletop.models import Campaign, Character, RoomEvent, Scene, Token, Visibility


class Encounter(models.Model):
    """A fight on one scene: a turn order, the combatant whose turn it is and
    the round counter. At most one runs per scene."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="encounters")
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="encounters")
    round = models.PositiveIntegerField(default=1)
    # Turns taken since the start, for the game clock.
    turns = models.PositiveIntegerField(default=0)
    current = models.ForeignKey(
        "Combatant", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["scene"],
                condition=models.Q(ended_at__isnull=True),
                name="one_running_encounter_per_scene",
            )
        ]

    def __str__(self):
        return f"Encounter {self.pk} on {self.scene_id} (round {self.round})"


class Combatant(models.Model):
    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    # Kept (named) when its token is deleted mid-fight.
    token = models.ForeignKey(
        Token, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=120)
    initiative = models.IntegerField(null=True, blank=True)
    # Order of joining: breaks ties in initiative.
    joined = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["encounter_id", "joined", "id"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "token"], name="one_combatant_per_token")
        ]

    def __str__(self):
        return f"{self.name} ({self.initiative})"


class TrailStep(models.Model):
    """One move of a token during the current turn (the trail the map draws).
    Written from the room log as moves are appended; cleared when the turn
    passes on."""

    # Found through trail_by_scene (a composite index starting with it).
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="+", db_index=False)
    token = models.ForeignKey(Token, on_delete=models.CASCADE, related_name="trail_steps")
    seq = models.PositiveBigIntegerField()
    from_x = models.IntegerField()
    from_y = models.IntegerField()
    to_x = models.IntegerField()
    to_y = models.IntegerField()

    class Meta:
        ordering = ["token_id", "seq"]
        # Not on seq: a step overwritten with the next move changes no indexed
        # column, so PostgreSQL updates it in place (projection.OVERWRITE).
        indexes = [models.Index(fields=["scene", "token"], name="trail_by_scene")]

    def __str__(self):
        return f"{self.token_id}: ({self.from_x}, {self.from_y}) -> ({self.to_x}, {self.to_y})"


class Attack(models.Model):
    class Status(models.TextChoices):
        MISSED = "missed", "Missed"
        APPLIED = "applied", "Applied to the target"
        AWAITING_DAMAGE = "awaiting_damage", "Waiting for the GM to apply damage"
        AWAITING_DEFENDER = "awaiting_defender", "Waiting for the defender's choice"
        UNDONE = "undone", "Undone"
        DECLINED = "declined", "Declined by the GM"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="attacks")
    scene = models.ForeignKey(Scene, null=True, on_delete=models.SET_NULL, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    attacker_token = models.ForeignKey(
        Token, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_token = models.ForeignKey(Token, null=True, on_delete=models.SET_NULL, related_name="+")
    attacker = models.ForeignKey(
        Character, null=True, on_delete=models.SET_NULL, related_name="attacks_made"
    )
    target = models.ForeignKey(
        Character, null=True, on_delete=models.SET_NULL, related_name="attacks_taken"
    )
    # Names as they were, for the log after tokens or characters are gone.
    attacker_name = models.CharField(max_length=120)
    target_name = models.CharField(max_length=120)
    system = models.CharField(max_length=20)
    weapon = models.JSONField()
    measure = models.JSONField()
    # The sheet entries the pools came from: {"attacker": [...], "defender": [...]}.
    sources = models.JSONField(default=dict)
    # Every adjudicated step: [{"step", "request", "result"}], in order.
    steps = models.JSONField(default=list)
    outcome = models.CharField(max_length=20)
    status = models.CharField(max_length=20, choices=Status.choices)
    # Damage waiting to be applied (or applied), where the game counts damage.
    damage = models.IntegerField(null=True, blank=True)
    # What was applied: [{"character_id", "character", "field", "before", "after"}].
    changes = models.JSONField(default=list)
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    physical = models.BooleanField(default=False)
    # Where its dice come from in its play session (vtt.records.draws).
    draw = models.JSONField(null=True, blank=True)
    # Log entries go only with their campaign, which takes this row too:
    # nothing to do per entry (see RoomEvent).
    event = models.ForeignKey(
        RoomEvent, null=True, blank=True, on_delete=models.DO_NOTHING, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.attacker_name} -> {self.target_name}: {self.outcome}"


class BrokenWeapon(models.Model):
    """A weapon a botch broke (Apocalyptia); it cannot attack until repaired."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    weapon = models.CharField(max_length=60)
    attack = models.ForeignKey(Attack, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["character", "weapon"], name="broken_once")]

    def __str__(self):
        return f"{self.weapon} of {self.character_id} (broken)"


class ResourceState(models.Model):
    """A character's resources right after the log entry `seq` changed them.
    The state before any entry is the latest one with a smaller seq: that is
    what undo restores."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveBigIntegerField()
    resources = models.JSONField()

    class Meta:
        ordering = ["character_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["character", "seq"], name="one_state_per_entry")
        ]

    def __str__(self):
        return f"{self.character_id} after #{self.seq}"


class Undo(models.Model):
    """A log entry that was undone, and the entry that undid it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    # Deleted with the campaign, as the entries are (see RoomEvent).
    event = models.OneToOneField(RoomEvent, on_delete=models.DO_NOTHING, related_name="undo")
    undone_by = models.ForeignKey(RoomEvent, on_delete=models.DO_NOTHING, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"#{self.event_id} undone"
