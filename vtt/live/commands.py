"""The command layer: an intent that changes the room, carried out. What
each intent does is vtt.live.intents (a call into a service), the answer
kept per id is vtt.live.receipts, and the room's writer commits it with the
intents of the room's other sockets (vtt.live.group_commit). Here they are
put together, and the outcome becomes the frame the asker is answered
with: an `ack`, or an `error` in the service's own words."""

import logging

from vtt.rules import RulesError
from vtt.tabletop.serialize import token_data
from vtt.tabletop.services.errors import ServiceError, StaleVersion

from . import db, group_commit, intents, protocol

logger = logging.getLogger(__name__)


async def carry_out(member, intent: protocol.Intent) -> str:
    """The answer frame to `intent` from the socket whose delivery is
    `member` (its user, room and token table)."""
    token = intent.fields.get("token")
    # Tokens the socket already knows to be in this room need no read.
    known = frozenset((token,)) if token in member.tokens else frozenset()
    asker = intents.Asker(member.user, member.room, known)
    if intent.type == "token.move":
        member.drags.forget(token)
    elif intent.type == "drawing.add" and intent.fields.get("stroke"):
        member.strokes.forget(intent.fields["stroke"])
    try:
        extra, repeat = await group_commit.writer(member.room).carry_out(
            intents.once(asker, intent)
        )
    except StaleVersion as error:
        current = await db.run(token_data, error.token)
        return protocol.error_frame(
            intent.id, error.code, error.message, error.field, token=current
        )
    except (ServiceError, RulesError) as error:
        return protocol.error_frame(intent.id, error.code, error.message, error.field)
    except Exception:
        logger.exception("intent %s failed in room %s", intent.type, member.room)
        return protocol.error_frame(intent.id, "server_error", "the server could not do that")
    if repeat:
        extra = {**extra, "repeat": True}
    return protocol.ack_frame(intent.id, intent.type, **extra)
