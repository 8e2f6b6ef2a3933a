"""The pool of connections each process keeps to PostgreSQL (Django's,
on psycopg_pool).

Django serves a request on a thread that lives for that request, and a
connection kept per thread (CONN_MAX_AGE) stays open after its thread has
gone, until the garbage collector finds it: a worker under steady requests
held some fifty, and two of them ran PostgreSQL out of connections. From a
pool, a request or a room's database call borrows a connection and gives it
back when Django closes it, so a process never holds more than the pool's
size; what a burst wants beyond that waits for one to come back."""

from django.core.exceptions import ImproperlyConfigured

# Kept open while the process is idle.
MIN_SIZE = 2
# Seconds a request waits for a connection before it fails: a burst's
# waits are milliseconds, and while PostgreSQL is away no connection comes.
WAIT = 10


def pool_options(size: int, conn_max_age: int) -> dict:
    """The OPTIONS a pool of at most `size` connections adds to the
    database's settings; none for a size of 0 (connections per thread)."""
    if size < 0:
        raise ImproperlyConfigured(f"DB_POOL_SIZE must be 0 (no pool) or more, not {size}")
    if size == 0:
        return {}
    if conn_max_age:
        raise ImproperlyConfigured(
            "DB_CONN_MAX_AGE keeps a connection per thread, which the pool (DB_POOL_SIZE) "
            "replaces: unset DB_CONN_MAX_AGE, or set DB_POOL_SIZE=0 to keep connections "
            "per thread instead (docs/deploy.md)."
        )
    return {"pool": {"min_size": min(MIN_SIZE, size), "max_size": size, "timeout": WAIT}}
