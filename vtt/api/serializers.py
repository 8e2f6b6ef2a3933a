"""Request and response shapes of the tabletop API. Input serializers parse
and type-check only (a field we do not know is refused by name); the deep
checks (sheets, walls, bounds) are the services'. Output serializers describe
the plain dicts of vtt.tabletop.serialize for the OpenAPI schema."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from vtt import games
from vtt.tabletop.models import Role, Visibility

ID = {"min_value": 1, "max_value": 2**63 - 1}
INVITE_ROLES = [Role.PLAYER, Role.OBSERVER]


# A pattern, not an enum: the schema's `Role` enum stays the three roles.
@extend_schema_field({"type": "string", "pattern": "^(player|observer)$"})
class InviteRoleField(serializers.ChoiceField):
    # An invite makes players or observers, never GMs.
    def __init__(self, **kwargs):
        super().__init__(choices=INVITE_ROLES, **kwargs)


class StrictSerializer(serializers.Serializer):
    # Refuses fields it does not declare instead of dropping them. (A comment,
    # not a docstring: the schema would show it on every request body.)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError(
                    {key: ["is not a known field"] for key in unknown}, code="unknown_field"
                )
        return super().to_internal_value(data)

    def given(self) -> dict:
        """The validated fields the client actually sent (for PATCH)."""
        return {
            key: value for key, value in self.validated_data.items() if key in self.initial_data
        }


class Text(serializers.CharField):
    """Text only: a number is not silently turned into a name."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Nonce(Text):
    """A roller's nonce: the service checks its form (docs/dice.md)."""

    def __init__(self, **kwargs):
        super().__init__(
            required=False,
            allow_null=True,
            max_length=128,
            trim_whitespace=False,
            help_text="16 to 128 lower-case hex digits from the roller that go into the dice"
            " (docs/dice.md); absent: the server makes one.",
            **kwargs,
        )


class Whole(serializers.IntegerField):
    """A JSON whole number only: not "3", not 3.0, not true."""

    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class Flag(serializers.BooleanField):
    """true or false only: not "yes", not 1."""

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid")
        return data


# ------------------------------------------------------------------ output


class UserOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MeOut(UserOut):
    username = serializers.CharField()


class TokenAuthIn(StrictSerializer):
    username = Text(max_length=150)
    password = Text(max_length=4096, trim_whitespace=False)


class TokenAuthOut(serializers.Serializer):
    token = serializers.CharField()


class GameField(serializers.ChoiceField):
    """One of the registered games (vtt.games), read each time a serializer
    is made, so a game registered at run time is offered too."""

    def __init__(self, **kwargs):
        super().__init__(choices=games.choices(), **kwargs)


class CampaignOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = GameField()
    settings = serializers.DictField()
    active_scene_id = serializers.IntegerField(allow_null=True)
    role = serializers.ChoiceField(choices=Role.choices, help_text="The caller's role.")


class MemberOut(serializers.Serializer):
    user = UserOut()
    role = serializers.ChoiceField(choices=Role.choices)


class MembershipOut(MemberOut):
    campaign_id = serializers.IntegerField()


class InviteOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    code = serializers.CharField()
    role = InviteRoleField()
    expires_at = serializers.DateTimeField(allow_null=True)
    max_uses = serializers.IntegerField(allow_null=True)
    uses = serializers.IntegerField()


class WoundsOut(serializers.Serializer):
    state = serializers.CharField(help_text="The name of the state on the game's wound track.")
    out = serializers.BooleanField(help_text="Out of the fight: incapacitated, dying or dead.")
    dead = serializers.BooleanField()
    hurt = serializers.BooleanField(help_text="Past the track's first state.")


class PictureOut(serializers.Serializer):
    url = serializers.CharField(help_text="The picture, at most 1024 px a side (WebP).")
    thumb_128 = serializers.CharField(help_text="A 128 px square of its middle.")
    thumb_256 = serializers.CharField(help_text="A 256 px square of its middle.")


class CharacterOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["pc", "npc"])
    owner = UserOut(allow_null=True)
    sheet = serializers.DictField()
    weapons = serializers.ListField(child=serializers.DictField())
    resources = serializers.DictField()
    wounds = WoundsOut(allow_null=True, help_text="The wound state; null when the game has none.")
    portrait = PictureOut(allow_null=True, help_text="The portrait's URLs, or null.")
    gm_notes = serializers.CharField(required=False, help_text="Present for GMs only.")


