"""The door through nginx (deploy/nginx.conf) to workers started as
docker-compose.yml starts them: a forged X-Forwarded-For does not get around
the log-in limit, through nginx or straight to a worker, and a stranger
cannot tell a missing room from a foreign one."""

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from .client import open_socket
from .conftest import TRUST_PROXY_VARIABLE

# Transactional: the workers must see what the test commits.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LOGIN_ATTEMPTS = 30
USERNAME, PASSWORD = "faults-door", "a-right-Horse-7"


def post_login(port: int, username: str, password: str, forwarded_for: str):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/auth/token/",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read() or b"null")


def error_code(body) -> str | None:
    return (body or {}).get("error", {}).get("code") if isinstance(body, dict) else None


def test_the_login_limit_holds_through_the_proxy(stack):
    """Each attempt forges another X-Forwarded-For; the workers trust one
    proxy (nginx), as docker-compose.yml has them, so the forgeries must not
    count as other clients."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    port = stack.nginx.port
    answers = []
    for n in range(LOGIN_ATTEMPTS):
        answers.append(post_login(port, USERNAME, "wrong", f"203.0.113.{n + 1}"))
        if answers[-1][0] == 429:
            break
    status, _, body = answers[0]
    assert (status, error_code(body)) == (400, "bad_credentials"), (
        f"a first wrong password should be refused with 400 bad_credentials, got {status} {body}"
    )
    statuses = [a[0] for a in answers]
    assert statuses[-1] == 429, (
        f"{LOGIN_ATTEMPTS} wrong passwords, each with a forged X-Forwarded-For, never met the "
        f"limit (workers started with {TRUST_PROXY_VARIABLE}); statuses: {statuses}"
    )
    _, headers, body = answers[-1]
    assert error_code(body) == "too_many_attempts" and headers.get("Retry-After"), (
        f"over the limit the answer should be too_many_attempts with Retry-After, "
        f"got {body} and Retry-After {headers.get('Retry-After')!r}"
    )
    status, _, body = post_login(port, USERNAME, PASSWORD, "198.51.100.77")
    assert status == 429, (
        f"the right password right after the limit should be refused with 429 too, "
        f"got {status} {body}"
    )


def test_a_worker_reached_directly_believes_no_forged_address(stack):
    """A worker as compose starts it (--proxy-headers and all) trusts the
    proxy's address alone: from anywhere else, here 127.0.0.1, each attempt's
    new X-Forwarded-For is the client's own word, and the attempts are
    counted by the address they really come from."""
    from django.contrib.auth import get_user_model

    from vtt.accounts.models import LoginFailure

    get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    port = stack.workers[0].port
    statuses = []
    for n in range(LOGIN_ATTEMPTS):
        statuses.append(post_login(port, USERNAME, "wrong", f"203.0.113.{n + 1}")[0])
        if statuses[-1] == 429:
            break
    addresses = set(LoginFailure.objects.values_list("address", flat=True))
    assert statuses[-1] == 429 and addresses == {"127.0.0.1"}, (
        f"{len(statuses)} wrong passwords straight to a worker, each with a forged "
        f"X-Forwarded-For, were counted as {sorted(addresses)[:5]} "
        f"({len(addresses)} addresses); statuses: {statuses}"
    )


async def close_code(port: int, campaign_id: int, cookie: str) -> int | None:
    ws = await open_socket(port, campaign_id, cookie)
    try:
        async with asyncio.timeout(10):
            async for _ in ws:
                pass
    except ConnectionClosed:
        pass
    finally:
        await ws.close()
    return ws.close_code


def test_a_stranger_is_closed_alike_at_a_missing_and_a_foreign_room(stack):
    """4403 for both, so a stranger cannot tell which campaigns exist."""
    from django.contrib.auth import get_user_model

    from tests.live.conftest import session_cookie
    from vtt.tabletop.services import campaign_create

    User = get_user_model()
    owner = User.objects.create_user("faults-owner")
    campaign = campaign_create(owner=owner, name="Closed", game="artifice")
    cookie = session_cookie(User.objects.create_user("faults-stranger"))
    port = stack.nginx.port
    foreign = asyncio.run(close_code(port, campaign.pk, cookie))
    missing = asyncio.run(close_code(port, campaign.pk + 10_000, cookie))
    assert (foreign, missing) == (4403, 4403), (
        f"a stranger should be closed with 4403 at a room they are not in ({foreign}) "
        f"and at one that does not exist ({missing})"
    )
