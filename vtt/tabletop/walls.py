"""A scene's walls, doors and windows as geometry (vtt.rules.sight): what
blocks a move, what blocks sight, whether a token stands at a door. Read
once per distinct list of walls and kept in this process (shared by its
threads): every player's move on a walled map asks."""

import json

from vtt.rules import sight

_BARRIERS = sight.Kept(64)
_MOVEMENT = sight.Kept(64)


def barriers(walls, text: str | None = None) -> list:
    """A scene's walls read once per distinct list (each move asks);
    `text`: the list as JSON, when the caller has it already."""
    text = json.dumps(walls or []) if text is None else text
    return _BARRIERS.get_or(text, lambda: sight.parse_barriers(walls or []))


def movement_walls(text: str) -> list:
    """The segments that block movement (walls, closed doors, windows) of a
    scene whose walls are `text` (the JSON as the database gave it), made
    ready for path tests once per distinct list: only a list not seen
    before is decoded."""
    return _MOVEMENT.get_or(
        text,
        lambda: sight.prepared(sight.movement_segments(barriers(json.loads(text or "[]"), text))),
    )


def sight_walls(walls, text: str | None = None) -> list[tuple]:
    """The segments that block sight (walls, closed doors; not windows nor
    open doors): what fog of war and an attack's line of sight both use."""
    return sight.sight_segments(barriers(walls, text))


def within_reach(token, barrier) -> bool:
    """Whether a wall (a door) touches the token's footprint grown by one
    square: the token stands next to it."""
    reach = sight.rect(token.x - 1, token.y - 1, token.size + 2, token.size + 2)
    return sight.touches(reach, (barrier.x1, barrier.y1, barrier.x2, barrier.y2))
