"""Who is online in each room. Ephemeral: not in the event log.

Spectators (vtt.live.spectating) are counted apart, by connection, and
never named: a room's count goes to its sockets whenever it changes.

A member counts once however many sockets they hold: `join` says whether
this was their first connection in the room, `leave` whether it was their
last, and only those two moments are announced to the room.

With REDIS_URL the counts live in Redis, shared by every server process:
per room, a hash of connection counts per user and a sorted set of
connections scored by when they expire. Each process refreshes its own
connections' expiry while they live, and puts back any that are missing
(Redis restarted empty, or a stalled process was pruned); the hub then
sends its sockets the room's whole list. A process that dies without saying goodbye leaves
connections that expire, and whichever process next prunes the room
announces those members as gone. Without Redis the counts are this
process's own.

A Redis that went away and came back leaves dead connections in the
client's pool; every call here is retried on a fresh one (each script is
safe to repeat), so the first connects after a restart do not fail."""

import asyncio
import collections
import logging
import time
import weakref

from django.conf import settings

TTL = 45.0  # seconds a connection stays counted without a refresh
RETRY_DELAYS = (0.05, 0.25, 1.0)  # after a lost Redis connection: then give up

logger = logging.getLogger(__name__)


class LocalPresence:
    """Counts for one process (the in-memory channel layer serves one too)."""

    def __init__(self):
        self._counts: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
        self._names: dict[int, str] = {}
        self._watchers: dict[int, set[str]] = collections.defaultdict(set)

    async def join(self, room: int, user: dict, conn_id: str) -> bool:
        self._names[user["id"]] = user["name"]
        counts = self._counts[room]
        counts[user["id"]] += 1
        return counts[user["id"]] == 1

    async def leave(self, room: int, user_id: int, conn_id: str) -> bool:
        counts = self._counts.get(room)
        if not counts or counts[user_id] <= 0:
            return False
        counts[user_id] -= 1
        if counts[user_id] == 0:
            del counts[user_id]
            if not counts:
                del self._counts[room]
            return True
        return False

    async def online(self, room: int) -> list[dict]:
        users = sorted(self._counts.get(room, {}))
        return [{"id": uid, "name": self._names.get(uid, "")} for uid in users]

    async def refresh(self, room: int, members: list[tuple[int, str, str]]) -> list[dict]:
        return []

    async def prune(self, room: int) -> list[dict]:
        return []

    async def watcher_join(self, room: int, conn_id: str) -> int:
        self._watchers[room].add(conn_id)
        return len(self._watchers[room])

    async def watcher_leave(self, room: int, conn_id: str) -> int:
        watching = self._watchers.get(room, set())
        watching.discard(conn_id)
        if not watching:
            self._watchers.pop(room, None)
        return len(watching)

    async def watchers(self, room: int) -> int:
        return len(self._watchers.get(room, ()))

    async def refresh_watchers(self, room: int, conn_ids: list[str]) -> None:
        return None


# KEYS: counts hash, expiry zset, names hash. ARGV: user id, member, name, expiry.
# Returns the user's count, or 0 when the connection was counted already (a
# repeat after a lost reply), so a repeat never counts a connection twice.
_JOIN = """
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
if redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2]) == 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
"""
# ARGV: expiry, then user id, member, name for each live connection of one
# process. Returns the ids of users one of whose connections was missing.
_REFRESH = """
local back = {}
for i = 2, #ARGV, 3 do
  local user, member = ARGV[i], ARGV[i + 1]
  redis.call('HSET', KEYS[3], user, ARGV[i + 2])
  if redis.call('ZADD', KEYS[2], ARGV[1], member) == 1 then
    redis.call('HINCRBY', KEYS[1], user, 1)
    table.insert(back, user)
  end
end
return back
"""
# ARGV: user id, member. Returns the user's remaining count, -1 if unknown.
_LEAVE = """
if redis.call('ZREM', KEYS[2], ARGV[2]) == 0 then return -1 end
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
"""
# ARGV: now. Returns the ids of users whose last connection expired.
_PRUNE = """
local gone = {}
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, member in ipairs(stale) do
  redis.call('ZREM', KEYS[2], member)
  local user = string.match(member, '^(%d+):')
  local left = redis.call('HINCRBY', KEYS[1], user, -1)
  if left <= 0 then
    redis.call('HDEL', KEYS[1], user)
    table.insert(gone, user)
  end
end
return gone
"""


def key_prefix() -> str:
    """Presence keys are per database, so two sites (or a site and its test
    run) sharing one Redis never count each other's members."""
    from django.db import connection

    return f"vtt:presence:{connection.settings_dict['NAME']}"


