"""A small campaign for the live room tests, and websocket clients that log
in with a session cookie the way a browser does."""

import asyncio
import contextlib
import json
import os
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from tests import factories
from vtt.dice import session_start
from vtt.live import db as live_db

ORIGIN = (b"origin", b"http://testserver")
# The host the handshake comes to; the origin must be its own (vtt/live/origin.py).
HOST = (b"host", b"testserver")
TIMEOUT = 3


@dataclass
class Room:
    campaign_id: int
    scene_id: int
    users: dict
    cookies: dict
    tokens: dict
    characters: dict = field(default_factory=dict)


session_cookie = factories.session_cookie


def carried_markers(tokens) -> list[dict]:
    """The status markers the tokens of a snapshot or a scene change carry
    (a table, or a list of tokens), in one list."""
    from vtt.tabletop.serialize import is_table, table_tokens

    listed = table_tokens(tokens) if is_table(tokens) else tokens
    return [marker for token in listed for marker in token.get("markers", [])]


def make_room(game: str = "artifice", prefix: str = "", **character_sheets) -> Room:
    users = factories.people(prefix=prefix)
    gm = users["gm"]
    campaign = factories.campaign_at_table(users, game=game)
    scene = factories.scene(campaign, gm, "Crypt", active=True, width=20, height=20)
    tokens = {
        "tenrec": factories.token(scene, gm, "Tenrec", 1, 1, controllers=[users["player"].pk]).pk,
        "zombie": factories.token(scene, gm, "Zombie", 9, 9, hidden=True).pk,
    }
    characters = {}
    for name, sheet in character_sheets.items():
        characters[name] = factories.character(
            campaign, gm, name, owner_id=users["player"].pk, sheet=sheet
        ).pk
    # The table sits down to play: the session's digest is out before any roll.
    session_start(campaign_id=campaign.pk, by=gm)
    return Room(
        campaign_id=campaign.pk,
        scene_id=scene.pk,
        users={k: u.pk for k, u in users.items()},
        cookies={k: session_cookie(u) for k, u in users.items()},
        tokens=tokens,
        characters=characters,
    )


@pytest.fixture
def room(transactional_db):
    return make_room()


class Client_:
    """A websocket client of the room, with helpers to wait for frames."""

    def __init__(self, communicator):
        self.ws = communicator
        self.seen: list[dict] = []  # every frame received
        self.unread: list[dict] = []  # received but not yet matched by until()

    async def recv(self, timeout=TIMEOUT) -> dict:
        if self.unread:
            return self.unread.pop(0)
        frame = json.loads(await self.ws.receive_from(timeout))
        self.seen.append(frame)
        return frame

    async def until(self, predicate, timeout=TIMEOUT) -> dict:
        """The first frame that matches; frames passed over stay unread."""
        for i, frame in enumerate(self.unread):
            if predicate(frame):
                return self.unread.pop(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"no matching frame; saw {self.seen[-5:]}")
            frame = json.loads(await self.ws.receive_from(left))
            self.seen.append(frame)
            if predicate(frame):
                return frame
            self.unread.append(frame)

    async def event(self, kind: str, timeout=TIMEOUT) -> dict:
        frame = await self.until(
            lambda f: f["type"] == "event" and f["event"]["type"] == kind, timeout
        )
        return frame["event"]

    async def reply(self, id_, timeout=TIMEOUT) -> dict:
        return await self.until(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == id_, timeout
        )

    async def send(self, frame: dict) -> None:
        await self.ws.send_to(text_data=json.dumps(frame))

    async def ask(self, frame: dict) -> dict:
        await self.send(frame)
        return await self.reply(frame.get("id"))

    async def quiet(self, timeout=0.2) -> bool:
        return not self.unread and await self.ws.receive_nothing(timeout)

    async def drain(self, timeout=0.2) -> list[dict]:
        """Everything unread now and arriving within `timeout`."""
        frames, self.unread = self.unread, []
        while not await self.ws.receive_nothing(timeout):
            frame = json.loads(await self.ws.receive_from(1))
            self.seen.append(frame)
            frames.append(frame)
        return frames

    async def close(self):
        await self.ws.disconnect()


def application():
    from vtt.asgi import application as app

    return app


async def connect(room: Room, who: str, query: str = "", expect=True, campaign_id=None):
    """A connected client; with expect=True, its first frame (snapshot or welcome) is read."""
    headers = [ORIGIN, HOST]
    if who is not None:
        headers.append((b"cookie", f"sessionid={room.cookies[who]}".encode()))
    path = f"/ws/campaigns/{campaign_id or room.campaign_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application(), path, headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    client = Client_(communicator)
    if expect:
        client.first = await client.recv()
    return client


async def settled(timeout=3.0):
    """Wait until this loop's hub has let go of its rooms and its channel, so
    the loop closes with no layer traffic half done."""
    from vtt.live.hub import get_hub

    the_hub = get_hub()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (the_hub.rooms or the_hub.channel is not None) and loop.time() < deadline:
        await asyncio.sleep(0.01)
    while the_hub.unpublished and loop.time() < deadline:
        await asyncio.sleep(0.01)


async def forget_presence():
    """Campaign ids repeat from one test database to the next: start each
    test with no presence left in Redis by an earlier run."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    from redis import asyncio as aioredis

    from vtt.live.presence import key_prefix

    prefix = await database_sync_to_async(key_prefix)()
    redis = aioredis.Redis.from_url(url)
    try:
        keys = [key async for key in redis.scan_iter(f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
    finally:
        await redis.aclose()


@pytest.fixture
async def clients():
    """Opens clients; every one is disconnected at the end, pass or fail."""
    opened = []
    await forget_presence()

    async def open_(*args, **kwargs):
        client = await connect(*args, **kwargs)
        opened.append(client)
        return client

    yield open_
    for client in opened:
        with contextlib.suppress(Exception):
            await client.ws.disconnect(timeout=3)
    await settled()
    # The database thread's connection would otherwise outlive the test
    # (PostgreSQL then refuses to drop the test database).
    await database_sync_to_async(connections.close_all)()
    await asyncio.to_thread(live_db.close_connections)


@pytest.fixture(scope="session", autouse=True)
def close_live_database_threads(django_db_setup):
    """At the end of the run, before the test database is dropped, the live
    rooms' database threads let go of their connections (other suites' room
    tests use them too)."""
    yield
    live_db.close_connections()
