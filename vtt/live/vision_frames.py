"""The fog drawings owed by a room's moves (vtt.fog.fog_drawing), drawn
on a database thread at most every DRAW_EVERY seconds a room and sent to
each group's members (and a GM looking through that group's eyes) as their
`vision` frame: state, not history, so a newer frame replaces one not yet
sent (docs/protocol.md)."""

import asyncio
import logging

from vtt.fog import fog_drawing

from . import db
from .hub import Hub, running_hub
from .protocol import dumps

logger = logging.getLogger(__name__)

_drawing: dict[tuple[int, int], asyncio.Task] = {}
_last: dict[tuple[int, int], float] = {}


def can_defer() -> bool:
    # On SQLite the rooms' database work has one thread (vtt.live.db), which
    # a drawing could not share with the moves: there it stays in the move.
    return running_hub() is not None and db.parallel()


def schedule(campaign_id: int, scene_id: int) -> None:
    """Called as a move commits, on the committing thread."""
    hub = running_hub()
    if hub is not None:
        try:
            hub.call_from_thread(_soon, hub, campaign_id, scene_id)
            return
        except RuntimeError:  # the loop closed meanwhile
            pass
    fog_drawing.draw(campaign_id, scene_id)  # no room here to send it to


def _soon(hub: Hub, campaign_id: int, scene_id: int) -> None:
    key = (campaign_id, scene_id)
    task = _drawing.get(key)
    if task is None or task.done():  # a running one draws again while owed
        _drawing[key] = hub.spawn(_draw_room(hub, campaign_id, scene_id))


async def _draw_room(hub: Hub, campaign_id: int, scene_id: int) -> None:
    key = (campaign_id, scene_id)
    while fog_drawing.owes(campaign_id, scene_id):
        wait = _last.get(key, 0.0) + fog_drawing.DRAW_EVERY - hub.loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        _last[key] = hub.loop.time()
        try:
            frames = await db.run(fog_drawing.draw, campaign_id, scene_id)
        except Exception:
            logger.exception("could not draw the fog of room %s", campaign_id)
            continue
        for group, frame in (frames or {}).items():
            text = dumps({"type": "vision", **frame})
            hub.publish_aside(campaign_id, text, vision=group, key="vision")
