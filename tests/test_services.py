"""Behaviour that only the real services have: messages crossing between two
workers through Redis, and PostgreSQL's row locks under concurrency. These
skip without the services, and fail instead when REQUIRE_SERVICES=1."""

import asyncio
import threading
import uuid

import pytest
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction
from redis import asyncio as aioredis

pytestmark = pytest.mark.services

LAYERS = {"pubsub": RedisPubSubChannelLayer, "core": RedisChannelLayer}
RECEIVE_TIMEOUT = 5


async def until_subscribed(redis_url, prefix, count):
    """Pub/sub SUBSCRIBE is not acknowledged to the caller: wait until Redis
    lists the subscriptions, or a publish might go out before them."""
    client = aioredis.from_url(redis_url)
    try:
        for _ in range(500):
            if len(await client.pubsub_channels(f"{prefix}*")) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"Redis never listed {count} subscriptions under {prefix}")
    finally:
        await client.aclose()


@pytest.mark.parametrize("kind", LAYERS)
async def test_group_broadcast_crosses_between_two_workers(redis_url, kind):
    # Two layer objects stand for two daphne workers sharing one Redis; a
    # unique prefix keeps concurrent runs on the same Redis apart.
    prefix = f"vtt-test-{uuid.uuid4().hex[:8]}"
    sender, listener = (LAYERS[kind](hosts=[redis_url], prefix=prefix) for _ in range(2))
    group = "room-1"
    try:
        seat_a = await listener.new_channel()
        seat_b = await listener.new_channel()
        await listener.group_add(group, seat_a)
        await listener.group_add(group, seat_b)
        if kind == "pubsub":
            await until_subscribed(redis_url, prefix, 3)  # two seats and the group

        event = {"type": "room.event", "seq": 7, "text": "Tenrec rolls 3 successes"}
        await sender.group_send(group, event)
        for seat in (seat_a, seat_b):
            assert await asyncio.wait_for(listener.receive(seat), RECEIVE_TIMEOUT) == event

        await listener.group_discard(group, seat_b)
        await sender.group_send(group, {"type": "room.event", "seq": 8})
        got = await asyncio.wait_for(listener.receive(seat_a), RECEIVE_TIMEOUT)
        assert got["seq"] == 8
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(listener.receive(seat_b), 0.3)
    finally:
        await sender.flush()
        await listener.flush()


async def test_two_sites_on_one_redis_never_hear_each_others_rooms(redis_url):
    # Two sites with their own databases (one on PostgreSQL, one an SQLite
    # file whose long path would not do as a channel name), and a different
    # Redis database number each, which pub/sub ignores: one room group.
    from vtt.settings import redis_channel_layer

    run = uuid.uuid4().hex[:8]
    sqlite_path = f"/srv/tables/{'the-keep-of-the-mad-mage/' * 4}{run}/db.sqlite3"
    configs = [
        redis_channel_layer(f"{redis_url.rsplit('/', 1)[0]}/{number}", name)["CONFIG"]
        for number, name in ((0, f"tomb_{run}"), (1, sqlite_path))
    ]
    tomb_worker, tomb_other_worker = (RedisPubSubChannelLayer(**configs[0]) for _ in range(2))
    keep = RedisPubSubChannelLayer(**configs[1])
    try:
        tomb_seat, keep_seat = await tomb_other_worker.new_channel(), await keep.new_channel()
        await tomb_other_worker.group_add("vtt-room.1", tomb_seat)
        await keep.group_add("vtt-room.1", keep_seat)
        for config in configs:
            await until_subscribed(redis_url, config["prefix"], 2)

        event = {"type": "room.event", "room": 1, "seq": 1}
        await tomb_worker.group_send("vtt-room.1", event)
        assert (
            await asyncio.wait_for(tomb_other_worker.receive(tomb_seat), RECEIVE_TIMEOUT) == event
        )
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(keep.receive(keep_seat), 0.3)
    finally:
        for layer in (tomb_worker, tomb_other_worker, keep):
            await layer.flush()


@pytest.mark.parametrize("kind", LAYERS)
async def test_direct_send_reaches_a_channel_on_another_worker(redis_url, kind):
    prefix = f"vtt-test-{uuid.uuid4().hex[:8]}"
    sender, listener = (LAYERS[kind](hosts=[redis_url], prefix=prefix) for _ in range(2))
    try:
        channel = await listener.new_channel()
        if kind == "pubsub":
            await until_subscribed(redis_url, prefix, 1)
        await sender.send(channel, {"type": "token.moved", "token": 12, "to": [7, 4]})
        got = await asyncio.wait_for(listener.receive(channel), RECEIVE_TIMEOUT)
        assert got == {"type": "token.moved", "token": 12, "to": [7, 4]}
    finally:
        await sender.flush()
        await listener.flush()


class LockHolder(threading.Thread):
    """Holds FOR UPDATE locks on some users' rows, on its own connection,
    until told to let go."""

    def __init__(self, pks):
        super().__init__(daemon=True)
        self.pks = pks
        self.locked = threading.Event()
        self.release = threading.Event()
        self.error = None

    def run(self):
        try:
            with transaction.atomic():
                list(User.objects.select_for_update().filter(pk__in=self.pks))
                self.locked.set()
                self.release.wait(10)
        except BaseException as exc:  # reported to the test thread
            self.error = exc
            self.locked.set()
        finally:
            connection.close()

    def __enter__(self):
        self.start()
        assert self.locked.wait(10), "the lock holder never took its locks"
        assert self.error is None, self.error
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.join(10)


@pytest.mark.django_db(transaction=True)
def test_nowait_refuses_a_row_locked_by_another_connection(postgres):
    gm = User.objects.create(username="gm")
    with LockHolder([gm.pk]):
        with pytest.raises(DatabaseError, match="could not obtain lock"):
            with transaction.atomic():
                User.objects.select_for_update(nowait=True).get(pk=gm.pk)
    # Once the other transaction ends, the same request succeeds.
    with transaction.atomic():
        assert User.objects.select_for_update(nowait=True).get(pk=gm.pk) == gm


@pytest.mark.django_db(transaction=True)
def test_skip_locked_passes_over_rows_locked_by_another_connection(postgres):
    users = [User.objects.create(username=f"player{i}") for i in range(4)]
    locked = {users[0].pk, users[2].pk}
    with LockHolder(sorted(locked)):
        with transaction.atomic():
            free = User.objects.select_for_update(skip_locked=True).order_by("pk")
            assert [u.pk for u in free] == [users[1].pk, users[3].pk]
    with transaction.atomic():
        assert User.objects.select_for_update(skip_locked=True).count() == 4
