"""The tabletop's data: campaigns and their members, characters, battle maps,
tokens, the roll audit trail and each room's append-only event log.

Models hold data and constraints only; every change goes through
vtt.tabletop.services so the REST API, the live rooms and the admin agree."""

from django.conf import settings
from django.db import models
from django.utils.functional import cached_property

from .log_field import LogJSONField


class Role(models.TextChoices):
    GM = "gm", "Game Master"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class Visibility(models.TextChoices):
    PUBLIC = "public", "Everyone"
    GM = "gm", "GM only (hidden)"
    SELF = "self", "Roller and GM"
    BLIND = "blind", "GM only; the roller knows a roll was made"


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    # A registered game kit's id (vtt.games); the services check it, so a
    # game added later needs no migration.
    game = models.CharField(max_length=20)
    # Per-game options (condition track, Rd6 complication mode, diagonal rule...),
    # validated by vtt.games.game_settings.
    settings = models.JSONField(default=dict, blank=True)
    active_scene = models.ForeignKey(
        "Scene", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Last sequence number handed out in this campaign's room event log.
    event_seq = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name

    @property
    def game_name(self) -> str:
        """The game's name as its players say it ("Xero Sum 2d6"); the id
        of a game no longer registered."""
        from vtt import games  # loaded when asked: the registry imports every kit

        found = games.KITS.get(self.game)
        return found.name if found else self.game


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self):
        return f"{self.user} ({self.role}) in {self.campaign}"


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    code = models.CharField(max_length=32, unique=True)
    role = models.CharField(
        max_length=10,
        choices=[(Role.PLAYER, Role.PLAYER.label), (Role.OBSERVER, Role.OBSERVER.label)],
        default=Role.PLAYER,
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True)
                | models.Q(uses__lte=models.F("max_uses")),
                name="invite_uses_within_max",
            )
        ]

    def __str__(self):
        return f"{self.code} ({self.role}) for {self.campaign}"


