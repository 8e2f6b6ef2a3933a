"""The rules contract over HTTP: POST /api/adjudicate/ and POST /api/odds/.

The body is parsed and answered by vtt.rules exactly as the command line does,
and the answer is sent as the same encoded text."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework.permissions import AllowAny
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from vtt.accounts.client_address import client_address
from vtt.rules import RulesError, adjudicate, encode, odds
from vtt.rules.systems import SYSTEMS
from vtt.rules.text import decode_request

MAX_BODY = 64 * 1024

# Each game whose rules give an example request ("Artifice check").
_EXAMPLES = [
    OpenApiExample(
        f"{system.name} {system.example['action']}",
        value={"system": system.id, **system.example},
        request_only=True,
    )
    for system in SYSTEMS.values()
    if system.example
]


def _documented(description: str):
    # The contract's shapes vary by system and action (docs/rules.md), so the
    # schema names them free-form objects rather than one serializer.
    return extend_schema_view(
        post=extend_schema(
            request=OpenApiTypes.OBJECT,
            responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
            examples=_EXAMPLES,
            description=description,
        )
    )


def _answer(body: bytes, compute) -> HttpResponse:
    try:
        if len(body) > MAX_BODY:
            raise RulesError("invalid", f"the request is larger than {MAX_BODY} bytes")
        result, status = compute(decode_request(body)), 200
    except RulesError as exc:
        result, status = exc.as_dict(), 400
    return HttpResponse(encode(result), status=status, content_type="application/json")


class _ClientThrottle(ScopedRateThrottle):
    """Counts a client by its address as the log-in limits do: behind a
    trusted proxy only, the address that proxy gives."""

    def get_ident(self, request):
        return client_address(request)


class _RulesView(APIView):
    # Anonymous bots may use the contract; throttled per client.
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [_ClientThrottle]
    throttle_scope = "adjudicate"
    compute = None

    def post(self, request):
        # request.body, not request.data: the contract parses the JSON itself so
        # every channel gives the same error for the same bytes.
        return _answer(request.body, type(self).compute)


@_documented(
    "Adjudicate one rules request (docs/rules.md); same contract as `manage.py adjudicate`."
)
class AdjudicateView(_RulesView):
    compute = staticmethod(adjudicate)


@_documented("Exact odds of every outcome of a request, before the roll (no faces).")
class OddsView(_RulesView):
    compute = staticmethod(odds)
