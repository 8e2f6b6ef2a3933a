"""Spectator sockets for the live tests: a link made by the room's GM, and
a client that watches through it."""

import contextlib

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from vtt.spectators.services import link_create

from .conftest import HOST, ORIGIN, TIMEOUT, Client_, application


@database_sync_to_async
def make_link(room, **fields) -> tuple[int, str]:
    gm = get_user_model().objects.get(pk=room.users["gm"])
    link, token = link_create(campaign_id=room.campaign_id, by=gm, **fields)
    return link.pk, token


async def watch(token: str, query: str = "v=3", expect=True) -> Client_:
    """A spectator's client; with expect=True, its first frame is read."""
    path = f"/ws/watch/{token}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application(), path, headers=[ORIGIN, HOST])
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    client = Client_(communicator)
    if expect:
        client.first = await client.recv()
    return client


async def closed_code(client: Client_, timeout=TIMEOUT) -> int:
    """The close code the server ends the socket with (frames before it skipped)."""
    while True:
        output = await client.ws.receive_output(timeout)
        if output["type"] == "websocket.close":
            return output["code"]


async def hang_up(client: Client_) -> None:
    with contextlib.suppress(Exception):
        await client.ws.disconnect(timeout=3)