class LightOut(serializers.Serializer):
    id = serializers.IntegerField()
    token_id = serializers.IntegerField(allow_null=True, help_text="The token carrying it")
    x = serializers.FloatField(help_text="In squares from the map's top-left corner")
    y = serializers.FloatField()
    bright = serializers.FloatField(help_text="Bright light's radius in squares")
    dim = serializers.FloatField(help_text="Dim light's radius in squares")
    color = serializers.CharField(help_text="#rrggbb")
    intensity = serializers.FloatField()
    shadows = serializers.BooleanField(help_text="Walls cast shadows in its light")
    on = serializers.BooleanField()


class SceneOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    name = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    background = serializers.CharField(allow_null=True, help_text="URL of the image, or null.")
    walls = serializers.ListField(
        child=serializers.ListField(min_length=4, max_length=6),
        help_text='[x1, y1, x2, y2] a wall; then "window", or "door" with "open" or "locked".',
    )
    fog = serializers.BooleanField(help_text="Players see only what their tokens see.")
    lit = serializers.BooleanField(help_text="Lit: sight without limit; dark: sight and lights.")
    lighting = serializers.ChoiceField(
        choices=["lit", "dim", "dark"], help_text="The scene's light; `lit` is true when lit."
    )
    baked_lighting = serializers.BooleanField(help_text="The background has its light painted in.")
    lights = LightOut(
        many=True,
        required=False,
        help_text="The lights on the scene: for the GM, and for the others without fog.",
    )
    lit_areas = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="One scene's read, dim or dark, with its lights: where each light "
        "shines, {color, bright, dim}, SVG path data in squares.",
    )
    active = serializers.BooleanField()


class TokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    scene_id = serializers.IntegerField()
    character_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    size = serializers.IntegerField()
    hidden = serializers.BooleanField()
    color = serializers.CharField()
    sight_ft = serializers.IntegerField(help_text="How far it sees in a dark scene.")
    light_ft = serializers.IntegerField(help_text="The radius of the light it carries.")
    controllers = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField()
    art = PictureOut(
        allow_null=True,
        help_text="What the map draws in the token: its own art, else its character's portrait.",
    )
    art_from = serializers.ChoiceField(
        choices=["token", "character"], allow_null=True, help_text="Whose picture `art` is."
    )


class NamedOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RollOut(serializers.Serializer):
    id = serializers.IntegerField()
    roll_id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    blind = serializers.BooleanField(
        help_text="True when the caller may know only that the roll was made."
    )
    roller = UserOut(allow_null=True)
    character = NamedOut(allow_null=True)
    system = serializers.CharField(allow_null=True)
    action = serializers.CharField(allow_null=True)
    request = serializers.DictField(allow_null=True)
    result = serializers.DictField(allow_null=True)
    physical = serializers.BooleanField()
    draw = serializers.JSONField(
        allow_null=True,
        help_text="Its place in the play session: session, roll, nonce, nonce_by"
        " (or physical), to check its dice (docs/dice.md).",
    )


class RollPageOut(serializers.Serializer):
    next = serializers.URLField(
        allow_null=True, help_text="The next (older) page: ?before=<the last roll id here>."
    )
    results = RollOut(many=True)


class SessionOut(serializers.Serializer):
    session = serializers.IntegerField(help_text="Its number in the campaign.")
    digest = serializers.CharField(help_text="SHA-256 of the secret seed, in hex.")
    seed = serializers.CharField(
        allow_null=True, help_text="The seed in hex, once the session has ended."
    )
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class ThrowOut(serializers.Serializer):
    session = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="Its number in the session.")
    nonce = serializers.CharField(allow_null=True)
    nonce_by = serializers.ChoiceField(choices=["roller", "server"], allow_null=True)
    physical = serializers.BooleanField(help_text="Dice entered by a person: not derived.")
    faces = serializers.ListField(child=serializers.IntegerField(), help_text="In thrown order.")
    words = serializers.CharField()
    by = UserOut(allow_null=True, help_text="Who threw it (null: the entry does not say).")
    character = serializers.CharField(
        allow_null=True, help_text="The name of the one it was thrown for, if any."
    )
    seq = serializers.IntegerField(help_text="The log entry that showed it.")
    at = serializers.CharField(allow_null=True)


class SessionCheckOut(SessionOut):
    campaign_id = serializers.IntegerField()
    rolls = ThrowOut(many=True, help_text="The throws the caller saw, in roll order.")


class ReplayRollOut(serializers.Serializer):
    roll = serializers.IntegerField(help_text="Its number in the session.")
    seq = serializers.IntegerField(help_text="The log entry that showed it.")
    words = serializers.CharField()


class ReplayWatcherOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField()


