"""The refusals a service gives (defined in vtt.core.errors so the
sheet and settings checks can raise them without importing the services)."""

from vtt.core.errors import NotAllowed, NotFound, ServiceError, StaleVersion

__all__ = ["NotAllowed", "NotFound", "ServiceError", "StaleVersion"]
