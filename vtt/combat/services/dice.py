"""Adjudicating the steps of one attack (or one round of initiative) through
vtt.rules: one dice tape across all the steps when the faces were given,
the GM's overrides merged into each step's request, and every step kept
(request and result) for the log.

Each step is recorded with the faces it used, so any step replays alone.
Without a tape the dice come from the play session, as every roll's do
(vtt.dice.sessions): one draw per throw, taken with
`draw` in the recording transaction."""

from vtt.core import shapes
from vtt.core.errors import ServiceError
from vtt.dice import sessions as play_sessions
from vtt.rules import RulesError, adjudicate
from vtt.rules.dice import DiceTape

# A request's own envelope: never the GM's to override.
ENVELOPE = ("system", "action", "faces")


def merge(base: dict, extra: dict) -> dict:
    """`extra` laid over `base`, objects merged key by key."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def clean_overrides(value, steps, protected=()) -> dict:
    """{step: {partial rules request}}; the server's own facts are refused."""
    if value is None:
        return {}
    shapes.obj(value, "overrides", allowed=steps)
    for step, fields in value.items():
        shapes.obj(fields, f"overrides.{step}")
        for key in ENVELOPE:
            if key in fields:
                raise shapes.invalid(f"overrides.{step}.{key}", "is set by the server")
        for path in protected:
            head, _, tail = path.partition(".")
            inner = fields.get(head)
            if (not tail and head in fields) or (
                tail and isinstance(inner, dict) and tail in inner
            ):
                raise shapes.invalid(f"overrides.{step}.{path}", "is set by the server")
    return value


def rules_error(error: RulesError, step: str) -> ServiceError:
    if error.field == "faces" or error.code in ("faces_exhausted", "faces_unused", "bad_face"):
        return ServiceError(error.code, error.message, "faces")
    field = f"{step}.{error.field}" if error.field else step
    return ServiceError(error.code, error.message, field)


class _NoDice:
    """The source of a step that throws no dice (Fantasy Ground Rules'
    damage reduction): a die thrown without a draw would be unverifiable."""

    def roll(self):
        raise RuntimeError("dice thrown without a draw from the play session")


class Steps:
    """Rolls the steps in order and keeps them."""

    def __init__(self, faces=None, overrides=None):
        self.overrides = overrides or {}
        self.steps: list[dict] = []
        self.drawn = None
        self.tape = None
        if faces is not None:
            try:
                self.tape = DiceTape(faces)
            except RulesError as error:
                raise rules_error(error, "faces") from None

    @property
    def physical(self) -> bool:
        return self.tape is not None

    def draw(self, campaign, nonce: str | None) -> dict:
        """Take the session's next roll number for the dice that follow;
        returns what to record with them (their draw)."""
        self.drawn = play_sessions.draw(campaign, nonce, physical=self.physical)
        return self.drawn.record

    def roll(self, step: str, request: dict) -> dict:
        if step in self.overrides:
            request = merge(request, self.overrides[step])
        if self.tape is not None:
            source = self.tape
        else:
            source = self.drawn.source if self.drawn is not None else _NoDice()
        try:
            result = adjudicate(request, source=source)
        except RulesError as error:
            raise rules_error(error, step) from None
        kept = dict(request)
        if self.tape is not None:
            kept["faces"] = [d["face"] for d in result["dice"]]
        self.steps.append({"step": step, "request": kept, "result": result})
        return result

    def finish(self) -> None:
        """Refuse a tape that was too short or too long for every step."""
        if self.tape is not None:
            try:
                self.tape.finish()
            except RulesError as error:
                raise rules_error(error, "faces") from None