class Character(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="characters",
    )
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    # Validated against the game's sheet schema by vtt.games.sheets.
    sheet = models.JSONField(default=dict, blank=True)
    weapons = models.JSONField(default=list, blank=True)
    resources = models.JSONField(default=dict, blank=True)
    # Never leaves the server for anyone but the campaign's GMs.
    gm_notes = models.TextField(blank=True, default="")
    # The picture and its square thumbnails, written together by
    # vtt.tabletop.services.art (re-encoded, random names).
    portrait = models.ImageField(upload_to="portraits/", null=True, blank=True)
    portrait_128 = models.ImageField(upload_to="portraits/", null=True, blank=True)
    portrait_256 = models.ImageField(upload_to="portraits/", null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    # The picture first, then its thumbnails: stored and deleted together.
    PICTURE_FIELDS = ("portrait", "portrait_128", "portrait_256")

    class Meta:
        ordering = ["campaign_id", "name", "id"]

    def __str__(self):
        return self.name


class Scene(models.Model):
    """A battle map of width x height squares at 1" = 5 ft."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenes")
    name = models.CharField(max_length=120)
    width = models.PositiveSmallIntegerField(default=20)
    height = models.PositiveSmallIntegerField(default=20)
    background = models.ImageField(upload_to="scenes/", null=True, blank=True)
    # Wall segments [x1, y1, x2, y2] in grid units (square (x, y) spans
    # x..x+1), a door or window with its kind after them (vtt.rules.sight).
    walls = models.JSONField(default=list, blank=True)
    # Fog of war: players receive only what their tokens see (docs/vision.md).
    fog = models.BooleanField(default=False)
    # The scene's light: lit (seen without limit), dim or dark (a token sees
    # as far as its own sight and wherever a light shines). The GM sets it;
    # an imported map's ambient light does.
    lighting = models.CharField(
        max_length=4, choices=[("lit", "Lit"), ("dim", "Dim"), ("dark", "Dark")], default="lit"
    )
    # The background has its lights and shadows painted in (an imported
    # map's environment.baked_lighting).
    baked_lighting = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(width__gte=1, height__gte=1), name="scene_has_squares"
            )
        ]

    def __str__(self):
        return self.name

    @property
    def lit(self) -> bool:
        """Seen without limit: the flag sight reads (docs/vision.md)."""
        return self.lighting == "lit"


class Token(models.Model):
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="tokens")
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.SET_NULL, related_name="tokens"
    )
    name = models.CharField(max_length=120)
    x = models.IntegerField(default=0)
    y = models.IntegerField(default=0)
    size = models.PositiveSmallIntegerField(default=1)
    hidden = models.BooleanField(default=False)
    color = models.CharField(max_length=7, default="#888888")
    # How far it sees in the dark, and the light it carries (feet).
    sight_ft = models.PositiveSmallIntegerField(default=0)
    light_ft = models.PositiveSmallIntegerField(default=0)
    # The token's own picture and thumbnails; without them the map shows
    # its character's portrait (vtt.tabletop.serialize.token_data).
    art = models.ImageField(upload_to="tokens/", null=True, blank=True)
    art_128 = models.ImageField(upload_to="tokens/", null=True, blank=True)
    art_256 = models.ImageField(upload_to="tokens/", null=True, blank=True)
    controllers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="controlled_tokens"
    )
    # Bumped on every change; a move that names an older version is stale.
    version = models.PositiveIntegerField(default=1)

    PICTURE_FIELDS = ("art", "art_128", "art_256")

    class Meta:
        ordering = ["scene_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(size__gte=1, x__gte=0, y__gte=0), name="token_on_the_map"
            )
        ]

    def __str__(self):
        return self.name

    @cached_property
    def controller_ids(self) -> list[int]:
        """Sorted ids of the users who control this token, read once per
        instance: a move checks them, stores them and acknowledges them. A
        prefetch of `controllers` (lists of tokens) is used when there is one.
        Change controllers on a fresh instance, as the services do."""
        if "controllers" in getattr(self, "_prefetched_objects_cache", {}):
            return sorted(user.pk for user in self.controllers.all())
        links = Token.controllers.through.objects.filter(token_id=self.pk)
        return sorted(links.values_list("user_id", flat=True))


class Light(models.Model):
    """A light on a scene: a torch on a wall, a brazier, or carried by a
    token (then it goes where the token goes, and with it). Positions and
    radii in squares; bright light within `bright`, dim out to `dim`."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="lights")
    token = models.ForeignKey(
        Token, null=True, blank=True, on_delete=models.CASCADE, related_name="lights"
    )
    x = models.FloatField()
    y = models.FloatField()
    bright = models.FloatField(default=0)
    dim = models.FloatField(default=0)
    color = models.CharField(max_length=7, default="#ffffff")
    intensity = models.FloatField(default=1)
    # Walls cast shadows in its light (false: it shines through them).
    shadows = models.BooleanField(default=True)
    on = models.BooleanField(default=True)

    class Meta:
        ordering = ["scene_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(bright__gte=0, dim__gte=models.F("bright"), intensity__gte=0),
                name="light_reaches_out",
            )
        ]

    def __str__(self):
        return f"light {self.pk} on scene {self.scene_id}"


class Marker(models.Model):
    """A status marker on a token: one of its game's declared conditions
    (`condition`, the kit's id, with the rules effect the kit gives it) or
    a free marker (an icon and a few words). A GM-only marker is the GM's
    secret: players never receive it. Whoever sees the token sees its
    other markers."""

    token = models.ForeignKey(Token, on_delete=models.CASCADE, related_name="markers")
    condition = models.CharField(max_length=40, blank=True, default="")
    icon = models.CharField(max_length=20)
    label = models.CharField(max_length=60)
    gm_only = models.BooleanField(default=False)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["token_id", "id"]

    def __str__(self):
        return f"{self.label} on token {self.token_id}"


