"""The live room under hostile frames: each is answered with an error frame,
the connection stays, and nothing reaches the room's log."""

import json
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async

from tests.live.conftest import session_cookie
from vtt.tabletop.models import RoomEvent

from .conftest import CHECK, make_secrets
from .test_hostile_input import NESTED, deep, nested

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(transactional_db):
    secrets = make_secrets("hi-")
    return SimpleNamespace(
        campaign_id=secrets.campaign.pk,
        cookies={name: session_cookie(user) for name, user in secrets.users.items()},
        s=secrets,
    )


async def test_hostile_frames_get_an_error_and_the_socket_stays(room, clients):
    player = await clients(room, "player")
    seq = player.first["seq"]
    hostile = [
        (deep(8000), "bad_json"),
        ('{"type": "chat", "text": ' + deep(5000) + "}", "bad_json"),
        ('{"type": "roll", "id": "n", "request": ' + json.dumps(nested(NESTED)) + "}", "invalid"),
        (json.dumps({"type": "roll", "id": "p", "request": {**CHECK, "pool": nested(NESTED)}}), None),
        (json.dumps({"type": "token.teleport", "id": "u", "token": 1}), "unknown_intent"),
        (json.dumps({"type": "chat", "id": "b", "text": "hi", "html": "<b>"}), "unknown_field"),
        (json.dumps({"type": "chat", "id": "l", "text": "x" * 20_000}), "too_large"),
        (json.dumps({"type": "token.move", "id": "t", "token": "1", "x": 0, "y": 0}), "invalid"),
        (json.dumps({"type": "ping", "id": {"nested": True}}), "invalid"),
    ]  # fmt: skip
    for text, code in hostile:
        await player.ws.send_to(text_data=text)
        reply = await player.until(lambda f: f["type"] == "error")
        assert code is None or reply["code"] == code, (text[:60], reply)
        assert reply["message"]
    await player.send({"type": "ping", "id": "alive"})
    assert (await player.until(lambda f: f["type"] == "pong"))["id"] == "alive"
    # Nothing reached the log.
    assert (
        await database_sync_to_async(
            lambda: RoomEvent.objects.filter(campaign_id=room.campaign_id, seq__gt=seq).count()
        )()
        == 0
    )
