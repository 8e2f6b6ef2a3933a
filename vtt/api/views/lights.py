"""Lights on a scene (docs/vision.md): the GM places, changes and removes
them; a token's owner turns the light it carries on and off."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.maps.light_edits import light_place, light_remove, light_update
from vtt.tabletop.serialize import light_data

from ..permissions import scene_access
from ..serializers import LightIn, LightOut, LightPatchIn
from .base import ERRORS, TabletopView


class LightListView(TabletopView):
    @extend_schema(request=LightIn, responses={201: LightOut, **ERRORS})
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        serializer = self.parse(LightIn)
        fields = serializer.given()
        light = light_place(
            scene_id=scene_id, by=request.user, token_id=fields.pop("token_id", None), **fields
        )
        return Response(light_data(light), status=status.HTTP_201_CREATED)


class LightDetailView(TabletopView):
    @extend_schema(request=LightPatchIn, responses={200: LightOut, **ERRORS})
    def patch(self, request, light_id):
        fields = self.parse(LightPatchIn).given()
        light = light_update(light_id=light_id, by=request.user, **fields)
        return Response(light_data(light))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, light_id):
        light_remove(light_id=light_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
