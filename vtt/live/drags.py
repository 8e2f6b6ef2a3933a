"""A socket's drag previews: checked against its token table, relayed to
the room through the hub and never stored. Coalesced: previews wait only
when they come faster than DRAG_RATE, and then the latest position of each
token wins."""

import asyncio
import logging

from vtt.tabletop import policy

from . import protocol
from .limits import DRAG_BURST, DRAG_RATE, TokenBucket

logger = logging.getLogger(__name__)


class DragRelay:
    def __init__(self, member):
        self.member = member  # the socket's delivery (vtt.live.delivery.Delivery)
        self.pending: dict[int, tuple[int, int]] = {}
        self.flush: asyncio.TimerHandle | None = None
        self.bucket = TokenBucket(DRAG_RATE, DRAG_BURST)

    def drag(self, intent: protocol.Intent):
        member, fields = self.member, intent.fields
        token = member.tokens.get(fields["token"])
        if token is None:
            return member.reply_error(intent.id, "not_found", "no such token", "token")
        if not policy.controls_token(member.viewer, token):
            return member.reply_error(intent.id, "forbidden", "you do not control this token")
        self.pending[fields["token"]] = (fields["x"], fields["y"])
        if self.flush is not None:
            return
        if self.bucket.take():
            self.send()
        else:
            self.flush = asyncio.get_running_loop().call_later(self.bucket.wait(), self.send_later)

    def forget(self, token_id) -> None:
        """A move of the token is on its way: a held preview would undo it."""
        self.pending.pop(token_id, None)

    def cancel(self) -> None:
        if self.flush is not None:
            self.flush.cancel()

    def send_later(self):
        self.flush = None
        self.bucket.take()
        try:
            self.send()
        except Exception:
            logger.exception("room %s: held drag previews could not go out", self.member.room)
            self.member.broken()

    def send(self):
        member = self.member
        drags, self.pending = self.pending, {}
        for token_id, (x, y) in drags.items():
            token = member.tokens.get(token_id)
            if token is None:
                continue
            text = protocol.dumps(
                {
                    "type": "token.drag",
                    "token": token_id,
                    "x": x,
                    "y": y,
                    "by": member.user_id,
                    "version": token["version"],
                }
            )
            # On a fog scene only the groups the token sees for watch it
            # go: where it passes may be out of anyone else's view.
            eyes = token.get("eyes")
            member.hub.publish_preview(
                member.room,
                text,
                origin=member.conn_id,
                gm_only=token["hidden"] or eyes == [],
                groups=eyes,
                key=f"drag:{token_id}",
            )
