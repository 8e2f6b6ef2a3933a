"""Every change to the tabletop goes through these services; the REST API,
the live rooms, the admin and the management commands all call them.

Services are named <entity>_<action>, take keyword-only arguments, check
permissions and invariants, write inside a transaction and append the room
event in that same transaction."""

from .errors import NotAllowed, NotFound, ServiceError, StaleVersion

__all__ = ["NotAllowed", "NotFound", "ServiceError", "StaleVersion"]
