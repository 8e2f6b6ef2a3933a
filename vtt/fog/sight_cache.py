"""A fog scene's sight as this process's last annotation left it, so the
next event of the room need not read and compute it all again.

A room's events are numbered one at a time on its campaign row (append_event),
and every change that matters to sight (tokens, walls and doors, lighting,
members, settings, fog) is logged as an event in the same transaction,
after the change is written (a change that was not would reach the views
only with the room's next event that is not a plain move). So
the state kept with the number of the event that produced it is exact for
the next number, and only for it: an event from another process, or one
this process logged without annotating it, leaves a gap and the next
annotation starts again from the database.

A state is trusted only once its transaction committed, or while it is
still pending in the transaction (or savepoint) that asks: a rolled back
change leaves no state behind, even if the room's next number is then
taken by someone else."""

import threading
from dataclasses import dataclass, field

from django.db import transaction


@dataclass
class RoomSight:
    """What each group sees of one scene after the event `seq`."""

    campaign_id: int
    scene: object  # the Scene row as read (walls, size, lighting)
    seq: int
    sight: object  # vtt.rules.sight.Sight with the scene's lights
    tokens: dict[int, dict]  # what sight needs of each token (vision.scene_tokens)
    players: set[int]
    own: bool
    groups: list[str]
    eyes: dict[int, list[str]]  # the tokens that see for some group: those groups
    eye_seen: dict[int, frozenset]  # what each of those tokens sees
    seen: dict[str, set[int]]  # each group's view: the union of its eyes'
    stored: dict  # group -> SceneSight, as written
    committed: bool = False
    mark: object = field(default=None, repr=False)

    def __post_init__(self):
        def committed():
            self.committed = True
            _note_committed(self)

        self.mark = committed


MAX_SCENES = 128  # kept at once in a process (the least recently kept go)

_kept: dict[tuple[int, int], RoomSight] = {}
_last_committed: dict[tuple[int, int], RoomSight] = {}
_lock = threading.Lock()


def keep(state: RoomSight) -> None:
    """Keep `state` for the room's next event; trusted from its commit on."""
    with _lock:
        _put(_kept, (state.campaign_id, state.scene.pk), state)
    transaction.on_commit(state.mark)


def _put(kept: dict, key, state: RoomSight) -> None:
    kept.pop(key, None)
    kept[key] = state
    while len(kept) > MAX_SCENES:
        kept.pop(next(iter(kept)))


def forget(campaign_id: int, scene_id: int) -> None:
    with _lock:
        _kept.pop((campaign_id, scene_id), None)
        _last_committed.pop((campaign_id, scene_id), None)


def forget_all() -> None:
    """Forget every scene: for a database whose rows were all deleted under
    the running process (a test's flush), where ids and event numbers start
    again and a kept state could match a new room's."""
    with _lock:
        _kept.clear()
        _last_committed.clear()


def kept(campaign_id: int, scene_id: int, seq: int | None) -> RoomSight | None:
    """The state after event `seq - 1`, if this process has it and it holds."""
    if seq is None:
        return None
    with _lock:
        state = _kept.get((campaign_id, scene_id))
    if state is None or state.seq != seq - 1:
        return None
    if state.committed:
        return state
    # Still pending: only in the transaction that made it, and not undone
    # (a savepoint rolled back drops the callbacks registered inside it).
    pending = transaction.get_connection().run_on_commit
    return state if any(func is state.mark for _, func, _ in pending) else None


def _note_committed(state: RoomSight) -> None:
    key = (state.campaign_id, state.scene.pk)
    with _lock:
        last = _last_committed.get(key)
        if last is None or last.seq < state.seq:
            _put(_last_committed, key, state)


def latest(campaign_id: int, scene_id: int) -> RoomSight | None:
    """The last committed state of a scene this process kept (what is drawn
    after the commits), if any."""
    with _lock:
        return _last_committed.get((campaign_id, scene_id))
