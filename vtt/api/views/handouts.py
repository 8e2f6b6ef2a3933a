"""Handouts: the GM makes them (multipart: `title`, `text` in Markdown,
`image`) and shares them; every member lists and reads those shared with
them (vtt.handouts.services, policy.sees_handout)."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from vtt.core.errors import ServiceError
from vtt.handouts import services as handouts
from vtt.pictures.images import megabytes
from vtt.tabletop import policy

from ..parsers import BoundedJSONParser
from ..permissions import campaign_access
from ..serializers import HandoutIn, HandoutOut, HandoutShareIn
from .base import ERRORS, READ_ERRORS, TabletopView
from .pictures import ENVELOPE_BYTES


def render_handout(handout, member) -> dict:
    if policy.runs_table(member):
        return handouts.handout_gm_data(handout)
    return handouts.handout_data(handout)


class HandoutListView(TabletopView):
    """The campaign's handouts the caller may read; a GM makes new ones."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(responses={200: HandoutOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        rows, member = handouts.handouts_seen(campaign_id, request.user)
        return self.page(rows, lambda handout: render_handout(handout, member))

    @extend_schema(
        request={"multipart/form-data": HandoutIn}, responses={201: HandoutOut, **ERRORS}
    )
    def post(self, request, campaign_id):
        campaign_access(request.user, campaign_id)  # a stranger: 404 before any parsing
        # Refuse a body too big to hold an allowed image before reading it.
        length = request.META.get("CONTENT_LENGTH") or "0"
        most = settings.IMAGE_MAX_BYTES
        if not length.isdigit() or int(length) > most + ENVELOPE_BYTES:
            raise ServiceError(
                "image_too_large", f"the image must be at most {megabytes(most)}", "image"
            )
        data = self.parse(HandoutIn).validated_data
        handout = handouts.handout_create(campaign_id=campaign_id, by=request.user, **data)
        return Response(handouts.handout_gm_data(handout), status=status.HTTP_201_CREATED)


class HandoutDetailView(TabletopView):
    @extend_schema(responses={200: HandoutOut, **READ_ERRORS})
    def get(self, request, handout_id):
        handout, member = handouts.handout_for(handout_id, request.user)
        return Response(render_handout(handout, member))


class HandoutShareView(TabletopView):
    """Let more members read a handout (a GM): everyone, or some by user id."""

    parser_classes = [BoundedJSONParser]

    @extend_schema(request=HandoutShareIn, responses={200: HandoutOut, **ERRORS})
    def post(self, request, handout_id):
        data = self.parse(HandoutShareIn).validated_data
        handout = handouts.handout_share(handout_id=handout_id, by=request.user, **data)
        return Response(handouts.handout_gm_data(handout))
