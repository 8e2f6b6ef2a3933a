"""Transactions that refuse as a whole.

A service's own `transaction.atomic()` becomes a savepoint when its caller
already holds a transaction: two more round trips, which on the busiest
write path (a token move) are about a fifth of its time, one of them while
the campaign row is locked. A caller that rolls its whole transaction back
on any refusal (a live intent and its receipt, vtt.live.receipts) opens it
with `all_or_nothing()`; inside it, a service's `step()` takes no savepoint.
Anywhere else `step()` is `transaction.atomic()`."""

import contextlib
import contextvars

from django.db import transaction

_all_or_nothing = contextvars.ContextVar("all_or_nothing", default=False)


@contextlib.contextmanager
def all_or_nothing():
    """A transaction whose caller rolls it all back on any exception."""
    marker = _all_or_nothing.set(True)
    try:
        with transaction.atomic():
            yield
    finally:
        _all_or_nothing.reset(marker)


def step():
    """A service's atomic block: a savepoint, unless inside all_or_nothing()."""
    return transaction.atomic(savepoint=not _all_or_nothing.get())
