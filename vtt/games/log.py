"""What every game's log sentences share (vtt/games/<id>/log.py): reading a
stored request or result that may be older or smaller than today's, and the
plain sentence said when a result cannot say more."""


def whole(d, key):
    """A whole number from a stored dict, or None (booleans are not numbers)."""
    value = d.get(key) if isinstance(d, dict) else None
    return value if type(value) is int else None


def obj(d, key) -> dict:
    value = d.get(key) if isinstance(d, dict) else None
    return value if isinstance(value, dict) else {}


def count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def words(value) -> str:
    return str(value).replace("_", " ")


def say(sentences: dict, actions: dict, outcomes: dict, request, result, default="Roll") -> str:
    """The sentence of `sentences` for the result's action, or "Check:
    success." when it cannot be said (an unknown action, an older shape)."""
    request = request if isinstance(request, dict) else {}
    result = result if isinstance(result, dict) else {}
    asked = (result.get("action"), request.get("action"))
    action = next((a for a in asked if isinstance(a, str) and a in sentences), None)
    speak = sentences.get(action)
    try:
        said = speak(request, result) if speak else None
    except (TypeError, ValueError, KeyError, AttributeError):
        # Results stored by older versions may hold other shapes: say less.
        said = None
    if said:
        return said
    label = actions.get(action, default)
    outcome = result.get("outcome")
    told = outcomes.get(outcome, words(outcome)) if isinstance(outcome, str) else ""
    return f"{label}: {told}." if told else f"{label}."