class Roll(models.Model):
    """The audit record of one adjudication: who rolled, for whom, how
    visible, when; indexed for the roll list. Its request, result and draw
    are stored once, in its "roll" log entry (`event`), which never changes
    after it is written; they are read from there."""

    # Found through roll_pages, which starts with it.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="rolls", db_index=False
    )
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="rolls"
    )
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.SET_NULL, related_name="rolls"
    )
    # Its "roll" entry in the room's log, which holds the request, the result
    # and the draw. Set in the transaction that records the roll.
    event = models.OneToOneField(
        "RoomEvent", null=True, blank=True, on_delete=models.DO_NOTHING, related_name="roll"
    )
    # Only for a roll with no log entry to hold them (none is recorded so
    # since the log was kept; the migration that linked rolls to their
    # entries left any such older roll its own copy): null otherwise.
    own_request = models.JSONField(null=True, blank=True)
    own_result = models.JSONField(null=True, blank=True)
    own_draw = models.JSONField(null=True, blank=True)
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # True when the faces came from physical dice entered by a person.
    physical = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        # Ascending: new rows go to the index's right edge, which PostgreSQL
        # fills before splitting; newest-first pages read it backwards.
        indexes = [models.Index(fields=["campaign", "id"], name="roll_pages")]

    def __str__(self):
        request = self.request or {}
        return f"{request.get('system')} {request.get('action')} #{self.pk}"

    def _stored(self, key: str):
        if self.event_id is not None:
            return self.event.data.get(key)
        return getattr(self, f"own_{key}")

    @property
    def request(self) -> dict:
        return self._stored("request")

    @property
    def result(self) -> dict:
        return self._stored("result")

    @property
    def draw(self) -> dict | None:
        """Where its dice come from in its play session (vtt.records.draws):
        {"session", "roll", "nonce", "nonce_by"}; null for rolls made
        before sessions were kept."""
        return self._stored("draw")


class PlaySession(models.Model):
    """One evening's play, numbered per campaign: the secret seed every die
    of its rolls is derived from (docs/dice.md). Its SHA-256 digest is
    published when it starts; the seed itself only when it ends."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    # Secret until `ended_at`: no page, answer or event carries it before.
    seed = models.BinaryField(max_length=32, editable=False)
    digest = models.CharField(max_length=64, editable=False)
    # The last roll number handed out.
    rolls = models.PositiveIntegerField(default=0, editable=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_session_per_number"),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_session_per_campaign",
            ),
        ]

    def __str__(self):
        return f"session {self.number} of {self.campaign_id}"

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


# The kinds of entry undo can put back (vtt.combat.services.undo). Spelled
# here, not from event_kinds (which imports this module), for the index
# below; tests/combat/test_undo.py checks they are the declared constants.
# A marker.added is undone by taking the marker off (vtt.markers.services).
UNDOABLE_KINDS = (
    "token.moved",
    "character.updated",
    "combat.attack",
    "combat.damage",
    "marker.added",
)


class LogIsAppendOnly(Exception):
    """An entry of a room's log was to be changed or deleted on its own."""


class RoomEventQuerySet(models.QuerySet):
    """The log is appended to, never rewritten: what the table saw, the dice
    it can check and the replay all read it as it was written."""

    def update(self, **kwargs):
        raise LogIsAppendOnly("a room's log entries are never changed")

    def bulk_update(self, objs, fields, batch_size=None):
        raise LogIsAppendOnly("a room's log entries are never changed")

    def delete(self):
        raise LogIsAppendOnly("a room's log entries go only with their campaign")


# How a stored payload is read as its kind's type (RoomEvent.payload):
# vtt.tabletop.event_kinds registers it when imported, so the models name
# nothing above them.
_payload_readers: list = []


def read_payloads_with(reader) -> None:
    """`reader(kind, data)` -> the typed payload (event_kinds.read)."""
    _payload_readers[:] = [reader]