class ReplayOut(serializers.Serializer):
    campaign = serializers.DictField(help_text="id, name, game.")
    session = SessionOut()
    viewer = ReplayWatcherOut(help_text="Whose view this is.")
    first = serializers.IntegerField(
        allow_null=True,
        help_text="The first event: the scene change the map at the start comes from.",
    )
    start = serializers.IntegerField(allow_null=True, help_text="The session.started event.")
    end = serializers.IntegerField(allow_null=True, help_text="session.ended, or the log's last.")
    events = serializers.ListField(
        child=serializers.DictField(), help_text="This page's events, as the viewer received them."
    )
    rolls = ReplayRollOut(many=True, help_text="The session's throws these events show.")
    next = serializers.IntegerField(allow_null=True, help_text="Pass as ?after= for the next page.")


class FitOut(serializers.Serializer):
    dice = serializers.IntegerField()
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each face 1 to 6: how often it came up."
    )
    expected = serializers.FloatField(help_text="What a fair die gives each face: dice / 6.")
    chi_square = serializers.FloatField(allow_null=True)
    p = serializers.FloatField(allow_null=True, help_text="Chi-square, 5 degrees of freedom.")
    verdict = serializers.CharField(help_text="The p-value in words.")


class DiceGroupOut(serializers.Serializer):
    name = serializers.CharField()
    throws = serializers.IntegerField()
    physical_throws = serializers.IntegerField()
    physical_share = serializers.FloatField(help_text="Physical throws / throws.")
    dice = FitOut(help_text="The dice the server threw.")
    physical = FitOut(help_text="The dice people entered (physical dice).")


class DiceStatsOut(serializers.Serializer):
    campaign_id = serializers.IntegerField()
    session = serializers.IntegerField(allow_null=True)
    everyone = DiceGroupOut()
    players = DiceGroupOut(many=True)
    characters = DiceGroupOut(many=True)


class ErrorDetailOut(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)


class ErrorOut(serializers.Serializer):
    error = ErrorDetailOut()
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )


class StaleTokenOut(ErrorOut):
    token = TokenOut()


# ------------------------------------------------------------------ input


class CampaignIn(StrictSerializer):
    name = Text(max_length=120)
    game = GameField()
    settings = serializers.JSONField(required=False, help_text="Per-game settings (docs/api.md).")


class CampaignPatchIn(StrictSerializer):
    name = Text(max_length=120, required=False)
    settings = serializers.JSONField(required=False)


class RoleIn(StrictSerializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InviteIn(StrictSerializer):
    role = InviteRoleField(default=Role.PLAYER)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    max_uses = Whole(required=False, allow_null=True, min_value=1, max_value=1000)


class InviteAcceptIn(StrictSerializer):
    code = Text(max_length=64)


class CharacterIn(StrictSerializer):
    name = Text(max_length=120)
    kind = serializers.ChoiceField(choices=["pc", "npc"], default="pc")
    owner_id = Whole(required=False, allow_null=True, **ID)
    sheet = serializers.JSONField(required=False)
    weapons = serializers.JSONField(required=False)
    resources = serializers.JSONField(required=False)
    gm_notes = Text(required=False, allow_blank=True, max_length=20000)


class CharacterPatchIn(CharacterIn):
    """Any of the create fields; those left out keep their values."""

    name = Text(max_length=120, required=False)
    kind = serializers.ChoiceField(choices=["pc", "npc"], required=False)


class ResourceIn(StrictSerializer):
    resource = Text(max_length=40)
    amount = Whole(min_value=1, max_value=9999)


class SceneIn(StrictSerializer):
    name = Text(max_length=120)
    width = Whole(min_value=1, max_value=200, default=20)
    height = Whole(min_value=1, max_value=200, default=20)
    walls = serializers.JSONField(required=False, help_text="[[x1, y1, x2, y2], ...] in squares")
    fog = Flag(default=False)
    lit = Flag(default=True)
    lighting = serializers.ChoiceField(choices=["lit", "dim", "dark"], required=False)
    baked_lighting = Flag(default=False)


class ScenePatchIn(StrictSerializer):
    name = Text(max_length=120, required=False)
    width = Whole(min_value=1, max_value=200, required=False)
    height = Whole(min_value=1, max_value=200, required=False)
    walls = serializers.JSONField(required=False)
    fog = Flag(required=False)
    lit = Flag(required=False)
    lighting = serializers.ChoiceField(choices=["lit", "dim", "dark"], required=False)
    baked_lighting = Flag(required=False)


class DoorIn(StrictSerializer):
    state = serializers.ChoiceField(choices=["open", "closed", "locked"])


class WallIn(StrictSerializer):
    wall = serializers.JSONField(
        help_text='[x1, y1, x2, y2] in squares, then "window" or "door" (and "open" or "locked")'
    )


class WallChangeIn(StrictSerializer):
    was = serializers.JSONField(help_text="the segment's ends [x1, y1, x2, y2] as you saw them")
    wall = serializers.JSONField(
        help_text="[x1, y1, x2, y2] moves the ends and keeps the kind; a longer list sets the kind"
    )


class WallDeleteIn(StrictSerializer):
    was = serializers.JSONField(help_text="the segment's ends [x1, y1, x2, y2] as you saw them")


class Number(serializers.FloatField):
    """A JSON number only: not "3", not true (the service checks it is finite
    and in bounds)."""

    def to_internal_value(self, data):
        if type(data) not in (int, float):
            self.fail("invalid")
        return data


class LightPatchIn(StrictSerializer):
    x = Number(required=False, help_text="In squares from the map's left (a map light)")
    y = Number(required=False)
    bright = Number(required=False, help_text="Bright light's radius in squares")
    dim = Number(required=False, help_text="Dim light's radius in squares (at least bright's)")
    color = Text(required=False, max_length=7, help_text="#rrggbb")
    intensity = Number(required=False)
    shadows = Flag(required=False, help_text="Walls cast shadows in its light")
    on = Flag(required=False)


class LightIn(LightPatchIn):
    token_id = Whole(required=False, help_text="The token carrying it (then no x, y)")


class FogIn(StrictSerializer):
    action = serializers.ChoiceField(choices=["reset", "reveal", "cover"])
    rect = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        help_text="[x, y, width, height] in squares (reveal and cover)",
    )
    group = Text(max_length=24, required=False, help_text='"party", or "u<user id>"')


