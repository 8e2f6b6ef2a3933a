"""A room's intents committed together.

Every stored change of a room waits for its commit, and on this kind of
machine a commit is the disk's flush: about 2 ms, against some 50 us for any
other statement. A room's changes are numbered one at a time on the
campaign row, which stays locked until that flush is done, so a room that
committed each intent alone could store only a few hundred a second
whatever the threads. Here the intents that arrive at one process for one
room while its previous batch is being written wait for the next batch,
and a batch is one transaction: each intent in its own savepoint, so a
refusal undoes only its own writes, and one commit for all. That savepoint
is the intent's only one (its services take none inside it,
vtt.db.transactions), and a lone intent needs none: savepoints are
round trips made while the room's row is held. A lone intent
is written at once, as before; under load the batches grow by themselves.

Order and promises stay: the events are numbered in the order the intents
are carried out, announced after the commit (vtt.tabletop.events), and each
socket sends its next intent only after its previous answer. A batch takes
the campaign row first, before any token, so two processes' batches for
one room queue on it instead of deadlocking on each other's tokens. A
change made outside the live rooms (the REST API, the GM console) locks a
token before the campaign row; if PostgreSQL breaks such a deadlock by
refusing an intent of the batch, that intent is carried out again in the
next batch."""

import asyncio
import logging
from dataclasses import dataclass, field

from django.db import DatabaseError, transaction

from vtt.db.transactions import all_or_nothing
from vtt.tabletop.models import Campaign

from . import db

logger = logging.getLogger(__name__)

MAX_BATCH = 64  # intents in one transaction: a bound on how long one holds the room
DEADLOCK = "40P01"  # PostgreSQL's deadlock_detected


@dataclass
class _Pending:
    act: object  # () -> the intent's answer, run on the database thread
    future: asyncio.Future
    retried: bool = False


@dataclass
class _Outcome:
    answer: object = None
    error: BaseException | None = None
    again: bool = False  # refused by a deadlock: carry it out in the next batch


def carry_out_together(room: int, acts: list) -> list[_Outcome]:
    """Carry out `acts` in one transaction; what each answered or raised.
    An act is a callable, all or nothing under `all_or_nothing()`; one with
    a `recover(error)` (vtt.live.receipts.Once) is asked after its rollback
    what its refusal answers. Runs on a database thread."""
    if len(acts) == 1:
        # Alone, the act is the transaction: it needs no savepoint.
        try:
            with all_or_nothing():
                _lock_room(room)
                return [_Outcome(answer=acts[0]())]
        except Exception as error:
            return [_recovered(acts[0], error)]
    outcomes = []
    with transaction.atomic():
        _lock_room(room)
        for act in acts:
            try:
                with all_or_nothing():  # its savepoint
                    outcomes.append(_Outcome(answer=act()))
            except Exception as error:  # a refusal, or a fault of this intent alone
                outcomes.append(_recovered(act, error))
    return outcomes


def _recovered(act, error: Exception) -> _Outcome:
    recover = getattr(act, "recover", None)
    if recover is None:
        return _failed(error)
    try:
        return _Outcome(answer=recover(error))
    except Exception as refusal:
        return _failed(refusal)


def _lock_room(room: int) -> None:
    """The room's row first (see the module docstring). Written out, as
    every batch starts with it; SQLite has no row locks (its first write
    holds the whole database)."""
    connection = transaction.get_connection()
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {Campaign._meta.db_table} WHERE id = %s{lock}", [room])


def _failed(error: Exception) -> _Outcome:
    cause = getattr(error, "__cause__", None)
    again = isinstance(error, DatabaseError) and getattr(cause, "sqlstate", None) == DEADLOCK
    return _Outcome(error=error, again=again)


@dataclass
class RoomWriter:
    """One process's writer for one room."""

    room: int
    pending: list = field(default_factory=list)
    busy: bool = False

    async def carry_out(self, act):
        """Await `act()`, run on a database thread in the room's next batch;
        raises what it raised."""
        future = asyncio.get_running_loop().create_future()
        self.pending.append(_Pending(act, future))
        if not self.busy:
            self.busy = True
            asyncio.ensure_future(self._drain())
        return await future

    async def _drain(self):
        try:
            while self.pending:
                batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
                try:
                    outcomes = await db.run(carry_out_together, self.room, [p.act for p in batch])
                except BaseException as error:  # the commit itself failed
                    for item in batch:
                        if not item.future.done():
                            item.future.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                again = []
                for item, outcome in zip(batch, outcomes, strict=True):
                    if outcome.again and not item.retried:
                        item.retried = True
                        again.append(item)
                    elif item.future.done():  # its socket went away meanwhile
                        continue
                    elif outcome.error is not None:
                        item.future.set_exception(outcome.error)
                    else:
                        item.future.set_result(outcome.answer)
                self.pending[:0] = again
        finally:
            self.busy = False
            if self.pending:  # arrived as this one ended on an exception
                self.busy = True
                asyncio.ensure_future(self._drain())


_writers: dict[int, RoomWriter] = {}


def writer(room: int) -> RoomWriter:
    """The process's writer for `room` (kept while the process lives: it is
    two fields, and the rooms of a process are few)."""
    found = _writers.get(room)
    if found is None:
        found = _writers[room] = RoomWriter(room)
    return found
