"""Request and response shapes of combat's REST endpoints. Input serializers
type-check only (an unknown field is refused by name, as everywhere in the
API); the rules and the services do the real checks."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from vtt.api.serializers import Nonce, StrictSerializer, Text, Whole

ID = {"min_value": 1, "max_value": 2**63 - 1}
MAX_FACES = 500


class Faces(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(
            child=Whole(),
            required=False,
            allow_null=True,
            max_length=MAX_FACES,
            help_text="Physical dice in tape order (docs/rules.md); absent: the server rolls.",
            **kwargs,
        )


# A pattern, not an enum: the schema's `Visibility` enum stays the rolls' four.
@extend_schema_field({"type": "string", "pattern": "^(public|gm)$", "default": "public"})
class AttackVisibility(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=["public", "gm"], default="public", **kwargs)


class AttackIn(StrictSerializer):
    attacker_token = Whole(**ID)
    target_token = Whole(**ID)
    weapon = Text(
        required=False,
        allow_null=True,
        max_length=60,
        help_text="One of the attacker's weapons by name; null or absent: unarmed.",
    )
    visibility = AttackVisibility()
    faces = Faces()
    nonce = Nonce()
    overrides = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text='GM only: {"attack": {...}, "damage": {...}} laid over the rules requests.',
    )
    options = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="attack_skill; GM only: defense_skill, defense (dodge|block), defender_weapon.",
    )


class PreviewIn(StrictSerializer):
    attacker_token = Whole(**ID)
    target_token = Whole(**ID)
    weapon = Text(required=False, allow_null=True, max_length=60)
    overrides = serializers.JSONField(required=False, allow_null=True)
    options = serializers.JSONField(required=False, allow_null=True)


class DamageIn(StrictSerializer):
    amount = Whole(required=False, allow_null=True, min_value=0, max_value=9999)


class ReactionIn(StrictSerializer):
    reaction = Text(max_length=40, help_text="The id of a reaction the game's kit declares.")
    attack = Whole(required=False, allow_null=True, **ID)
    character = Whole(required=False, allow_null=True, **ID)
    values = serializers.JSONField(
        required=False, allow_null=True, help_text="The reaction's inputs, by name."
    )


class SeqIn(StrictSerializer):
    seq = Whole(required=False, allow_null=True, **ID)


class NextUndoOut(serializers.Serializer):
    seq = serializers.IntegerField(
        allow_null=True, help_text="The entry an undo would put back, or null."
    )
    kind = serializers.CharField(allow_null=True)
    summary = serializers.CharField(allow_null=True, help_text="That entry in words.")


class RevealIn(StrictSerializer):
    seq = Whole(**ID)


class RepairIn(StrictSerializer):
    weapon = Text(max_length=60)


class EncounterIn(StrictSerializer):
    tokens = serializers.ListField(
        child=Whole(**ID),
        required=False,
        allow_null=True,
        max_length=100,
        help_text="The combatants' tokens; absent: every token on the scene.",
    )


class InitiativeIn(StrictSerializer):
    combatants = serializers.ListField(
        child=Whole(**ID), required=False, allow_null=True, max_length=100
    )
    faces = Faces()
    nonce = Nonce()


class CombatantIn(StrictSerializer):
    token = Whole(**ID)


class CombatantPatchIn(StrictSerializer):
    initiative = Whole(allow_null=True, min_value=-10000, max_value=10000)


class AttackOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign_id = serializers.IntegerField()
    scene_id = serializers.IntegerField(allow_null=True)
    by = serializers.JSONField(allow_null=True)
    attacker = serializers.JSONField()
    target = serializers.JSONField()
    system = serializers.CharField()
    weapon = serializers.JSONField()
    measure = serializers.JSONField()
    sources = serializers.JSONField()
    steps = serializers.JSONField()
    outcome = serializers.CharField()
    status = serializers.CharField()
    damage = serializers.IntegerField(allow_null=True)
    changes = serializers.JSONField()
    visibility = serializers.CharField()
    physical = serializers.BooleanField()
    draw = serializers.JSONField(allow_null=True, help_text="Its place in the play session.")
    seq = serializers.IntegerField(allow_null=True)


class DecisionOut(serializers.Serializer):
    attack = serializers.IntegerField()
    seq = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField(help_text='"damage" (the GM\'s) or "reaction" (the defender\'s)')
    system = serializers.CharField()
    attacker = serializers.CharField()
    target = serializers.CharField()
    damage = serializers.IntegerField(allow_null=True)
    have = serializers.IntegerField(
        allow_null=True, help_text="What the defender has of the resource a reaction spends."
    )
    stale = serializers.JSONField(
        allow_null=True, help_text="{code, message} when it may not land."
    )


class PreviewOut(serializers.Serializer):
    weapon = serializers.JSONField()
    measure = serializers.JSONField()
    sources = serializers.JSONField()
    request = serializers.JSONField()
    odds = serializers.JSONField()


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.JSONField(required=False)


class EncounterOut(serializers.Serializer):
    id = serializers.IntegerField()
    scene_id = serializers.IntegerField()
    round = serializers.IntegerField()
    turns = serializers.IntegerField()
    current = serializers.IntegerField(allow_null=True)
    turn = serializers.IntegerField(allow_null=True)
    unseen_turn = serializers.BooleanField(
        help_text="The turn is a combatant this reader does not see (current and turn are null)."
    )
    order = serializers.JSONField()
    ended = serializers.BooleanField()
    game_time = serializers.JSONField()


class TrailsOut(serializers.Serializer):
    scene_id = serializers.IntegerField()
    trails = serializers.JSONField()


class BandsOut(serializers.Serializer):
    token_id = serializers.IntegerField()
    scene_id = serializers.IntegerField()
    origin = serializers.JSONField()
    size = serializers.IntegerField()
    weapon = serializers.JSONField()
    diagonal = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    legend = serializers.JSONField()
    bands = serializers.ListField(child=serializers.CharField())


class AreaAttackIn(StrictSerializer):
    attacker_token = Whole(**ID)
    template = Whole(**ID, help_text="An area template you see, on the attacker's scene.")
    weapon = Text(
        required=False,
        allow_null=True,
        max_length=60,
        help_text="One of the attacker's weapons by name; null or absent: unarmed.",
    )
    visibility = AttackVisibility()
    options = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="attack_skill; GM only: defense_skill, defense (dodge|block), overrule.",
    )


class PassedOverOut(serializers.Serializer):
    token_id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="no_character, out_of_range or no_line_of_sight")
    message = serializers.CharField()


class AreaAttackOut(serializers.Serializer):
    attacks = AttackOut(
        many=True, help_text="One per target adjudicated, nearest the corner first."
    )
    passed_over = PassedOverOut(many=True, help_text="Targets the rules could not attack.")
