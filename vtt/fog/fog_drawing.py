"""Each group's drawn view and explored area of a fog scene, drawn after the
moves commit instead of inside them, at most every DRAW_EVERY seconds a room.

What a group sees is decided inside the move's transaction (vision.annotate
and the SeenToken rows: what every frame, read and page is filtered on).
The view and explored area are only what the map draws, state and not
history, so where a process runs the live rooms (its hub registers here,
`use`) a move of an eye only owes the drawing: the eye's new place is noted
for its groups, and once the move commits the room is drawn again soon,
together with the moves that follow. The explored area grows by the area of
every place an eye stood (not only the last), the view is drawn from the
room's kept sight as it stands, both are written, and the groups' vision
frames go to the room. Elsewhere (the REST API, commands, live rooms on
SQLite, whose one database thread a drawing cannot share, tests without a
room) views are drawn in the transaction, as every change that is not a
plain move is everywhere: the GM's fog edit, a door, a wall, the scene.

A change drawn in a transaction (`drawn_in_transaction`) wins over what was
owed before it: a reset of the fog by the GM is not grown back by the places
eyes stood before it, and a drawing worked out before it is not sent."""

import threading
from dataclasses import dataclass, field

from django.db import transaction

from vtt.rules import fog_paint
from vtt.tabletop.models import Campaign, SceneSight, SeenToken
from vtt.tabletop.walls import sight_walls

from . import lit_areas, sight_cache
from .eyes import eyes_seeing_for

DRAW_EVERY = 0.25  # seconds: a room's drawings at most this often


@dataclass
class _Owed:
    places: list = field(default_factory=list)  # (seq, group, Eye) where eyes stood
    groups: set = field(default_factory=set)  # groups owed a frame
    floor: int = 0  # what was owed before this event number is dropped


_owed: dict[tuple[int, int], _Owed] = {}
_lock = threading.Lock()
_can_defer = None  # () -> whether this process sends drawings to its rooms
_schedule = None  # (campaign_id, scene_id) -> None: draw soon
_paint = fog_paint.paint  # what works out a drawing's geometry


def use(can_defer, schedule, paint=None) -> None:
    """Where a process runs live rooms: `can_defer()` says whether its rooms
    are running now; `schedule(campaign_id, scene_id)` has `draw` run soon
    (on a database thread) and its frames sent; `paint`, fog_paint.paint's
    stand-in that runs it elsewhere (by default it runs here)."""
    global _can_defer, _schedule, _paint
    _can_defer, _schedule, _paint = can_defer, schedule, paint or fog_paint.paint


def deferred() -> bool:
    return _can_defer is not None and bool(_can_defer())


def owe(state: sight_cache.RoomSight, places: list, groups) -> None:
    """A move (the state after it) owes its groups a drawing: `places`, the
    (group, Eye) where a moved eye now stands. Noted when the move commits."""
    key = (state.campaign_id, state.scene.pk)
    entries = [(state.seq, group, eye) for group, eye in places]
    groups = set(groups)

    def committed():
        with _lock:
            owed = _owed.setdefault(key, _Owed())
            owed.places.extend(entries)
            owed.groups |= groups
        if _schedule is not None:
            _schedule(*key)

    transaction.on_commit(committed)


def drawn_in_transaction(campaign_id: int, scene_id: int, seq: int) -> None:
    """The views were just drawn in the transaction of event `seq`: what was
    owed before it is dropped (set now, before the commit, so a drawing that
    reads the committed change also sees this)."""
    with _lock:
        owed = _owed.setdefault((campaign_id, scene_id), _Owed())
        owed.floor = max(owed.floor, seq)
        owed.places = [p for p in owed.places if p[0] >= seq]
        owed.groups = set()


def forget_all() -> None:
    """Forget what every room is owed: for a database whose rows were all
    deleted under the running process (a test's flush), where rooms and
    event numbers start again and an old floor would drop a new room's."""
    with _lock:
        _owed.clear()


def owes(campaign_id: int, scene_id: int) -> bool:
    with _lock:
        owed = _owed.get((campaign_id, scene_id))
        return bool(owed and (owed.places or owed.groups))


def draw(campaign_id: int, scene_id: int) -> dict[str, dict] | None:
    """Draw what the room owes from its kept sight: write each owed group's
    view and explored area, and return the groups' vision frames (None when
    there is nothing to send). Runs after the commits, outside the room's
    lock; each write only if the row is still what was read."""
    key = (campaign_id, scene_id)
    with _lock:
        owed = _owed.get(key)
        if owed is None or not (owed.places or owed.groups):
            return None
        entries, groups = owed.places, owed.groups
        owed.places, owed.groups = [], set()
    state = sight_cache.latest(campaign_id, scene_id)
    if state is None or not state.scene.fog:
        return None
    if not Campaign.objects.filter(pk=campaign_id, active_scene_id=scene_id).exists():
        return None  # the room went to another scene meanwhile
    records = stored_sights(scene_id)
    floor = _floor(key)
    if state.seq < floor:
        return None  # drawn since in a transaction, from a newer state
    places: dict[str, list] = {}  # each group's places
    for seq, group, eye in entries:
        if seq >= floor:
            places.setdefault(group, []).append(eye)
    groups = groups | set(places)
    asked = {
        group: fog_paint.Group(
            eyes=eyes_seeing_for(state, group),
            places=tuple(places.get(group, ())),
            view=records[group].view,
            explored=records[group].explored,
        )
        for group in state.groups
        if group in groups and group in records
    }
    if asked:
        segments = tuple(sight_walls(state.scene.walls))
        walls = fog_paint.Walls(segments, state.scene.width, state.scene.height)
        painted = _paint(walls, state.sight.lit, state.sight.lights, asked, state.sight.ambient)
        for group, (view, explored) in painted.items():
            store_drawing(records[group], view, explored)
    frames = visions_of(scene_id, sorted(g for g in groups if g in state.groups))
    if _floor(key) > state.seq:
        return None  # a newer drawing went out with its event
    return frames


def _floor(key) -> int:
    with _lock:
        owed = _owed.get(key)
        return owed.floor if owed is not None else 0


# ------------------------------------------------------------------ the drawings stored


def stored_sights(scene_id: int) -> dict:
    return {s.group: s for s in SceneSight.objects.filter(scene_id=scene_id)}


def store_drawing(record: SceneSight, view: str, explored: str) -> bool:
    """Write a view and explored area drawn after the commits, unless the
    row changed since it was read (a transaction drew it anew, the GM edited
    the fog: theirs wins)."""
    written = SceneSight.objects.filter(
        pk=record.pk, view=record.view, explored=record.explored, active=True
    ).update(view=view, explored=explored)
    return bool(written)


def visions_of(scene_id: int, groups: list[str]) -> dict[str, dict]:
    """Some groups' vision frames of a scene (with fog), in two reads."""
    records = {s.group: s for s in SceneSight.objects.filter(scene_id=scene_id, group__in=groups)}
    seen: dict[str, list[int]] = {group: [] for group in groups}
    rows = SeenToken.objects.filter(scene_id=scene_id, group__in=groups).order_by("token_id")
    for group, token_id in rows.values_list("group", "token_id"):
        seen[group].append(token_id)
    views = {group: records[group].view if group in records else "" for group in groups}
    lit = lit_areas.seen_by(scene_id, views)
    return {
        group: {
            "scene": scene_id,
            "group": group,
            "view": views[group],
            "explored": records[group].explored if group in records else "",
            "tokens": seen[group],
            "lit": lit[group],
        }
        for group in groups
    }
