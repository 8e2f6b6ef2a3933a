"""Refusals a service can give. Each channel renders them its own way: HTTP
400/403/404, a websocket error frame, exit code 2."""


class ServiceError(Exception):
    """A request the tabletop refuses (bad input or a broken invariant)."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


class NotAllowed(ServiceError):
    """The caller may not do this (wrong role, not their token...)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__("forbidden", message, field)


class NotFound(ServiceError):
    """No such object, or not one the caller may know of."""

    def __init__(self, message: str = "not found", field: str | None = None):
        super().__init__("not_found", message, field)


class Busy(ServiceError):
    """The server has no room for this work now: come back in
    `retry_after` seconds (HTTP 503 with Retry-After)."""

    def __init__(self, message: str, retry_after: int, field: str | None = None):
        super().__init__("busy", message, field)
        self.retry_after = retry_after


class StaleVersion(ServiceError):
    """A token change that named an older version than the stored one.
    Carries the token as it is now so the client can settle on it."""

    def __init__(self, token, message: str = "the token has moved since; here is where it is now"):
        super().__init__("stale_version", message, "version")
        self.token = token
