"""Spectator links, for the campaign's GM: list, make (the one answer that
carries the link's token) and revoke. A spectator has no REST at all: the
watch page and its socket are all a link opens."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.spectators import selectors
from vtt.spectators.services import link_create, link_revoke

from ..permissions import gm_access
from ..spectator_serializers import SpectatorLinkIn, SpectatorLinkMade, SpectatorLinkOut
from .base import ERRORS, TabletopView


def made_data(link, token: str) -> dict:
    return {
        **selectors.link_data(link),
        "token": token,
        "url": reverse("web:watch", args=[token]),
    }


class SpectatorLinkListView(TabletopView):
    @extend_schema(responses={200: SpectatorLinkOut(many=True), **ERRORS})
    def get(self, request, campaign_id):
        gm_access(request.user, campaign_id, "see spectator links")
        return self.page(selectors.links_of(campaign_id), selectors.link_data)

    @extend_schema(request=SpectatorLinkIn, responses={201: SpectatorLinkMade, **ERRORS})
    def post(self, request, campaign_id):
        data = self.parse(SpectatorLinkIn).validated_data
        link, token = link_create(campaign_id=campaign_id, by=request.user, **data)
        return Response(made_data(link, token), status=status.HTTP_201_CREATED)


class SpectatorLinkDetailView(TabletopView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, link_id):
        """Revoke: nobody watches through it from now on (it stays listed)."""
        link_revoke(link_id=link_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
