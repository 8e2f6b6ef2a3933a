"""Play sessions in the live room (docs/dice.md, docs/protocol.md): the
GM's session.start and session.end, and the nonce a roll, a chat roll and
an attack carry into their dice. The room's fixture has session 1 open."""

import hashlib

import pytest
from channels.db import database_sync_to_async

from vtt.rules.session_dice import faces
from vtt.tabletop.models import PlaySession

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
NONCE = "00ff00ff00ff00ff00ff00ff00ff00ff"


@database_sync_to_async
def seed_of(campaign_id, number=1) -> bytes:
    return bytes(PlaySession.objects.get(campaign_id=campaign_id, number=number).seed)


async def test_the_gm_ends_and_starts_sessions_and_everyone_hears(room, clients):
    gm = await clients(room, "gm")
    observer = await clients(room, "observer")
    ended = await gm.ask({"type": "session.end", "id": "end"})
    assert ended["type"] == "ack" and ended["session"] == 1
    shown = await observer.event("session.ended")
    assert shown["data"]["seed"] == ended["seed"]
    seed = bytes.fromhex(ended["seed"])
    assert hashlib.sha256(seed).hexdigest() == shown["data"]["digest"]
    started = await gm.ask({"type": "session.start", "id": "start"})
    assert started["type"] == "ack" and started["session"] == 2
    assert (await observer.event("session.started"))["data"] == {
        "session": 2,
        "digest": started["digest"],
    }
    again = await gm.ask({"type": "session.start", "id": "again"})
    assert (again["type"], again["code"]) == ("error", "session_open")


@pytest.mark.parametrize("who", ["player", "observer"])
async def test_only_the_gm_starts_or_ends(room, clients, who):
    member = await clients(room, who)
    for kind in ("session.end", "session.start"):
        reply = await member.ask({"type": kind, "id": kind})
        assert (reply["type"], reply["code"]) == ("error", "forbidden")
    sessions = await database_sync_to_async(
        lambda: [
            (s.number, s.is_open) for s in PlaySession.objects.filter(campaign_id=room.campaign_id)
        ]
    )()
    assert sessions == [(1, True)]


async def test_a_rolls_nonce_goes_into_its_dice(room, clients):
    player = await clients(room, "player")
    reply = await player.ask({"type": "roll", "id": "r", "request": CHECK, "nonce": NONCE})
    assert reply["type"] == "ack"
    data = (await player.event("roll"))["data"]
    assert data["draw"] == {"session": 1, "roll": 1, "nonce": NONCE, "nonce_by": "roller"}
    thrown = [d["face"] for d in data["result"]["dice"]]
    assert thrown == faces(await seed_of(room.campaign_id), 1, 1, NONCE, len(thrown))


async def test_a_chat_roll_takes_the_lines_nonce(room, clients):
    player = await clients(room, "player")
    reply = await player.ask({"type": "chat", "id": "c", "text": "/r 3D diff 2", "nonce": NONCE})
    assert reply["type"] == "ack", reply
    data = (await player.event("roll"))["data"]
    assert data["draw"]["nonce"] == NONCE and data["draw"]["nonce_by"] == "roller"


@pytest.mark.parametrize("nonce", ["XYZ", "ab" * 7, 12])
async def test_a_bad_nonce_is_refused_by_name(room, clients, nonce):
    player = await clients(room, "player")
    reply = await player.ask({"type": "roll", "id": "r", "request": CHECK, "nonce": nonce})
    assert (reply["type"], reply["code"], reply["field"]) == ("error", "invalid", "nonce")