class VisionOut(serializers.Serializer):
    scene = serializers.IntegerField()
    group = serializers.CharField()
    view = serializers.CharField(help_text="SVG path data in squares: what the group sees now.")
    explored = serializers.CharField(help_text="SVG path data: what the group has explored.")
    tokens = serializers.ListField(child=serializers.IntegerField())
    lit = serializers.ListField(
        child=serializers.DictField(),
        help_text="A dim or dark scene's lit areas the group sees, cut to its view: "
        "{color, bright, dim}, SVG path data in squares; no light's place.",
    )


class BackgroundIn(StrictSerializer):
    image = serializers.FileField(
        help_text="PNG, JPEG, GIF or WebP; by default 10 MB, 8192 px a side, 16 million pixels"
    )


class MapImportIn(StrictSerializer):
    file = serializers.FileField(
        help_text="A Universal VTT map (.dd2vtt, .uvtt, .df2vtt), by default at most 32 MB"
    )
    name = Text(max_length=120, required=False, help_text="A new scene's name")
    simplify = serializers.FloatField(
        required=False,
        help_text="Squares a corner may stray from the straight wall that replaces it "
        "(0 to 2; by default 0.05)",
    )
    replace = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Re-import: replace the scene's walls, doors and map lights (its tokens stay)",
    )
    dry_run = serializers.BooleanField(
        required=False, default=False, help_text="Only count what the import would make"
    )


class MapPlanOut(serializers.Serializer):
    name = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    format = serializers.FloatField(help_text="The file's format version")
    segments = serializers.IntegerField(help_text="Wall segments in the file")
    walls = serializers.IntegerField(help_text="Walls once joined and simplified")
    doors = serializers.IntegerField()
    lights = serializers.IntegerField()
    lighting = serializers.ChoiceField(choices=["lit", "dim", "dark"])
    baked_lighting = serializers.BooleanField()
    simplify = serializers.FloatField()
    replaces = serializers.DictField(
        allow_null=True,
        help_text="Re-import: the walls, doors and lights the scene has now and loses",
    )


class MapImportOut(serializers.Serializer):
    scene = SceneOut(allow_null=True, help_text="The scene; null for a dry run")
    plan = MapPlanOut()


class PictureIn(StrictSerializer):
    image = serializers.FileField(
        help_text="PNG, JPEG, GIF or WebP; by default 10 MB, 8192 px a side, 12 million pixels"
    )


class TokenIn(StrictSerializer):
    name = Text(max_length=120)
    x = Whole(default=0, min_value=-10000, max_value=10000)
    y = Whole(default=0, min_value=-10000, max_value=10000)
    size = Whole(default=1)  # bounds: the token service's
    hidden = Flag(default=False)
    color = serializers.RegexField(r"^#[0-9a-fA-F]{6}$", default="#888888")
    character_id = Whole(required=False, allow_null=True, **ID)
    controllers = serializers.ListField(child=Whole(**ID), required=False, max_length=50)
    sight_ft = Whole(default=0)  # bounds: the token service's
    light_ft = Whole(default=0)


