"""Service refusals shown on the form that caused them, next to the field
they name (or above the form when they name none the form has)."""

from django import forms

from vtt.tabletop.services import ServiceError


def add_service_error(form: forms.Form, error: ServiceError, field_map: dict | None = None) -> None:
    """Attach a ServiceError to the form. `field_map` translates a service's
    dotted field (e.g. "sheet.skills.climb") to a form field name."""
    name = error.field or ""
    if field_map:
        for prefix, target in field_map.items():
            if name == prefix or name.startswith((prefix + ".", prefix + "[")):
                name = target
                break
    message = error.message
    if error.field and name != error.field and error.field not in message:
        message = f"{error.field}: {error.message}"
    form.add_error(name if name in form.fields else None, message)