class RedisPresence:
    def __init__(self, url: str, prefix: str):
        from redis import asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url, decode_responses=True)
        self._prefix = prefix
        self._join = self._redis.register_script(_JOIN)
        self._leave = self._redis.register_script(_LEAVE)
        self._prune = self._redis.register_script(_PRUNE)
        self._refresh = self._redis.register_script(_REFRESH)

    async def _call(self, command, *args, **kwargs):
        """One Redis call, again on a fresh connection if the one it had was
        dead (a restarted Redis closes every connection the pool holds)."""
        from redis.exceptions import ConnectionError, TimeoutError

        for delay in (*RETRY_DELAYS, None):
            try:
                return await command(*args, **kwargs)
            except (ConnectionError, TimeoutError, OSError):
                if delay is None:
                    raise
                logger.info("presence: Redis connection lost; trying again in %s s", delay)
                await asyncio.sleep(delay)

    def _keys(self, room: int) -> list[str]:
        base = f"{self._prefix}:{room}"
        return [f"{base}:counts", f"{base}:expiry", f"{base}:names"]

    def _watchers_key(self, room: int) -> str:
        return f"{self._prefix}:{room}:watchers"

    async def _expire(self, keys):
        # The keys vanish a while after the room empties, whatever happens.
        async def expire_all():
            pipe = self._redis.pipeline(transaction=False)
            for key in keys:
                pipe.expire(key, int(TTL * 4))
            await pipe.execute()

        await self._call(expire_all)

    async def join(self, room: int, user: dict, conn_id: str) -> bool:
        keys = self._keys(room)
        member = f"{user['id']}:{conn_id}"
        count = await self._call(
            self._join, keys=keys, args=[user["id"], member, user["name"], time.time() + TTL]
        )
        await self._expire(keys)
        return int(count) == 1

    async def leave(self, room: int, user_id: int, conn_id: str) -> bool:
        left = await self._call(
            self._leave, keys=self._keys(room), args=[user_id, f"{user_id}:{conn_id}"]
        )
        return int(left) == 0

    async def online(self, room: int) -> list[dict]:
        counts_key, _, names_key = self._keys(room)
        users = sorted(int(uid) for uid in await self._call(self._redis.hkeys, counts_key))
        names = await self._call(self._redis.hmget, names_key, users) if users else []
        return [{"id": uid, "name": name or ""} for uid, name in zip(users, names, strict=True)]

    async def refresh(self, room: int, members: list[tuple[int, str, str]]) -> list[dict]:
        """Keep this process's live connections counted, putting back any
        that Redis lost; returns the members one of whose connections it
        had lost (so the room's list may be wrong: see the hub)."""
        if not members:
            return []
        keys = self._keys(room)
        args = [time.time() + TTL]
        for user_id, conn_id, name in members:
            args += [user_id, f"{user_id}:{conn_id}", name]
        back = await self._call(self._refresh, keys=keys, args=args)
        await self._expire(keys)
        names = {user_id: name for user_id, _, name in members}
        return [{"id": u, "name": names[u]} for u in sorted({int(u) for u in back})]

    async def prune(self, room: int) -> list[dict]:
        keys = self._keys(room)
        gone = await self._call(self._prune, keys=keys, args=[time.time()])
        if not gone:
            return []
        names = await self._call(self._redis.hmget, keys[2], gone)
        return [{"id": int(u), "name": n or ""} for u, n in zip(gone, names, strict=True)]

    # Spectators are counted, never named: one sorted set of their
    # connections per room, scored by when each expires unless refreshed.

    async def watcher_join(self, room: int, conn_id: str) -> int:
        key = self._watchers_key(room)
        await self._call(self._redis.zadd, key, {conn_id: time.time() + TTL})
        await self._call(self._redis.expire, key, int(TTL * 4))
        return await self.watchers(room)

    async def watcher_leave(self, room: int, conn_id: str) -> int:
        await self._call(self._redis.zrem, self._watchers_key(room), conn_id)
        return await self.watchers(room)

    async def watchers(self, room: int) -> int:
        """The room's spectators, those whose process stopped refreshing
        them dropped first: one round trip."""
        key = self._watchers_key(room)

        async def count():
            pipe = self._redis.pipeline(transaction=True)
            pipe.zremrangebyscore(key, "-inf", time.time())
            pipe.zcard(key)
            return (await pipe.execute())[1]

        return int(await self._call(count))

    async def refresh_watchers(self, room: int, conn_ids: list[str]) -> None:
        if not conn_ids:
            return
        key = self._watchers_key(room)
        expiry = time.time() + TTL
        await self._call(self._redis.zadd, key, dict.fromkeys(conn_ids, expiry))
        await self._call(self._redis.expire, key, int(TTL * 4))

    async def close(self):
        await self._redis.aclose()


_local = LocalPresence()
_per_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RedisPresence]" = (
    weakref.WeakKeyDictionary()
)


def get_presence():
    """The presence store for this process (a Redis client per event loop)."""
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return _local
    loop = asyncio.get_running_loop()
    store = _per_loop.get(loop)
    if store is None:
        store = _per_loop[loop] = RedisPresence(url, key_prefix())
    return store