class RoomEvent(models.Model):
    """One change in a campaign's live room, numbered per campaign.
    Appended in the same transaction as the change; broadcast after commit.

    Append-only: saving an entry that is stored, and deleting entries through
    the model or its querysets, raise LogIsAppendOnly. An entry goes only with
    its campaign, whose deletion takes every row that points at an entry too
    (Django's cascade deletes rows without these methods). Those rows' keys
    say DO_NOTHING, so deleting a campaign deletes its log in one statement
    rather than reading every entry first to find what points at it. Deleting
    a user sets its entries' actor to nothing, the one change a stored entry
    takes (that also goes through the cascade, not these methods)."""

    # Found through one_event_per_seq, which starts with it.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=40)
    data = LogJSONField(default=dict)
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RoomEventQuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="one_event_per_seq")
        ]
        indexes = [
            # "The room's latest undoable entries", newest first, as an index
            # scan that stops at the first one undo can use: last_result does
            # not read, or sort, the room's whole history.
            # Ascending for the reason given at Roll's roll_pages.
            models.Index(
                fields=["campaign", "seq"],
                condition=models.Q(kind__in=UNDOABLE_KINDS),
                name="undoable_by_room",
            )
        ]

    def __str__(self):
        return f"{self.campaign_id}#{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise LogIsAppendOnly("a room's log entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise LogIsAppendOnly("a room's log entries go only with their campaign")

    @cached_property
    def payload(self):
        """The payload as its kind declares it (a dataclass; an older shape
        upgraded, the fog annotation left out). Kept: a row never changes."""
        return _payload_readers[0](self.kind, self.data)


class SceneSight(models.Model):
    """What one sight group (the party, or one player when each sees through
    their own tokens) sees of a fog scene now, and what it has explored.
    Written with the events that change it, in their transaction."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="sights")
    # "party", or "u<user id>" (vtt.fog.vision.group_of)
    group = models.CharField(max_length=24)
    # SVG path data in grid units (vtt.rules.sight.to_path).
    view = models.TextField(blank=True, default="")
    explored = models.TextField(blank=True, default="")
    # False while the scene's fog is off: the explored area is kept for when
    # it is on again.
    active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scene", "group"], name="one_sight_per_group")
        ]

    def __str__(self):
        return f"{self.group} on scene {self.scene_id}"


class SeenToken(models.Model):
    """A token in a sight group's view now: the rows the players' token
    reads filter on (vtt.tabletop.policy.visible_tokens_q)."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="+")
    group = models.CharField(max_length=24)
    token = models.ForeignKey(Token, on_delete=models.CASCADE, related_name="seen_by")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "token"], name="seen_once_per_group")
        ]
        indexes = [models.Index(fields=["scene", "group"], name="seen_by_scene_group")]

    def __str__(self):
        return f"token {self.token_id} seen by {self.group}"


class ImportUpload(models.Model):
    """An archive uploaded to be imported, by whom and when: what the limit
    on imports counts (vtt.records.backup.uploads). In the database, so
    every worker counts the same uploads."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "at"], name="import_upload_by_user")]

    def __str__(self):
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M:%S}"


class Handout(models.Model):
    """Something the GM hands the players: a title, a picture and/or text
    (Markdown, kept with its safe HTML rendering: vtt.handouts.text).
    The GM's alone until shared (HandoutShare): with everyone (`everyone`,
    members who join later too) or with chosen members, and more may be let
    in later, never taken back (what was read was read)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="handouts")
    title = models.CharField(max_length=200)
    text = models.TextField(blank=True, default="")
    html = models.TextField(blank=True, default="")
    image = models.ImageField(upload_to="handouts/", null=True, blank=True)
    everyone = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    PICTURE_FIELDS = ("image",)

    class Meta:
        ordering = ["campaign_id", "created_at", "id"]

    def __str__(self):
        return self.title


class HandoutShare(models.Model):
    """One member let into a handout, and when."""

    handout = models.ForeignKey(Handout, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    shared_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["handout", "user"], name="handout_shared_once")
        ]

    def __str__(self):
        return f"handout {self.handout_id} to {self.user_id}"
