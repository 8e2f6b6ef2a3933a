"""Combat over REST (docs/combat.md): parse, call a service or a selector,
render. Authentication, the error shape and the JSON parser are the
tabletop API's (vtt.api)."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.api.permissions import character_access
from vtt.api.serializers import CharacterOut, ErrorOut, TokenOut
from vtt.api.views.base import TabletopView
from vtt.combat import selectors
from vtt.combat.models import Attack
from vtt.combat.services import (
    area_attacks,
    attacks,
    decisions,
    encounters,
    reactions,
    reveal,
    trails,
    undo,
)
from vtt.core.errors import NotFound
from vtt.tabletop.models import Membership, Role
from vtt.tabletop.policy import event_view, runs_table, viewer_in
from vtt.tabletop.serialize import character_data, token_data
from vtt.tabletop.visibility import Viewer

from .. import combat_serializers as serializers

ERRORS = {
    400: OpenApiResponse(ErrorOut, description="Bad input, or a rule's refusal (its code)."),
    401: OpenApiResponse(ErrorOut, description="Not signed in."),
    403: OpenApiResponse(ErrorOut, description="A member, but not allowed to do this."),
    404: OpenApiResponse(ErrorOut, description="No such object, or not one you may see."),
}
READ_ERRORS = {code: ERRORS[code] for code in (400, 401, 404)}


def _seen(event, user) -> dict:
    member = (
        Membership.objects.filter(campaign_id=event.campaign_id, user=user)
        .select_related("campaign")
        .first()
    )
    if member is None:
        return event_view(event, Viewer(user.pk, Role.OBSERVER))
    return event_view(event, viewer_in(user.pk, member.role, member.campaign.settings))


def _character(character, user) -> dict:
    _, viewer = character_access(user, character.pk)
    return character_data(character, gm=runs_table(viewer))


def _encounter(encounter, user) -> dict:
    return encounters.encounter_view(encounter, encounters.viewer_of(encounter, user))


class AttackListView(TabletopView):
    @extend_schema(
        parameters=[OpenApiParameter("campaign", int, required=True)],
        responses={200: serializers.AttackOut(many=True), **READ_ERRORS},
    )
    def get(self, request):
        campaign = request.query_params.get("campaign", "")
        if not campaign.isdigit():
            raise NotFound("name a campaign: ?campaign=<id>", "campaign")
        return Response(selectors.attack_list(campaign_id=int(campaign), by=request.user))

    @extend_schema(request=serializers.AttackIn, responses={201: serializers.AttackOut, **ERRORS})
    def post(self, request):
        data = self.parse(serializers.AttackIn).validated_data
        made = attacks.attack_make(
            by=request.user,
            attacker_token_id=data["attacker_token"],
            target_token_id=data["target_token"],
            weapon=data.get("weapon"),
            visibility=data["visibility"],
            faces=data.get("faces"),
            overrides=data.get("overrides"),
            options=data.get("options"),
            nonce=data.get("nonce"),
        )
        return Response(selectors.attack_detail(attack_id=made.pk, by=request.user), status=201)


class AreaAttackView(TabletopView):
    """An attack against every token in an area template you see: one
    adjudication per target, all or nothing (docs/combat.md)."""

    @extend_schema(
        request=serializers.AreaAttackIn, responses={201: serializers.AreaAttackOut, **ERRORS}
    )
    def post(self, request):
        data = self.parse(serializers.AreaAttackIn).validated_data
        made = area_attacks.area_attack(
            by=request.user,
            attacker_token_id=data["attacker_token"],
            template_id=data["template"],
            weapon=data.get("weapon"),
            visibility=data["visibility"],
            options=data.get("options"),
        )
        return Response(
            {
                "attacks": [
                    selectors.attack_detail(attack_id=a.pk, by=request.user) for a in made.attacks
                ],
                "passed_over": made.passed_over,
            },
            status=status.HTTP_201_CREATED,
        )


class AttackPreviewView(TabletopView):
    """What an attack would roll, and its odds, without rolling."""

    @extend_schema(request=serializers.PreviewIn, responses={200: serializers.PreviewOut, **ERRORS})
    def post(self, request):
        data = self.parse(serializers.PreviewIn).validated_data
        return Response(
            attacks.attack_preview(
                by=request.user,
                attacker_token_id=data["attacker_token"],
                target_token_id=data["target_token"],
                weapon=data.get("weapon"),
                overrides=data.get("overrides"),
                options=data.get("options"),
            )
        )


class AttackDetailView(TabletopView):
    @extend_schema(responses={200: serializers.AttackOut, **READ_ERRORS})
    def get(self, request, attack_id):
        return Response(selectors.attack_detail(attack_id=attack_id, by=request.user))


class AttackDamageView(TabletopView):
    """The GM applies the damage an attack is waiting for."""

    @extend_schema(request=serializers.DamageIn, responses={200: serializers.AttackOut, **ERRORS})
    def post(self, request, attack_id):
        data = self.parse(serializers.DamageIn).validated_data
        attacks.attack_apply_damage(attack_id=attack_id, by=request.user, amount=data.get("amount"))
        return Response(selectors.attack_detail(attack_id=attack_id, by=request.user))


class AttackReduceView(TabletopView):
    """The game's reaction on an attack that waits for its defender (the
    body is its values): the older URL of POST /api/combat/reactions/."""

    @extend_schema(request=None, responses={200: serializers.AttackOut, **ERRORS})
    def post(self, request, attack_id):
        reactions.react(reaction=None, by=request.user, attack_id=attack_id, values=request.data)
        return Response(selectors.attack_detail(attack_id=attack_id, by=request.user))


class AttackDeclineView(TabletopView):
    """The GM lets a pending attack go without applying its damage."""

    @extend_schema(request=None, responses={200: serializers.AttackOut, **ERRORS})
    def post(self, request, attack_id):
        attacks.attack_decline(attack_id=attack_id, by=request.user)
        return Response(selectors.attack_detail(attack_id=attack_id, by=request.user))


class DecisionsView(TabletopView):
    """The pending decisions waiting for the caller (docs/combat.md): a
    short list, whole, as the room's snapshot carries it."""

    pagination_class = None

    @extend_schema(responses={200: serializers.DecisionOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        return Response(decisions.decisions(campaign_id=campaign_id, by=request.user))


class RepairView(TabletopView):
    @extend_schema(request=serializers.RepairIn, responses={204: None, **ERRORS})
    def post(self, request, character_id):
        data = self.parse(serializers.RepairIn).validated_data
        attacks.weapon_repair(character_id=character_id, by=request.user, weapon=data["weapon"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class SaveFromDyingView(TabletopView):
    """The game's reaction on a character of yours (a way back from dying):
    the older URL of POST /api/combat/reactions/."""

    @extend_schema(request=None, responses={200: CharacterOut, **ERRORS})
    def post(self, request, character_id):
        saved = reactions.react(reaction=None, by=request.user, character_id=character_id)
        return Response(_character(saved, request.user))


class ReactionView(TabletopView):
    """A reaction the game's kit declares, on an attack or a character
    (docs/combat.md, "Reactions"): the attack or the character after it."""

    @extend_schema(
        request=serializers.ReactionIn,
        responses={200: OpenApiResponse(description="AttackOut or CharacterOut"), **ERRORS},
    )
    def post(self, request):
        data = self.parse(serializers.ReactionIn).validated_data
        done = reactions.react(
            reaction=data["reaction"],
            by=request.user,
            attack_id=data.get("attack"),
            character_id=data.get("character"),
            values=data.get("values"),
        )
        if isinstance(done, Attack):
            return Response(selectors.attack_detail(attack_id=done.pk, by=request.user))
        return Response(_character(done, request.user))


class UndoView(TabletopView):
    """Undo the room's last applied result; answers the compensating event.
    GET (GM) names the result an undo would put back now."""

    @extend_schema(request=None, responses={200: serializers.NextUndoOut, **ERRORS})
    def get(self, request, campaign_id):
        return Response(undo.next_undo(campaign_id=campaign_id, by=request.user))

    @extend_schema(request=serializers.SeqIn, responses={200: serializers.EventOut, **ERRORS})
    def post(self, request, campaign_id):
        data = self.parse(serializers.SeqIn).validated_data
        event = undo.undo_last(campaign_id=campaign_id, by=request.user, seq=data.get("seq"))
        return Response(_seen(event, request.user))


class RevealView(TabletopView):
    """Show the players a hidden roll or attack (GM)."""

    @extend_schema(request=serializers.RevealIn, responses={200: serializers.EventOut, **ERRORS})
    def post(self, request, campaign_id):
        seq = self.parse(serializers.RevealIn).validated_data["seq"]
        event = reveal.event_reveal(campaign_id=campaign_id, by=request.user, seq=seq)
        return Response(_seen(event, request.user))


class TrailsView(TabletopView):
    @extend_schema(responses={200: serializers.TrailsOut, **READ_ERRORS})
    def get(self, request, scene_id):
        return Response(selectors.scene_trails(scene_id=scene_id, by=request.user))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, scene_id):
        trails.trails_clear(scene_id=scene_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ResetView(TabletopView):
    """Put a token back where it started this turn."""

    @extend_schema(request=None, responses={200: TokenOut, **ERRORS})
    def post(self, request, token_id):
        return Response(token_data(trails.token_reset(token_id=token_id, by=request.user)))


class RangeBandsView(TabletopView):
    @extend_schema(
        parameters=[
            OpenApiParameter("weapon", str, description="One of the token's weapons, by name."),
            OpenApiParameter("kind", str, enum=["melee", "missile", "spell"]),
            OpenApiParameter("range_ft", str, description="Feet, or line_of_sight (spells)."),
        ],
        responses={200: serializers.BandsOut, **ERRORS},
    )
    def get(self, request, token_id):
        query = request.query_params
        return Response(
            selectors.token_range_bands(
                token_id=token_id,
                by=request.user,
                weapon=query.get("weapon"),
                kind=query.get("kind"),
                range_ft=query.get("range_ft"),
            )
        )


class EncounterView(TabletopView):
    """The scene's running encounter (204 No Content when there is none, so a
    room without a fight logs no error), or start one."""

    @extend_schema(
        responses={
            200: serializers.EncounterOut,
            204: OpenApiResponse(description="No encounter is running on this scene."),
            **READ_ERRORS,
        }
    )
    def get(self, request, scene_id):
        found = selectors.scene_encounter(scene_id=scene_id, by=request.user)
        if found is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(found)

    @extend_schema(
        request=serializers.EncounterIn, responses={201: serializers.EncounterOut, **ERRORS}
    )
    def post(self, request, scene_id):
        data = self.parse(serializers.EncounterIn).validated_data
        made = encounters.encounter_start(
            scene_id=scene_id, by=request.user, tokens=data.get("tokens")
        )
        return Response(_encounter(made, request.user), status=201)


class InitiativeView(TabletopView):
    @extend_schema(
        request=serializers.InitiativeIn, responses={200: serializers.EncounterOut, **ERRORS}
    )
    def post(self, request, encounter_id):
        data = self.parse(serializers.InitiativeIn).validated_data
        encounter = encounters.encounter_roll_initiative(
            encounter_id=encounter_id,
            by=request.user,
            combatants=data.get("combatants"),
            faces=data.get("faces"),
            nonce=data.get("nonce"),
        )
        return Response(_encounter(encounter, request.user))


class CombatantListView(TabletopView):
    @extend_schema(
        request=serializers.CombatantIn, responses={200: serializers.EncounterOut, **ERRORS}
    )
    def post(self, request, encounter_id):
        token = self.parse(serializers.CombatantIn).validated_data["token"]
        encounter = encounters.encounter_add(
            encounter_id=encounter_id, by=request.user, token_id=token
        )
        return Response(_encounter(encounter, request.user))


class CombatantDetailView(TabletopView):
    @extend_schema(
        request=serializers.CombatantPatchIn, responses={200: serializers.EncounterOut, **ERRORS}
    )
    def patch(self, request, encounter_id, combatant_id):
        data = self.parse(serializers.CombatantPatchIn).validated_data
        encounter = encounters.encounter_set_initiative(
            encounter_id=encounter_id,
            by=request.user,
            combatant_id=combatant_id,
            initiative=data["initiative"],
        )
        return Response(_encounter(encounter, request.user))

    @extend_schema(responses={200: serializers.EncounterOut, **ERRORS})
    def delete(self, request, encounter_id, combatant_id):
        encounter = encounters.encounter_remove(
            encounter_id=encounter_id, by=request.user, combatant_id=combatant_id
        )
        return Response(_encounter(encounter, request.user))


class NextTurnView(TabletopView):
    @extend_schema(request=None, responses={200: serializers.EncounterOut, **ERRORS})
    def post(self, request, encounter_id):
        encounter = encounters.encounter_next(encounter_id=encounter_id, by=request.user)
        return Response(_encounter(encounter, request.user))


class EndView(TabletopView):
    @extend_schema(request=None, responses={200: serializers.EncounterOut, **ERRORS})
    def post(self, request, encounter_id):
        encounter = encounters.encounter_end(encounter_id=encounter_id, by=request.user)
        return Response(_encounter(encounter, request.user))
