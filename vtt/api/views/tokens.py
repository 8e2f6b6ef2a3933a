"""Tokens on a scene."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.tabletop import selectors, services
from vtt.tabletop.serialize import token_data

from ..permissions import scene_access, token_access
from ..serializers import HiddenIn, MoveIn, StaleTokenOut, TokenIn, TokenOut, TokenPatchIn
from .base import ERRORS, READ_ERRORS, TabletopView


class TokenListView(TabletopView):
    @extend_schema(responses={200: TokenOut(many=True), **READ_ERRORS})
    def get(self, request, scene_id):
        _, viewer = scene_access(request.user, scene_id)
        return self.page(selectors.tokens_for(viewer, scene_id), token_data)

    @extend_schema(request=TokenIn, responses={201: TokenOut, **ERRORS})
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        data = self.parse(TokenIn).validated_data
        token = services.token_create(scene_id=scene_id, by=request.user, **data)
        return Response(token_data(token), status=status.HTTP_201_CREATED)


class TokenDetailView(TabletopView):
    @extend_schema(responses={200: TokenOut, **READ_ERRORS})
    def get(self, request, token_id):
        token, _ = token_access(request.user, token_id)
        return Response(token_data(token))

    @extend_schema(request=TokenPatchIn, responses={200: TokenOut, **ERRORS})
    def patch(self, request, token_id):
        token_access(request.user, token_id)
        fields = self.parse(TokenPatchIn).given()
        token = services.token_update(token_id=token_id, by=request.user, **fields)
        return Response(token_data(token))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, token_id):
        token_access(request.user, token_id)
        services.token_delete(token_id=token_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MoveView(TabletopView):
    """Move a token (its controllers or a GM). With `version`, a token that
    has changed since gives 409 and the token as it is now."""

    @extend_schema(
        request=MoveIn,
        responses={
            200: TokenOut,
            409: OpenApiResponse(StaleTokenOut, description="Stale version: the current token."),
            **ERRORS,
        },
    )
    def post(self, request, token_id):
        token_access(request.user, token_id)
        data = self.parse(MoveIn).validated_data
        token = services.token_move(token_id=token_id, by=request.user, **data)
        return Response(token_data(token))


class HiddenView(TabletopView):
    """Hide a token from the players or reveal it (GM)."""

    @extend_schema(request=HiddenIn, responses={200: TokenOut, **ERRORS})
    def post(self, request, token_id):
        token_access(request.user, token_id)
        hidden = self.parse(HiddenIn).validated_data["hidden"]
        token = services.token_set_hidden(token_id=token_id, by=request.user, hidden=hidden)
        return Response(token_data(token))
