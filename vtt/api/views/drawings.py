"""Drawings on a scene's map (docs/protocol.md, "Drawings"): the ones you
see, drawn, moved and removed through the drawing services the room's
intents call."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.drawings import services as drawings
from vtt.drawings.selectors import drawings_seen
from vtt.drawings.serialize import drawing_data

from ..permissions import scene_access
from ..serializers import DrawingIn, DrawingMoveIn, DrawingOut
from .base import ERRORS, READ_ERRORS, TabletopView


class DrawingListView(TabletopView):
    """The scene's drawings you see: the GM every one; the others the
    shared layer of the room's scene, under fog those their sight group's
    map shows some point of."""

    pagination_class = None

    @extend_schema(responses={200: DrawingOut(many=True), **READ_ERRORS})
    def get(self, request, scene_id):
        scene, viewer = scene_access(request.user, scene_id)
        return Response([drawing_data(d) for d in drawings_seen(viewer, scene)])

    @extend_schema(request=DrawingIn, responses={201: DrawingOut, **ERRORS})
    def post(self, request, scene_id):
        fields = self.parse(DrawingIn).given()
        drawing = drawings.drawing_add(scene_id=scene_id, by=request.user, **fields)
        return Response(drawing_data(drawing), status=status.HTTP_201_CREATED)


class DrawingDetailView(TabletopView):
    @extend_schema(request=DrawingMoveIn, responses={200: DrawingOut, **ERRORS})
    def patch(self, request, drawing_id):
        fields = self.parse(DrawingMoveIn).validated_data
        drawing = drawings.drawing_move(
            drawing_id=drawing_id, by=request.user, dx=fields["dx"], dy=fields["dy"]
        )
        return Response(drawing_data(drawing))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, drawing_id):
        drawings.drawing_remove(drawing_id=drawing_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
