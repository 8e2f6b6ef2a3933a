"""Frames on their way to one client: in order, and bounded, so a client
that cannot keep up is disconnected (it resyncs when it returns) instead of
growing the server's memory without end.

Two ways out, chosen by what the ASGI server's `send` does:

- daphne's `send` never waits: it hands the frame to Twisted, which buffers
  it in the socket's transport. Frames are written at once, without a hop
  through a writer task, and the bound is read off that transport buffer.
  While the socket is open and plain (no compression, nothing of autobahn's
  queued), the frame is framed here and written onto that transport
  directly: the same bytes autobahn would write, without daphne's and
  autobahn's per-frame layers (checks, counters, a debug line formatted
  for every frame), which were a tenth of a busy process. When Twisted
  holds nothing for the socket, the frame goes to the kernel at once
  (`send_now`) instead of waiting for the reactor to ask for the socket's
  writability and then forget it again: another tenth.
- any other server's `send` may wait for the socket to drain: frames queue
  here and one writer task sends them in order; the bound is the queue."""

import asyncio
import collections
import contextlib
import functools
import struct

from twisted.internet import tcp

MAX_FRAMES = 2000
MAX_BYTES = 4 * 1024 * 1024


def frame_sender(send):
    """The send to use for websocket.send frames. Channels' session middleware
    wraps send to save sessions on HTTP responses; for a websocket frame it
    only passes the message on, so frames skip it."""
    owner = getattr(send, "__self__", None)
    if type(owner).__module__ == "channels.sessions" and hasattr(owner, "real_send"):
        return frame_sender(owner.real_send)
    return send


def _daphne_protocol(send):
    """The Twisted protocol behind daphne's send, or None for other servers."""
    if not isinstance(send, functools.partial) or not send.args:
        return None
    owner = getattr(send.func, "__self__", None)
    if type(owner).__module__ != "daphne.server" or send.func.__name__ != "handle_reply":
        return None
    return send.args[0]


