"""Intents carried out once, however often a client sends them.

A client that loses its socket cannot know whether the intents it had sent
were carried out: the worker may have died before or after the commit. It
sends them again with the same ids (docs/protocol.md, "Sending again"). An
intent with an id is carried out in one transaction with a receipt of its
answer; when the receipt is already there (the first attempt committed, or
is committing on another worker, whose row the insert waits for), the
transaction is rolled back and the first answer is given instead.

Receipts are kept for RECEIPT_TTL: a client re-sends within seconds of
reconnecting, and an id reused after that acts again."""

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from vtt.db.transactions import all_or_nothing
from vtt.rules import RulesError
from vtt.tabletop.services.errors import ServiceError

from .models import IntentReceipt

RECEIPT_TTL = datetime.timedelta(minutes=15)


class _AlreadyDone(Exception):
    """Rolls back a second attempt at an intent whose receipt exists."""


def receipt_key(intent_id: str | int) -> str:
    return f"i:{intent_id}" if isinstance(intent_id, int) else f"s:{intent_id}"


# What a second sending's attempt may be refused with only because the
# first one did it already.
REFUSALS = (ServiceError, RulesError)


@dataclass
class Once:
    """An intent carried out at most once per id. Calling it carries it out
    and records its receipt; the caller runs the call all or nothing (a
    transaction, or a savepoint of a room's batch, vtt.live.group_commit,
    under `all_or_nothing()`). When the call raised, `recover(error)`, run
    after that rollback, gives the first answer if the id was carried out
    already, or raises the error. Both answer (what the ack carries,
    whether it is an earlier sending's)."""

    room: int
    user_id: int
    intent_id: str | int | None
    intent: str
    act: Callable[[], dict]

    def __call__(self) -> tuple[dict, bool]:
        answer = self.act()
        if self.intent_id is not None and not _record(
            self.room, self.user_id, self._key, self.intent, answer, timezone.now()
        ):
            raise _AlreadyDone
        return answer, False

    def recover(self, error: BaseException) -> tuple[dict, bool]:
        if self.intent_id is None or not isinstance(error, (_AlreadyDone, *REFUSALS)):
            raise error
        # A refusal may only mean the first attempt already did it (a move's
        # version moved on); the first answer is the right one then too.
        receipt = _find(self.room, self.user_id, self._key, timezone.now())
        if receipt is None:
            if isinstance(error, _AlreadyDone):  # it expired that very moment
                raise ServiceError("conflict", "id: send this intent again", "id") from None
            raise error
        if receipt.intent != self.intent:
            raise ServiceError(
                "invalid", f"id: this id was given to a {receipt.intent} intent already", "id"
            ) from None
        return json.loads(receipt.answer), True

    @property
    def _key(self) -> str:
        return receipt_key(self.intent_id)


def carry_out_once(once: Once) -> tuple[dict, bool]:
    """Carry out `once` in a transaction (or a savepoint) of its own."""
    try:
        with all_or_nothing():
            return once()
    except Exception as error:
        return once.recover(error)


def _record(room, user_id, key, intent, answer, now) -> bool:
    """Insert the receipt; False when a live one has this id already. An
    expired one is taken over."""
    table = IntentReceipt._meta.db_table
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (campaign_id, user_id, intent_id, intent, answer, created)"
            " VALUES (%s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (campaign_id, user_id, intent_id) DO UPDATE"
            " SET intent = excluded.intent, answer = excluded.answer, created = excluded.created"
            f" WHERE {table}.created < %s",
            [
                room,
                user_id,
                key,
                intent,
                json.dumps(answer, separators=(",", ":")),
                ops.adapt_datetimefield_value(now),
                ops.adapt_datetimefield_value(now - RECEIPT_TTL),
            ],
        )
        return cursor.rowcount == 1


def _find(room, user_id, key, now) -> IntentReceipt | None:
    return IntentReceipt.objects.filter(
        campaign_id=room, user_id=user_id, intent_id=key, created__gte=now - RECEIPT_TTL
    ).first()


def receipts_prune() -> int:
    """Forget receipts past their time (the hub does it now and then)."""
    deleted, _ = IntentReceipt.objects.filter(created__lt=timezone.now() - RECEIPT_TTL).delete()
    return deleted
