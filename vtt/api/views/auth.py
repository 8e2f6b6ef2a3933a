"""Who am I, and a token for scripts."""

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from vtt.accounts.login_limits import Lockout, lockout_of
from vtt.core.errors import ServiceError
from vtt.tabletop.serialize import user_data

from ..errors import error_body
from ..serializers import ErrorOut, MeOut, TokenAuthIn, TokenAuthOut
from .base import READ_ERRORS, TabletopView


def too_many_attempts(lockout: Lockout) -> Response:
    return Response(
        error_body("too_many_attempts", lockout.message),
        status=429,
        headers={"Retry-After": str(lockout.retry_after)},
    )


class AuthTokenView(TabletopView):
    """Trade a username and password for an API token (send it as
    `Authorization: Token <key>`). The same token comes back every time.
    Failed attempts are limited per account and client address
    (docs/security.md): past the limit every attempt, right or wrong, is
    refused with 429 until `Retry-After` seconds have passed."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=TokenAuthIn,
        responses={
            200: TokenAuthOut,
            400: OpenApiResponse(ErrorOut),
            429: OpenApiResponse(
                ErrorOut, description="Too many failed log-ins: `too_many_attempts`."
            ),
        },
        parameters=[
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[429],
                description="Seconds until this client may try again.",
            )
        ],
        auth=[],
    )
    def post(self, request):
        data = self.parse(TokenAuthIn).validated_data
        user = authenticate(request, username=data["username"], password=data["password"])
        lockout = lockout_of(request)
        if lockout is not None:
            return too_many_attempts(lockout)
        if user is None or not user.is_active:
            raise ServiceError("bad_credentials", "unknown username or wrong password")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(TabletopView):
    @extend_schema(responses={200: MeOut, **READ_ERRORS})
    def get(self, request):
        return Response({**user_data(request.user), "username": request.user.get_username()})
