"""Presence counts a member once however many sockets they hold, in one
process (in memory) and across processes (Redis)."""

import asyncio
import uuid

from vtt.live.presence import LocalPresence, RedisPresence

ANNA = {"id": 1, "name": "anna"}
BEN = {"id": 2, "name": "ben"}


async def exercise(store):
    room = 77
    assert await store.join(room, ANNA, "tab1") is True
    assert await store.join(room, ANNA, "tab2") is False
    assert await store.join(room, BEN, "x") is True
    assert await store.online(room) == [ANNA, BEN]
    assert await store.leave(room, ANNA["id"], "tab1") is False
    assert await store.online(room) == [ANNA, BEN]
    assert await store.leave(room, ANNA["id"], "tab2") is True
    assert await store.leave(room, ANNA["id"], "tab2") is False  # twice is harmless
    assert await store.online(room) == [BEN]
    assert await store.leave(room, BEN["id"], "x") is True
    assert await store.online(room) == []


async def test_local_presence_counts_each_member_once():
    await exercise(LocalPresence())


async def test_redis_presence_counts_each_member_once(redis_url):
    store = RedisPresence(redis_url, prefix=f"test:{uuid.uuid4().hex}")
    try:
        await exercise(store)
    finally:
        await store.close()


async def test_redis_presence_forgets_a_dead_process_connections(redis_url):
    prefix = f"test:{uuid.uuid4().hex}"
    alive, dead = RedisPresence(redis_url, prefix), RedisPresence(redis_url, prefix)
    try:
        await dead.join(5, ANNA, "gone")
        await dead.join(5, BEN, "gone-too")
        await alive.join(5, BEN, "here")  # Ben is also online through a live process
        assert [u["id"] for u in await alive.online(5)] == [1, 2]
        # The dead process stopped refreshing: its entries' time has run out.
        expiry_key = alive._keys(5)[1]
        await alive._redis.zadd(expiry_key, {"1:gone": 0, "2:gone-too": 0})
        await alive.refresh(5, [(BEN["id"], "here", BEN["name"])])
        assert await alive.prune(5) == [ANNA]
        assert await alive.online(5) == [BEN]
        assert await alive.prune(5) == []
    finally:
        await alive.close()
        await dead.close()


async def test_redis_presence_after_a_restart_connects_and_rebuilds(own_redis):
    """Redis restarted empty: every pooled connection is dead, and every
    count is gone. Joins succeed at once, and the live connections a
    process refreshes are counted (and reported) online again."""
    store = RedisPresence(own_redis.url, prefix="restart")
    try:
        for i in range(1, 11):
            await store.join(5, {"id": i, "name": f"u{i}"}, f"c{i}")
        own_redis.kill()
        own_redis.start()
        joins = [store.join(5, {"id": i, "name": f"u{i}"}, f"d{i}") for i in range(11, 31)]
        assert await asyncio.gather(*joins) == [True] * 20
        before = [(i, f"c{i}", f"u{i}") for i in range(1, 11)]
        back = await store.refresh(5, before)
        assert sorted(u["id"] for u in back) == list(range(1, 11))
        assert [u["id"] for u in await store.online(5)] == list(range(1, 31))
        assert await store.refresh(5, before) == []  # counted once
        assert await store.leave(5, 3, "c3") is True
    finally:
        await store.close()