class TokenPatchIn(StrictSerializer):
    name = Text(max_length=120, required=False)
    size = Whole(required=False)
    color = serializers.RegexField(r"^#[0-9a-fA-F]{6}$", required=False)
    character_id = Whole(required=False, allow_null=True, **ID)
    controllers = serializers.ListField(child=Whole(**ID), required=False, max_length=50)
    sight_ft = Whole(required=False)
    light_ft = Whole(required=False)


class MoveIn(StrictSerializer):
    x = Whole(min_value=-10000, max_value=10000)
    y = Whole(min_value=-10000, max_value=10000)
    version = Whole(required=False, allow_null=True)  # bounds: the token service's


class MarkerIn(StrictSerializer):
    # Types only: what a marker may be, its words' bounds and who may add
    # it are the marker service's, so both doors give its one answer.
    token = Whole(**ID)
    condition_id = Text(required=False, allow_blank=True, trim_whitespace=False)
    icon = Text(required=False, allow_blank=True, trim_whitespace=False)
    label = Text(required=False, allow_blank=True, trim_whitespace=False)
    gm_only = Flag(default=False)


class MarkerOut(serializers.Serializer):
    id = serializers.IntegerField()
    token_id = serializers.IntegerField()
    condition_id = serializers.CharField(help_text="The game's condition id; empty: a free marker.")
    icon = serializers.CharField()
    label = serializers.CharField()
    gm_only = serializers.BooleanField()


class HiddenIn(StrictSerializer):
    hidden = Flag()


class RollIn(StrictSerializer):
    request = serializers.JSONField(help_text="A rules request (docs/rules.md), faces optional.")
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    character_id = Whole(required=False, allow_null=True, **ID)
    fill = serializers.DictField(
        child=Text(max_length=120),
        required=False,
        allow_null=True,
        help_text='Request fields taken from the character\'s sheet: {"pool": "Might"}.',
    )
    nonce = Nonce()


class HandoutIn(StrictSerializer):
    title = serializers.CharField(max_length=200, help_text="What the handout is called")
    text = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=20_000,
        trim_whitespace=False,
        help_text="Markdown: rendered on the server, no raw HTML, no images, http(s) links only",
    )
    image = serializers.FileField(
        required=False,
        help_text="PNG, JPEG, GIF or WebP; by default 10 MB, 8192 px a side",
    )


class HandoutShareIn(StrictSerializer):
    everyone = serializers.BooleanField(
        required=False, default=False, help_text="Every member, and those who join later"
    )
    members = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
        max_length=100,
        help_text="User ids of the members to let in",
    )


class HandoutOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    html = serializers.CharField(help_text="The text as safe HTML")
    image = serializers.CharField(allow_null=True)
    everyone = serializers.BooleanField()
    text = serializers.CharField(required=False, help_text="The Markdown (the GM only)")
    shared_with = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="User ids (the GM only)"
    )


class DrawingIn(StrictSerializer):
    # Types only: what a drawing may hold and who may draw are the drawing
    # service's (vtt.drawings), so the REST and websocket doors give its
    # one answer, field by field.
    shape = serializers.JSONField(help_text="pen, line, arrow, rect, ellipse or text")
    layer = serializers.JSONField(required=False, help_text='"shared" (default) or "gm"')
    color = serializers.JSONField(help_text="#rrggbb")
    width = serializers.JSONField(help_text="1 to 8")
    points = serializers.JSONField(
        help_text="[[x, y], ...] in squares, on the map: a pen 2 to 2000, a line, arrow,"
        " rectangle or ellipse 2, a text 1 (its top left)"
    )
    text = serializers.JSONField(required=False, help_text="A text drawing's words (1 to 200)")


class DrawingMoveIn(StrictSerializer):
    dx = serializers.JSONField(help_text="Squares to the right (negative: left)")
    dy = serializers.JSONField(help_text="Squares down (negative: up)")


class DrawingOut(serializers.Serializer):
    id = serializers.IntegerField()
    scene = serializers.IntegerField()
    by = serializers.JSONField(help_text='{"id", "name"} of who drew it, or null')
    shape = serializers.CharField()
    layer = serializers.CharField()
    color = serializers.CharField()
    width = serializers.IntegerField()
    points = serializers.JSONField()
    text = serializers.CharField()
