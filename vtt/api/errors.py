"""One error shape for every refusal of the tabletop API (docs/api.md):

    {"error": {"code": ..., "message": ..., "field": ... or null},
     "fields": {field: [message, ...]}}          # on every 400

`error` is the same object the rules contract and the live rooms use; for
400s, `fields` lists every field's messages, DRF style, with dotted names
for nested ones (`sheet.skills.Climb.level`)."""

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from vtt.core.errors import Busy, NotAllowed, NotFound, ServiceError, StaleVersion
from vtt.tabletop.serialize import token_data

NON_FIELD = "non_field_errors"


def error_body(code: str, message: str, field: str | None = None, fields=None) -> dict:
    body = {"error": {"code": code, "message": message, "field": field}}
    if fields is not None:
        body["fields"] = fields
    return body


def _flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as {dotted.field: [messages]}."""
    if isinstance(detail, dict):
        flat = {}
        for key, value in detail.items():
            name = prefix if key == NON_FIELD and prefix else f"{prefix}.{key}" if prefix else key
            for field, messages in _flatten(value, name).items():
                flat.setdefault(field, []).extend(messages)
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {prefix or NON_FIELD: [str(item) for item in detail]}
        flat = {}
        for i, item in enumerate(detail):
            for field, messages in _flatten(item, f"{prefix}[{i}]").items():
                flat.setdefault(field, []).extend(messages)
        return flat
    return {prefix or NON_FIELD: [str(detail)]}


def _first_code(detail) -> str:
    codes = detail
    while isinstance(codes, dict | list) and codes:
        codes = next(iter(codes.values())) if isinstance(codes, dict) else codes[0]
    return codes if isinstance(codes, str) else "invalid"


def _service_error(exc: ServiceError) -> Response:
    if isinstance(exc, StaleVersion):
        body = error_body(exc.code, exc.message, exc.field)
        body["token"] = token_data(exc.token)
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotFound):
        return Response(error_body(exc.code, exc.message, exc.field), status=404)
    if isinstance(exc, NotAllowed):
        return Response(error_body(exc.code, exc.message, exc.field), status=403)
    if isinstance(exc, Busy):
        headers = {"Retry-After": str(exc.retry_after)}
        return Response(error_body(exc.code, exc.message, exc.field), status=503, headers=headers)
    # The message names its field; under `fields` the name is the key already.
    message = exc.message.removeprefix(f"{exc.field}: ") if exc.field else exc.message
    fields = {exc.field or NON_FIELD: [message]}
    return Response(error_body(exc.code, exc.message, exc.field, fields), status=400)


def api_exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return _service_error(exc)
    if isinstance(exc, Http404 | ObjectDoesNotExist):
        return Response(error_body("not_found", "not found"), status=404)
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        field, messages = next(iter(fields.items()))
        # The rules contract's two codes: a field we do not know, or a bad value.
        code = "unknown_field" if _first_code(exc.get_codes()) == "unknown_field" else "invalid"
        return Response(
            error_body(
                code,
                f"{field}: {messages[0]}" if field != NON_FIELD else messages[0],
                None if field == NON_FIELD else field,
                fields,
            ),
            status=400,
        )
    response = exception_handler(exc, context)
    if response is None:
        return None  # a real server error: let it surface
    if isinstance(exc, exceptions.APIException):
        detail = exc.detail if not isinstance(exc.detail, dict | list) else str(exc.detail)
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        fields = {NON_FIELD: [str(detail)]} if response.status_code == 400 else None
        response.data = error_body(code, str(detail), fields=fields)
    return response
