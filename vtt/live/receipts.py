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

from django.db import connection
from django.utils import timezone

from vtt.rules import RulesError
from vtt.tabletop.services.errors import ServiceError
from vtt.tabletop.transactions import all_or_nothing

from .models import IntentReceipt

RECEIPT_TTL = datetime.timedelta(minutes=15)


class _AlreadyDone(Exception):
    """Rolls back a second attempt at an intent whose receipt exists."""


def receipt_key(intent_id: str | int) -> str:
    return f"i:{intent_id}" if isinstance(intent_id, int) else f"s:{intent_id}"


def carry_out_once(*, room: int, user_id: int, intent_id, intent: str, act) -> tuple[dict, bool]:
    """`act()`'s answer and False, or, for an id carried out already, the
    first answer and True. Without an id there is nothing to remember."""
    if intent_id is None:
        return act(), False
    key = receipt_key(intent_id)
    now = timezone.now()
    try:
        with all_or_nothing():
            answer = act()
            if not _record(room, user_id, key, intent, answer, now):
                raise _AlreadyDone
        return answer, False
    except (_AlreadyDone, ServiceError, RulesError) as refusal:
        # A refusal may only mean the first attempt already did it (a move's
        # version moved on); the first answer is the right one then too.
        receipt = _find(room, user_id, key, now)
        if receipt is None:
            if isinstance(refusal, _AlreadyDone):  # it expired that very moment
                raise ServiceError("conflict", "id: send this intent again", "id") from None
            raise
        if receipt.intent != intent:
            raise ServiceError(
                "invalid", f"id: this id was given to a {receipt.intent} intent already", "id"
            ) from None
        return json.loads(receipt.answer), True


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
