"""Status markers on tokens."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.markers import services as markers
from vtt.tabletop import selectors
from vtt.tabletop.serialize import marker_data

from ..permissions import campaign_access
from ..serializers import MarkerIn, MarkerOut
from .base import ERRORS, READ_ERRORS, TabletopView


class MarkerListView(TabletopView):
    """The markers of the campaign's tokens you see (a GM-only one: the
    GM's); `?scene=` keeps one scene's."""

    @extend_schema(responses={200: MarkerOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        scene = request.query_params.get("scene")
        scene_id = int(scene) if scene and scene.isdigit() and len(scene) < 19 else None
        found = selectors.markers_for(viewer, campaign_id, scene_id)
        return self.page(found, marker_data)

    @extend_schema(request=MarkerIn, responses={201: MarkerOut, **ERRORS})
    def post(self, request, campaign_id):
        data = dict(self.parse(MarkerIn).validated_data)
        marker = markers.marker_add(
            campaign_id=campaign_id, token_id=data.pop("token"), by=request.user, **data
        )
        return Response(marker_data(marker), status=status.HTTP_201_CREATED)


class MarkerDetailView(TabletopView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, marker_id):
        markers.marker_remove(marker_id=marker_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
