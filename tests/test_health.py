"""GET /healthz: 200 when the database and the channel layer both answer and
the live rooms admit sockets, 503 naming whichever did not."""

import json
import os
import textwrap
import time

import pytest
from channels.layers import get_channel_layer

from tests import served
from vtt import health

NOBODY_LISTENS = "127.0.0.1:1"


def pubsub_layer(url):
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url]},
        }
    }


def core_layer(url):
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": "healthz-test"},
        }
    }


@pytest.mark.django_db
def test_healthy_service_answers_200(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok", "live_rooms": "ok"},
        "failed": [],
    }
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_a_socket_waiting_past_the_stall_bound_answers_503_naming_the_live_rooms(client, settings):
    """A process whose joining sockets get no snapshot cannot admit: the
    proxy and the container healthcheck must hear it, though the database
    and Redis answer."""
    from vtt.live import admission

    settings.LIVE_ADMISSION_STALL_SECONDS = 1
    admission.waiting("a-socket-that-waits")
    try:
        assert client.get("/healthz").status_code == 200  # waiting, not yet stalled
        time.sleep(1.2)
        response = client.get("/healthz")
    finally:
        admission.admitted("a-socket-that-waits")
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["live_rooms"]
    assert "waited" in body["checks"]["live_rooms"]
    assert client.get("/healthz").status_code == 200  # admitted: healthy again


@pytest.mark.django_db
def test_unreachable_channel_layer_answers_503_naming_it(client, settings):
    settings.CHANNEL_LAYERS = pubsub_layer(f"redis://{NOBODY_LISTENS}/0")
    settings.HEALTHZ_TIMEOUT = 1.0
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["failed"] == ["channel_layer"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"].startswith("error: ")


@pytest.mark.django_db
def test_missing_channel_layer_answers_503(client, settings):
    settings.CHANNEL_LAYERS = {}
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["channel_layer"]
    assert "no channel layer" in response.json()["checks"]["channel_layer"]


def healthz_in_a_process(**env):
    """Ask /healthz from a fresh process, so a broken database breaks only there."""
    script = textwrap.dedent(
        """
        import asyncio, json, os, django
        django.setup()
        from django.test import AsyncClient

        async def ask():
            # Asked as daphne asks it, on an event loop that goes on: a
            # database that never answers holds a thread for the pool's own
            # timeout, which a loop closing (or the sync client's) waits for.
            response = await AsyncClient().get("/healthz")
            print(json.dumps({"status": response.status_code, "body": response.json()}))
            os._exit(0)

        asyncio.run(ask())
        """
    )
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    result = served.python(
        "-c", script, env={**clean, "DJANGO_SETTINGS_MODULE": "vtt.settings", **env}
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("database_url", "error"),
    [
        # The pool waits for a connection that never comes; the probe does not.
        (f"postgres://nobody@{NOBODY_LISTENS}/nothing", "error: no answer within 2 s"),
        ("sqlite:////nonexistent-dir/db.sqlite3", "error: OperationalError"),
    ],
    ids=["postgresql-not-listening", "sqlite-unopenable"],
)
def test_unreachable_database_answers_503_naming_it(database_url, error):
    answer = healthz_in_a_process(DATABASE_URL=database_url)
    assert answer["status"] == 503
    assert answer["body"]["failed"] == ["database"]
    assert answer["body"]["checks"]["channel_layer"] == "ok"
    assert answer["body"]["checks"]["database"].startswith(error)


@pytest.mark.django_db
@pytest.mark.parametrize("layer", [pubsub_layer, core_layer], ids=["pubsub", "core"])
def test_healthy_with_the_redis_channel_layers(client, settings, redis_url, layer):
    settings.CHANNEL_LAYERS = layer(redis_url)
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()


async def test_probe_leaves_no_channel_behind_in_memory(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    for _ in range(3):
        await health._channel_layer_round_trip()
    assert get_channel_layer().channels == {}


async def test_probes_keep_one_subscription_in_redis_pubsub(settings, redis_url):
    """However many probes, one subscription, the probes' own; a probe cut
    short leaves its channel to be replaced, not piled up."""
    settings.CHANNEL_LAYERS = pubsub_layer(redis_url)
    layer = get_channel_layer()
    loop_layer = layer._get_layer()

    def subscriptions():
        return [name for shard in loop_layer._shards for name in shard._subscribed_to]

    try:
        for _ in range(3):
            await health._channel_layer_round_trip()
        first = health._probe[2]
        assert list(loop_layer.channels) == [first] and subscriptions() == [first]
        # Redis forgets the subscription: the ping reaches nobody, the
        # probe times out, its channel goes and the next probe makes one.
        await loop_layer._shards[0]._pubsub.unsubscribe(first)
        said = await health._check(health._channel_layer_round_trip, 0.3)
        assert said == "error: no answer within 0.3 s"
        assert health._probe is None and subscriptions() == []
        for _ in range(3):
            await health._channel_layer_round_trip()
        assert list(loop_layer.channels) == [health._probe[2]] != [first]
        assert subscriptions() == [health._probe[2]]
    finally:
        await layer.flush()


@pytest.mark.django_db
async def test_the_first_probe_after_a_redis_restart_answers_ok(settings, own_redis):
    """The layer's pooled connections all died with Redis: the probe tries
    again on a fresh one instead of reporting the channel layer down."""
    settings.CHANNEL_LAYERS = pubsub_layer(own_redis.url)
    assert await health._check(health._channel_layer_check, 2.0) == "ok"
    own_redis.kill()
    assert (await health._check(health._channel_layer_check, 2.0)).startswith("error")
    own_redis.start()
    assert await health._check(health._channel_layer_check, 2.0) == "ok"
