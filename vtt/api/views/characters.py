"""Characters and their resources."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.tabletop import policy, selectors, services
from vtt.tabletop.serialize import character_data

from ..permissions import campaign_access, character_access
from ..serializers import CharacterIn, CharacterOut, CharacterPatchIn, ResourceIn
from .base import ERRORS, READ_ERRORS, TabletopView


class CharacterListView(TabletopView):
    @extend_schema(responses={200: CharacterOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        return self.page(
            selectors.characters_for(viewer, campaign_id),
            lambda c: character_data(c, gm=policy.runs_table(viewer)),
        )

    @extend_schema(request=CharacterIn, responses={201: CharacterOut, **ERRORS})
    def post(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        data = self.parse(CharacterIn).validated_data
        character = services.character_create(campaign_id=campaign_id, by=request.user, **data)
        return Response(
            character_data(character, gm=policy.runs_table(viewer)), status=status.HTTP_201_CREATED
        )


class CharacterDetailView(TabletopView):
    @extend_schema(responses={200: CharacterOut, **READ_ERRORS})
    def get(self, request, character_id):
        character, viewer = character_access(request.user, character_id)
        return Response(character_data(character, gm=policy.runs_table(viewer)))

    @extend_schema(request=CharacterPatchIn, responses={200: CharacterOut, **ERRORS})
    def patch(self, request, character_id):
        _, viewer = character_access(request.user, character_id)
        fields = self.parse(CharacterPatchIn).given()
        character = services.character_update(character_id=character_id, by=request.user, **fields)
        return Response(character_data(character, gm=policy.runs_table(viewer)))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, character_id):
        character_access(request.user, character_id)
        services.character_delete(character_id=character_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SpendView(TabletopView):
    """Spend some of a counter (the owner or a GM); refused with
    `insufficient_<resource>` when the character has less."""

    @extend_schema(request=ResourceIn, responses={200: CharacterOut, **ERRORS})
    def post(self, request, character_id):
        _, viewer = character_access(request.user, character_id)
        data = self.parse(ResourceIn).validated_data
        character = services.resource_spend(character_id=character_id, by=request.user, **data)
        return Response(character_data(character, gm=policy.runs_table(viewer)))


class AwardView(TabletopView):
    """Add to a counter (GM)."""

    @extend_schema(request=ResourceIn, responses={200: CharacterOut, **ERRORS})
    def post(self, request, character_id):
        character_access(request.user, character_id)
        data = self.parse(ResourceIn).validated_data
        character = services.resource_gain(character_id=character_id, by=request.user, **data)
        return Response(character_data(character, gm=True))
