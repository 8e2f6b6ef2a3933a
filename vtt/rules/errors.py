"""The contract's error object: every bad request fails with one of these."""


class RulesError(Exception):
    """A request the rules refuse. `code` is one of the contract's error codes
    (`invalid`, `unknown_field`, `faces_exhausted`, `faces_unused`, `bad_face`,
    or a rule's own refusal such as `out_of_range` or `cp_and_fp`)."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}


def invalid(field: str, message: str) -> RulesError:
    return RulesError("invalid", message, field)
