"""GET /healthz: a round trip to the database and to the channel layer,
and whether this process still admits sockets to the live rooms (none has
waited for its snapshot past LIVE_ADMISSION_STALL_SECONDS).

200 when all hold, 503 naming what failed. The proxy and the container
healthchecks poll it, so probes must not pile anything up: they share one
channel a process keeps for them."""

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse

from vtt.live import admission

DEFAULT_TIMEOUT = 2.0


def _database_round_trip():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone()[0] != 1:
                raise RuntimeError("the database answered SELECT 1 with something else")
    finally:
        # Give the connection back (to the pool) now, not when the request
        # ends: a probe then holds one only for its SELECT, also while the
        # channel layer's check waits out a Redis that is away.
        if not connection.in_atomic_block:
            connection.close()


# The probes' channel, kept subscribed while the process lives, one for
# each layer and event loop: (layer, loop, channel). The Redis pub/sub layer
# looks for messages only every 100 ms while a process is subscribed to
# nothing, so a channel made and dropped for each probe made an idle
# worker's probe take those 100 ms, and a flood of probes queue on them.
_probe: tuple | None = None


async def _probe_channel(layer) -> str:
    global _probe
    loop = asyncio.get_running_loop()
    if _probe is None or _probe[0] is not layer or _probe[1] is not loop:
        _probe = (layer, loop, await layer.new_channel("healthz."))
    return _probe[2]


async def _channel_layer_round_trip():
    global _probe
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await _probe_channel(layer)
    ping = {"type": "healthz.ping", "probe": uuid.uuid4().hex}
    try:
        await layer.send(channel, ping)
        message = await layer.receive(channel)
    except BaseException:
        # A receive cut short (the timeout, a Redis away) unsubscribes the
        # channel; the next probe makes another rather than send to nobody.
        _probe = None
        raise
    if message != ping:
        raise RuntimeError("the channel layer returned another message")


async def _channel_layer_check():
    """The round trip, twice if it must: a Redis that restarted leaves dead
    connections in the layer's pool, the first use of one fails and drops
    it, and only a second failure says the server itself is away."""
    try:
        await _channel_layer_round_trip()
    except Exception:
        await _channel_layer_round_trip()


_layer_probe: asyncio.Task | None = None


async def _shared_channel_layer_check(timeout: float):
    """Probes that come while one is under way share its answer, so a flood
    of /healthz costs the channel layer one round trip at a time. The shared
    round trip has its own deadline: a Redis that went away never leaves a
    probe behind for later ones to wait on."""
    global _layer_probe
    loop = asyncio.get_running_loop()
    probe = _layer_probe
    if probe is None or probe.done() or probe.get_loop() is not loop:
        probe = _layer_probe = loop.create_task(asyncio.wait_for(_channel_layer_check(), timeout))
    # One caller's own deadline must not cancel the others' round trip.
    await asyncio.shield(probe)


async def _check(probe, timeout: float) -> str:
    try:
        await asyncio.wait_for(probe(), timeout)
    except TimeoutError:
        return f"error: no answer within {timeout:g} s"
    except Exception as exc:  # a health check reports every failure, whatever it is
        return f"error: {type(exc).__name__}: {exc}"[:200]
    return "ok"


async def healthz(request):
    timeout = getattr(settings, "HEALTHZ_TIMEOUT", DEFAULT_TIMEOUT)
    # On a thread of its own: a database that never answers holds its thread
    # for the pool's own timeout, and the request's sync middleware, on the
    # shared thread, would wait for it before the 503 could leave.
    database = await _check(sync_to_async(_database_round_trip, thread_sensitive=False), timeout)
    channel_layer = await _check(lambda: _shared_channel_layer_check(timeout), timeout)
    stalled = admission.stalled()
    admitting = "ok" if stalled is None else f"error: {stalled}"
    checks = {"database": database, "channel_layer": channel_layer, "live_rooms": admitting}
    failed = [name for name, state in checks.items() if state != "ok"]
    body = {"status": "ok" if not failed else "unavailable", "checks": checks, "failed": failed}
    response = JsonResponse(body, status=503 if failed else 200)
    response["Cache-Control"] = "no-store"
    return response
