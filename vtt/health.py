"""GET /healthz: a round trip to the database and to the channel layer."""

import asyncio

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse

TIMEOUT = 2.0


def _database_round_trip():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _channel_layer_round_trip():
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")


async def _check(probe) -> str:
    try:
        await asyncio.wait_for(probe(), TIMEOUT)
    except Exception as exc:  # a health check reports every failure, whatever it is
        return f"error: {type(exc).__name__}: {exc}"[:200]
    return "ok"


async def healthz(request):
    database = await _check(sync_to_async(_database_round_trip, thread_sensitive=True))
    channel_layer = await _check(_channel_layer_round_trip)
    checks = {"database": database, "channel_layer": channel_layer}
    failed = [name for name, state in checks.items() if state != "ok"]
    body = {"status": "ok" if not failed else "unavailable", "checks": checks, "failed": failed}
    return JsonResponse(body, status=503 if failed else 200)
