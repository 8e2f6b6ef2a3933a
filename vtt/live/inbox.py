"""Frames from one client, read off daphne's socket.

Under daphne, every frame a client sends walks autobahn's frame machine
(a dozen calls and an event fired per frame), then daphne's queue, then
Channels' dispatch loop (a task and a wait per message). At a hundred busy
rooms the drag previews coming in were over a third of the process, most
of it those layers. So, while the socket is open and between frames, the
whole masked text frames a read brings are taken here: unmasked, decoded,
and offered to the room consumer, which answers a drag preview or a ping
at once when nothing of the socket's is waiting ahead of it. Every other
frame, and every byte this reader does not take (control frames, binary or
fragmented or compressed messages, a frame not yet whole, text that is not
UTF-8, anything over the size limits), goes to autobahn as before, and
every message that is not answered at once goes through daphne's queue, in
the order it came."""

import logging
import time

logger = logging.getLogger(__name__)

FIN_TEXT = 0x81  # FIN, no extension bits, the text opcode
MASKED = 0x80
LONGEST = 0xFFFF  # frames with a 7- or 16-bit length; longer ones go to autobahn


def next_text(data: bytes, offset: int, limit: int = 0) -> tuple[str, int] | None:
    """The whole, masked, unfragmented text frame at `offset` in `data`,
    unmasked and decoded, and where it ends; None when what is there is
    anything else, or not whole yet, or longer than `limit` (0: no limit)."""
    size = len(data)
    if size - offset < 6 or data[offset] != FIN_TEXT:
        return None
    second = data[offset + 1]
    if not second & MASKED:
        return None
    length = second & 0x7F
    start = offset + 2
    if length == 126:
        if size - start < 6:
            return None
        length = int.from_bytes(data[start : start + 2], "big")
        if length < 126:  # not the shortest encoding: autobahn refuses it
            return None
        start += 2
    elif length == 127:
        return None
    if length > LONGEST or 0 < limit < length:
        return None
    end = start + 4 + length
    if end > size:
        return None
    mask = data[start : start + 4]
    masked = data[start + 4 : end]
    # XOR the payload with the mask repeated over it: one big-integer
    # operation instead of a loop over the bytes.
    key = (mask * (length // 4 + 1))[:length]
    plain = (int.from_bytes(masked, "big") ^ int.from_bytes(key, "big")).to_bytes(length, "big")
    try:
        return plain.decode(), end
    except UnicodeDecodeError:  # autobahn closes with 1007 and says why
        return None


class Inbox:
    """Reads one daphne websocket's frames and hands each text to `answer`
    (true: answered at once) or, failing that, to daphne's queue. The
    consumer calls `done` once it has dispatched a queued frame, so a frame
    is only answered at once while none is waiting ahead of it."""

    def __init__(self, protocol, answer):
        self.protocol = protocol
        self.answer = answer
        self.waiting = 0
        # autobahn's limits on a message and on a frame (0: none), set before
        # the handshake; a frame over either is autobahn's to refuse.
        limits = (protocol.maxMessagePayloadSize, protocol.maxFramePayloadSize)
        self.limit = min((n for n in limits if n > 0), default=0)
        self._autobahn_reads = protocol.dataReceived
        protocol.dataReceived = self.data_received
        protocol.onMessage = self.message

    def done(self) -> None:
        self.waiting = max(0, self.waiting - 1)

    def close(self) -> None:
        """Give the protocol back its own reading once the consumer has left:
        it no longer holds the consumer through this inbox."""
        for name in ("dataReceived", "onMessage"):
            self.protocol.__dict__.pop(name, None)

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        if not self._between_frames():
            return self._autobahn_reads(data)
        offset = 0  # where the frames taken here end
        limit = self.limit
        while offset < len(data) and protocol.state == protocol.STATE_OPEN and not protocol.muted:
            frame = next_text(data, offset, limit)
            if frame is None:
                break
            text, offset = frame
            self.text(text)
        if offset:
            protocol.last_ping = time.time()  # daphne pings only quiet sockets
            if protocol.autoPingTimeoutCall and protocol.autoPingRestartOnAnyTraffic:
                protocol._cancelAutoPingTimeoutCall()
        if offset < len(data):
            self._autobahn_reads(data[offset:] if offset else data)

    def _between_frames(self) -> bool:
        """Open, not failing, and holding no part of a frame or message."""
        protocol = self.protocol
        return (
            protocol.state == protocol.STATE_OPEN
            and not protocol.data
            and protocol.current_frame is None
            and not protocol.inside_message
            and not protocol.failedByMe
            and not protocol.muted
        )

    def message(self, payload: bytes, is_binary: bool) -> None:
        """A message autobahn read (daphne's `onMessage`, but through here)."""
        protocol = self.protocol
        if protocol.muted:
            return
        protocol.last_ping = time.time()
        if is_binary:
            self._queue({"type": "websocket.receive", "bytes": payload})
        else:
            self.text(payload.decode())

    def text(self, text: str) -> None:
        if self.waiting == 0:
            try:
                if self.answer(text):
                    return
            except Exception:  # the consumer answers its own faults; this is a last guard
                logger.exception("a frame could not be answered at once")
                return
        self._queue({"type": "websocket.receive", "text": text})

    def _queue(self, message: dict) -> None:
        self.waiting += 1
        self.protocol.application_queue.put_nowait(message)
