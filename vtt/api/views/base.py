"""What every tabletop API view shares: authentication (a token for scripts,
the session for the site), the error shape, parsing and pagination."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from vtt.core.errors import NotFound

from ..errors import api_exception_handler
from ..parsers import BoundedJSONParser
from ..serializers import ErrorOut

MAX_ID = 2**63 - 1

ERRORS = {
    400: OpenApiResponse(ErrorOut, description="Bad input: every field's messages in `fields`."),
    401: OpenApiResponse(ErrorOut, description="Not signed in."),
    403: OpenApiResponse(ErrorOut, description="A member, but not allowed to do this."),
    404: OpenApiResponse(ErrorOut, description="No such object, or not one you may see."),
}
READ_ERRORS = {code: ERRORS[code] for code in (401, 404)}


class TabletopView(GenericAPIView):
    # The token first: an anonymous caller then gets 401 with a
    # WWW-Authenticate header rather than a bare 403.
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]
    # No OPTIONS description: the OpenAPI schema is the description, and
    # these views have no single serializer for DRF to describe.
    metadata_class = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        # An id past any database's 64-bit keys names nothing (and would
        # overflow the query): a 404 like any other unknown id.
        # (An index, a door's in a scene's walls, may be 0.)
        for name, value in kwargs.items():
            lowest = 1 if name.endswith("_id") else 0
            if isinstance(value, int) and not lowest <= value <= MAX_ID:
                raise NotFound()

    def get_exception_handler(self):
        return api_exception_handler

    def parse(self, serializer_class):
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer

    def page(self, queryset, render) -> Response:
        items = self.paginate_queryset(queryset)
        return self.get_paginated_response([render(item) for item in items])