def _buffered_bytes(transport) -> int:
    """Bytes Twisted holds for a socket that the kernel has not taken yet."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except (AttributeError, TypeError):
        return 0


def text_frame(payload: bytes) -> bytes:
    """One whole text message (UTF-8) as a server sends it (RFC 6455, 5.2):
    FIN and the text opcode, the payload's length in 7, 16 or 64 bits, no
    mask."""
    size = len(payload)
    if size < 126:
        return struct.pack("!BB", 0x81, size) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


def send_now(transport, data: bytes, buffered: int | None = None) -> None:
    """Write `data` on a Twisted transport, handing it to the kernel at once
    when the transport is a plain TCP connection with nothing buffered ahead
    of it. Twisted's own `write` only buffers and registers the socket with
    the reactor, which sends on its next turn and unregisters it again. What
    the kernel does not take, and every fault, is left to Twisted's `write`:
    it keeps the order behind what is buffered and closes a broken
    connection as it always does. `buffered`: what _buffered_bytes just
    said of the transport, when the caller asked it already."""
    if (
        isinstance(transport, tcp.Connection)
        and transport.connected
        and not transport.disconnecting
        and not transport._writeDisconnected
        and (_buffered_bytes(transport) if buffered is None else buffered) == 0
    ):
        try:
            sent = transport.socket.send(data)
        except OSError:  # full (EAGAIN) or broken: Twisted's write sorts it out
            sent = 0
        data = data[sent:]
        if not data:
            return
    transport.write(data)


def _plain_open(protocol, size: int) -> bool:
    """Whether a frame of `size` bytes can go straight onto the socket: the
    connection is open, nothing of autobahn's is queued ahead of it, and no
    extension or size limit changes what a message becomes on the wire."""
    return (
        protocol.state == protocol.STATE_OPEN
        and not protocol.send_queue
        and protocol._perMessageCompress is None
        and not protocol.autoFragmentSize
        and not 0 < protocol.maxMessagePayloadSize < size
    )


class Outbox:
    def __init__(self, send, on_overflow, max_frames=None, max_bytes=None):
        send = frame_sender(send)
        self._send = send
        self._on_overflow = on_overflow
        self.max_frames = MAX_FRAMES if max_frames is None else max_frames
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._queue: collections.deque = collections.deque()
        self._bytes = 0
        self._keyed: dict = {}
        self._wake = asyncio.Event()
        self._writer: asyncio.Task | None = None
        self._sending = False
        # daphne's Twisted protocol for this socket, None under other servers.
        self.protocol = _daphne_protocol(send)
        self.closed = False

    @property
    def immediate(self) -> bool:
        return self.protocol is not None

    def push(self, text: str, key=None, wire: bytes | None = None) -> None:
        """Queue one frame. A frame with a `key` replaces an unsent frame with
        the same key (drag previews: only the latest position matters).
        `wire`: the frame's bytes (text_frame), when the caller made them
        once for many sockets."""
        if self.closed:
            return
        if self.protocol is not None:
            self._write_now(text, wire)
            return
        if key is not None:
            entry = self._keyed.get(key)
            if entry is not None:
                self._bytes += len(text) - len(entry[0])
                entry[0] = text
                return
        if len(self._queue) >= self.max_frames or self._bytes + len(text) > self.max_bytes:
            self._overflow()
            return
        entry = [text, key]
        if key is not None:
            self._keyed[key] = entry
        self._queue.append(entry)
        self._bytes += len(text)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_all())
        self._wake.set()

    def _write_now(self, text: str, wire: bytes | None) -> None:
        protocol = self.protocol
        transport = getattr(protocol, "transport", None)
        if transport is not None:
            buffered = _buffered_bytes(transport)
            if buffered > self.max_bytes:
                self._overflow()
                return
            if wire is None:
                wire = text_frame(text.encode())
            # The frame's length bounds its payload's: a frame near the
            # limit takes autobahn's way, which checks it exactly.
            if _plain_open(protocol, len(wire)):
                send_now(transport, wire, buffered)
                return
        # daphne's handle_reply has no await in it: driving it one step runs it
        # to the end, the frame is on the transport and the order is kept.
        step = self._send({"type": "websocket.send", "text": text})
        try:
            step.send(None)
        except StopIteration:
            return
        step.close()
        raise RuntimeError("daphne's send waited; this outbox relies on it never doing so")

    async def _write_all(self) -> None:
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            entry = self._queue.popleft()
            text, key = entry
            self._bytes -= len(text)
            if key is not None:
                self._keyed.pop(key, None)
            self._sending = True
            try:
                await self._send({"type": "websocket.send", "text": text})
            finally:
                self._sending = False

    async def drain(self) -> None:
        """Wait until every queued frame has been handed to the server."""
        while (self._queue or self._sending) and not self.closed:
            await asyncio.sleep(0.005)

    def _overflow(self) -> None:
        self.close()
        self._on_overflow()

    def close(self) -> None:
        self.closed = True
        self._queue.clear()
        self._keyed.clear()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None

    async def send_close(self, code: int, reason: str = "") -> None:
        """The close frame, with `code` and `reason`, after `close()`."""
        if self.protocol is not None:
            # autobahn's sendClose, which daphne's close goes through, takes
            # from an application only 1000 and 3000-4999 and raises on the
            # rest: a 1011 left the socket open and silent. Its close frame
            # takes any code, as daphne's own 1011 after a crash does.
            with contextlib.suppress(Exception):
                self.protocol.sendCloseFrame(code=code, reasonUtf8=reason.encode()[:123] or None)
            return
        message = {"type": "websocket.close", "code": code}
        if reason:
            message["reason"] = reason
        with contextlib.suppress(Exception):
            await self._send(message)

    @property
    def pending(self) -> int:
        return len(self._queue)
