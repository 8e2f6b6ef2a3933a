"""The refusals a service gives (defined in vtt.tabletop.errors so the
sheet and settings checks can raise them without importing the services)."""

from ..errors import NotAllowed, NotFound, ServiceError, StaleVersion

__all__ = ["NotAllowed", "NotFound", "ServiceError", "StaleVersion"]
