"""Who a new socket is and whether it may enter, decided once it is
accepted (a close code can only be given then): the connects of its
client's address, its user, the protocol version it speaks and its place in
the campaign. A refusal is a close code; a missing campaign and one the
user is no member of get the same one, so a stranger learns nothing of
which exist."""

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from types import SimpleNamespace
from urllib.parse import parse_qs

from django.conf import settings

from vtt.accounts.client_address import client_address

from . import admission, db, protocol, room_reads

JOIN_CANCEL_WAIT = 2.0  # seconds a cancelled joining is given to end


@dataclass(frozen=True)
class Admitted:
    place: dict  # room_reads.membership: the member, their role and campaign
    version: int
    since: int | None  # the last event the client holds, when it reconnects


@dataclass(frozen=True)
class Refused:
    code: int
    reason: str = ""


async def admit(scope, room: int) -> Admitted | Refused:
    if not admission.connect_limits.allow(_client_address(scope)):
        return Refused(protocol.CLOSE_FLOODING, "too many connections from your address; wait")
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return Refused(protocol.CLOSE_UNAUTHENTICATED)
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    version = query.get("v", ["1"])[0]
    if version not in protocol.VERSIONS:
        return Refused(protocol.CLOSE_BAD_VERSION)
    since = _whole(query.get("since", [None])[0])
    try:
        place = await db.run(room_reads.membership, room, user)
    except (room_reads.NoSuchCampaign, room_reads.NotMember):
        return Refused(protocol.CLOSE_NOT_MEMBER)
    return Admitted(place, int(version), since)


async def join_watching(
    join: Coroutine, receive, leaving: Callable[[], None], left: Callable[[asyncio.Task], None]
) -> list | None:
    """`join` (the socket's connect), while reading what the client sends
    meanwhile: a client that leaves stops its joining at once (a snapshot it
    would never read must not hold a turn, nor the process's shutdown of the
    socket). Returns the frames that came meanwhile, to be dispatched in
    their order, or None when the client left: then `leaving()` was called
    at once and `left(joining)` is once the joining has ended."""
    joining = asyncio.ensure_future(join)
    early: list = []
    try:
        while True:
            reading = asyncio.ensure_future(receive())
            await asyncio.wait((joining, reading), return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()  # a queue's get gives nothing up when cancelled
                with contextlib.suppress(asyncio.CancelledError):
                    await reading
                break
            message = reading.result()
            if message["type"] == "websocket.disconnect":
                leaving()
                joining.cancel()
                # Not waited for long: a call into a Redis client that
                # lost its server may sit on its cancellation. Should
                # the joining end in the room after all, it leaves then.
                await asyncio.wait((joining,), timeout=JOIN_CANCEL_WAIT)
                joining.add_done_callback(left)
                return None
            early.append(message)
            if joining.done():
                break
    except BaseException:
        joining.cancel()
        raise
    joining.result()  # its failure is dispatch's to report
    return early


def refuse_large_messages(server_side) -> None:
    """A message of settings.WEBSOCKET_MESSAGE_LIMIT bytes or more (or a
    frame, however the message is cut) ends the socket with 1009 and
    autobahn's reason. autobahn's default for a limit passed is to drop the
    connection without a word; with `failByDrop` off it closes with the
    code instead (bad UTF-8 and other protocol errors likewise get theirs).
    Set before the handshake is accepted: no frame is read before it."""
    largest = settings.WEBSOCKET_MESSAGE_LIMIT - 1
    server_side.maxMessagePayloadSize = server_side.maxFramePayloadSize = largest
    server_side.failByDrop = False


def _client_address(scope) -> str:
    """The client's address as the rest of the site reads it (behind the
    trusted proxies, X-Forwarded-For): client_address on the scope's
    REMOTE_ADDR and header."""
    meta = {"REMOTE_ADDR": (scope.get("client") or ("",))[0] or ""}
    for name, value in scope.get("headers") or ():
        if name == b"x-forwarded-for":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return client_address(SimpleNamespace(META=meta))


def _whole(value) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        return None
    return number if number >= 0 else None
