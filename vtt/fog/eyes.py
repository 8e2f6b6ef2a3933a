"""A token as an eye of sight (vtt.rules.sight.Eye): from its centre, as far
as it sees. The annotation and the drawing after the moves both look
through them."""

from vtt.rules import sight

from .sight_cache import RoomSight

SQUARE_FT = 5


def centre(token: dict) -> tuple:
    half = token["size"] / 2
    return (token["x"] + half, token["y"] + half)


def eye(token: dict) -> sight.Eye:
    return sight.Eye(*centre(token), token["sight_ft"] / SQUARE_FT)


def eyes_seeing_for(state: RoomSight, group: str) -> tuple:
    """The eyes of the tokens that see for `group` in a kept sight."""
    return tuple(eye(state.tokens[t]) for t, mine in state.eyes.items() if group in mine)
