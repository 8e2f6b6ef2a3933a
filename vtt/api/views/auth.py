"""Who am I, and a token for scripts."""

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from vtt.tabletop.errors import ServiceError
from vtt.tabletop.serialize import user_data

from ..serializers import ErrorOut, MeOut, TokenAuthIn, TokenAuthOut
from .base import READ_ERRORS, TabletopView


class LoginThrottle(AnonRateThrottle):
    rate = "20/minute"


class AuthTokenView(TabletopView):
    """Trade a username and password for an API token (send it as
    `Authorization: Token <key>`). The same token comes back every time."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [LoginThrottle]

    @extend_schema(
        request=TokenAuthIn,
        responses={200: TokenAuthOut, 400: OpenApiResponse(ErrorOut)},
        auth=[],
    )
    def post(self, request):
        data = self.parse(TokenAuthIn).validated_data
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ServiceError("bad_credentials", "unknown username or wrong password")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(TabletopView):
    @extend_schema(responses={200: MeOut, **READ_ERRORS})
    def get(self, request):
        return Response({**user_data(request.user), "username": request.user.get_username()})
