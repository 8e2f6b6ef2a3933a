"""The workers' database connections under a burst of requests through
nginx: each worker borrows from a bounded pool and gives every connection
back, so the connections PostgreSQL holds for the site stay under the
pools' bound while thousands of requests run, and none of them fails."""

import http.client
import json
import threading
import time

import psycopg
import pytest

from tests import served

from .conftest import WORKER_APPLICATION_NAME

# Transactional: the workers must see the GM and the token the test commits.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

THREADS = 8
REQUESTS_PER_THREAD = 300
SAMPLE_EVERY = 0.05  # seconds between two counts of the connections


def pool_bound(stack) -> int:
    """What PostgreSQL may hold for the two workers: each worker's pool."""
    from django.conf import settings

    per_worker = int(stack.workers[0].env.get("DB_POOL_SIZE") or settings.DB_POOL_SIZE)
    return per_worker * len(stack.workers)


class ConnectionCount:
    """Counts, on a connection of its own, the workers' connections to
    PostgreSQL (by the application name the stage gives them), every
    SAMPLE_EVERY seconds."""

    def __init__(self, database_url: str, name: str):
        self.url, self.name = database_url, name
        self.samples: list[int] = []

    def now(self, conn) -> int:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [self.name, WORKER_APPLICATION_NAME],
        ).fetchone()
        return row[0]

    def watch(self, done: threading.Event, over: threading.Event, bound: int) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not done.is_set():
                self.samples.append(self.now(conn))
                if self.samples[-1] > bound:
                    # Stop the burst at once: the server is shared.
                    over.set()
                time.sleep(SAMPLE_EVERY)

    def settled(self) -> int:
        with psycopg.connect(self.url, autocommit=True) as conn:
            return self.now(conn)


def burst(port: int, paths: list[tuple[str, dict]], stop: threading.Event) -> list:
    """GET each path in turn on one keep-alive connection to nginx; the
    answers as (path, status) or (path, the exception)."""
    answers = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for path, headers in paths:
            if stop.is_set():
                break
            try:
                conn.request("GET", path, headers={"Host": "localhost", **headers})
                response = conn.getresponse()
                body = response.read()
                answers.append((path, response.status, body))
            except (OSError, http.client.HTTPException) as error:
                answers.append((path, None, repr(error)))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    finally:
        conn.close()
    return answers


def test_the_workers_connections_stay_within_their_pools(stack):
    """Six threads poll /healthz and two read a GM's campaigns with a token,
    2,400 requests in all, as a busy evening's health probes and pages do."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from vtt.tabletop.services import campaign_create

    gm = get_user_model().objects.create_user("faults-pool-gm")
    campaign_create(owner=gm, name="Many requests", game="artifice")
    token = Token.objects.create(user=gm).key
    name = settings.DATABASES["default"]["NAME"]
    count = ConnectionCount(served.database_url(connection.settings_dict), name)
    bound = pool_bound(stack)

    health = [("/healthz", {})] * REQUESTS_PER_THREAD
    reads = [("/api/campaigns/", {"Authorization": f"Token {token}"})] * REQUESTS_PER_THREAD
    plans = [health] * (THREADS - 2) + [reads] * 2
    done, over = threading.Event(), threading.Event()
    results: list[list] = [[] for _ in plans]

    def run(n: int) -> None:
        results[n] = burst(stack.nginx.port, plans[n], over)

    watcher = threading.Thread(target=count.watch, args=(done, over, bound))
    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(plans))]
    watcher.start()
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    elapsed = time.monotonic() - started
    done.set()
    watcher.join(10)

    answers = [answer for result in results for answer in result]
    failed = [a for a in answers if a[1] != 200]
    most = max(count.samples, default=0)
    assert most <= bound, (
        f"the workers held {most} connections to PostgreSQL (bound {bound}: "
        f"{bound // len(stack.workers)} per worker) after {len(answers)} requests "
        f"in {elapsed:.1f} s; counts: {count.samples[-20:]}"
    )
    assert not failed and len(answers) == THREADS * REQUESTS_PER_THREAD, (
        f"{len(failed)} of {len(answers)} requests failed; the first: {failed[:3]}"
    )
    first_read = json.loads(results[-1][0][2])
    assert first_read["count"] == 1, f"the GM's read found no campaign: {first_read}"
    settled = count.settled()
    assert settled <= bound, f"after the burst the workers still hold {settled} connections"
