"""Moves of one token are serialised: whatever the interleaving, the stored
token equals the last event and versions rise strictly."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection

from vtt.tabletop.models import Token
from vtt.tabletop.serialize import MOVED_FIELDS, token_data
from vtt.tabletop.services import StaleVersion, token_move

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 20


async def collect_moves(client, count):
    return [await client.event("token.moved", timeout=10) for _ in range(count)]


def assert_serialised(events, stored):
    versions = [e["data"]["token"]["version"] for e in events]
    assert versions == sorted(set(versions)), versions
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(set(seqs))
    for before, after in zip(events, events[1:], strict=False):
        # Each move starts where the one before it ended.
        token = before["data"]["token"]
        assert after["data"]["from"] == [token["x"], token["y"]]
    assert events[-1]["data"]["token"] == moved(stored)


def moved(token: dict) -> dict:
    """What a token.moved carries of the token: where it went."""
    return {key: token[key] for key in MOVED_FIELDS}


async def test_twenty_moves_from_two_sockets_at_once(room, clients):
    watcher = await clients(room, "observer")
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    sends = []
    for i in range(MOVES):
        client = gm if i % 2 else player
        sends.append(
            client.send(
                {"type": "token.move", "id": i, "token": tenrec, "x": i % 19, "y": 1 + i % 7}
            )
        )
    await asyncio.gather(*sends)
    replies = [await gm.reply(i) for i in range(1, MOVES, 2)] + [
        await player.reply(i) for i in range(0, MOVES, 2)
    ]
    moved = [r for r in replies if r["type"] == "ack"]
    assert all(r["type"] == "ack" or r["code"] == "stale_version" for r in replies)
    events = await collect_moves(watcher, len({(r["token"]["version"]) for r in moved}))
    stored = await database_sync_to_async(lambda: token_data(Token.objects.get(pk=tenrec)))()
    assert_serialised(events, stored)


async def test_version_checked_moves_race_and_losers_learn_the_current_state(room, clients):
    watcher = await clients(room, "observer")
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    # Both believe the token is at version 1: exactly one wins each round.
    await asyncio.gather(
        gm.send({"type": "token.move", "id": "g", "token": tenrec, "x": 5, "y": 5, "version": 1}),
        player.send(
            {"type": "token.move", "id": "p", "token": tenrec, "x": 6, "y": 6, "version": 1}
        ),
    )
    replies = [await gm.reply("g"), await player.reply("p")]
    assert sorted(r["type"] for r in replies) == ["ack", "error"]
    won = next(r for r in replies if r["type"] == "ack")
    lost = next(r for r in replies if r["type"] == "error")
    assert lost["code"] == "stale_version" and lost["token"] == won["token"]
    event = await watcher.event("token.moved")
    assert event["data"]["token"] == moved(won["token"])


def test_twenty_threads_moving_one_token_on_postgresql(postgres, room):
    """Real concurrency: twenty database connections at once (PostgreSQL row locks)."""
    User = get_user_model()
    gm = User.objects.get(pk=room.users["gm"])
    tenrec = room.tokens["tenrec"]
    start = threading.Barrier(MOVES)
    outcomes = []

    def mover(i):
        try:
            start.wait()
            outcomes.append(token_move(token_id=tenrec, by=gm, x=i % 19, y=2 + i % 5, version=None))
        except StaleVersion as stale:
            outcomes.append(stale)
        finally:
            connection.close()

    threads = [threading.Thread(target=mover, args=(i,)) for i in range(MOVES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    from vtt.tabletop.models import RoomEvent

    events = [
        {"seq": e.seq, "data": e.data}
        for e in RoomEvent.objects.filter(
            campaign_id=room.campaign_id, kind="token.moved"
        ).order_by("seq")
    ]
    assert len(events) >= 1
    assert_serialised(events, token_data(Token.objects.get(pk=tenrec)))
