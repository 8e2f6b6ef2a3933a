"""Admitting sockets under abuse and after faults, through nginx
(deploy/nginx.conf) to workers started as docker-compose.yml starts them:
a frame too large is refused with 1009 and a reason; the first socket to an
idle worker after Redis restarted gets its snapshot or a close it retries,
never an open, silent socket; and a room's reconnect churn leaves the worker
admitting sockets to other rooms, with /healthz saying when it cannot."""

import asyncio
import json
import time

import pytest
from websockets.exceptions import ConnectionClosed

from .client import open_socket, worker_port

# Transactional: the workers must see what the test commits.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

MIB = 1024 * 1024
RETRYABLE = {1011, 1012, 1013}  # the server asks the client to come back


def a_room(prefix: str, players: int = 1):
    """A campaign with a GM and `players` players: (campaign id, cookies by name)."""
    from django.contrib.auth import get_user_model

    from tests.live.conftest import session_cookie
    from vtt.tabletop.models import Membership, Role
    from vtt.tabletop.services import campaign_create, scene_activate, scene_create

    User = get_user_model()
    gm = User.objects.create_user(f"{prefix}-gm")
    campaign = campaign_create(owner=gm, name=prefix, game="artifice")
    scene = scene_create(campaign_id=campaign.pk, by=gm, name="Hall", width=20, height=20)
    scene_activate(scene_id=scene.pk, by=gm)
    cookies = {"gm": session_cookie(gm)}
    for n in range(1, players + 1):
        player = User.objects.create_user(f"{prefix}-player{n}")
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
        cookies[f"player{n}"] = session_cookie(player)
    return campaign.pk, cookies


async def first_frame(port: int, campaign_id: int, cookie: str, bound: float, **kwargs):
    """('snapshot', seconds) or ('closed', code) or ('silent', None) after `bound`."""
    started = time.monotonic()
    ws = await open_socket(port, campaign_id, cookie, "?v=3", **kwargs)
    try:
        async with asyncio.timeout(bound):
            async for text in ws:
                if json.loads(text).get("type") == "snapshot":
                    return "snapshot", time.monotonic() - started
    except TimeoutError:
        return "silent", None
    except ConnectionClosed:
        pass
    finally:
        await ws.close()
    return "closed", ws.close_code


# ------------------------------------------------------------ frames too large


@pytest.mark.parametrize("size", [MIB, 2 * MIB])
def test_a_frame_of_a_mebibyte_or_more_is_closed_with_1009_and_a_reason(stack, size):
    campaign_id, cookies = a_room(f"big-frame-{size}")

    async def send_big():
        ws = await open_socket(stack.nginx.port, campaign_id, cookies["gm"], "?v=3")
        try:
            async with asyncio.timeout(10):
                async for text in ws:
                    if json.loads(text).get("type") == "snapshot":
                        break
                await ws.send("x" * size)
                async for _ in ws:
                    pass
        except ConnectionClosed:
            pass
        finally:
            await ws.close()
        return ws.close_code, ws.close_reason

    code, reason = asyncio.run(send_big())
    assert code == 1009 and reason, (
        f"a {size}-byte frame should close the socket with 1009 and a reason, "
        f"got code {code} and reason {reason!r}"
    )


# ------------------------------------------------------------ Redis restarted


def idle_worker(stack) -> int:
    """A worker's port with no room open: every test closes its sockets,
    and a worker's hub lets the channel layer go with its last room."""
    return stack.workers[1].port


@pytest.mark.parametrize("trial", range(4))
def test_the_first_socket_to_an_idle_worker_after_a_redis_restart_is_not_left_silent(
    stack, trial
):
    """The report had it 7 times in 13: accepted, then nothing at all. Each
    trial restarts Redis while the worker holds no room, then opens one
    socket: it gets its snapshot, or a close the client retries at once,
    and then a snapshot on the next try."""
    campaign_id, cookies = a_room(f"after-redis-{trial}")
    port = idle_worker(stack)
    # The worker touches Redis once first, so its pool holds connections
    # that the restart kills.
    assert asyncio.run(first_frame(port, campaign_id, cookies["gm"], 10))[0] == "snapshot"
    time.sleep(0.5)
    stack.redis.kill()
    time.sleep(0.3)
    stack.redis.start()

    async def after_restart():
        outcomes = [await first_frame(port, campaign_id, cookies["player1"], 10)]
        if outcomes[0][0] == "closed" and outcomes[0][1] in RETRYABLE:
            outcomes.append(await first_frame(port, campaign_id, cookies["player1"], 10))
        return outcomes

    outcomes = asyncio.run(after_restart())
    assert outcomes[-1][0] == "snapshot", (
        f"after a Redis restart the first socket should get its snapshot or a retryable "
        f"close and then its snapshot; got {outcomes}"
    )
