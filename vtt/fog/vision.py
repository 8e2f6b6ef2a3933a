"""Fog of war on the server: which tokens each sight group sees on a scene
with fog, kept in step with the room's log.

A sight group is the party (every player shares what any player's token
sees) or, when the campaign's `own_vision` is on, one player (what their own
tokens see); observers look through the party's eyes. The GM is in no group:
the GM sees everything.

Every event about a fog scene the room is on is annotated as it is appended
(`annotate_event`, which append_event calls through the hook vtt.fog.apps
registers): for each group, which tokens came into
its view and which left it because of the event, and whether the group sees
the tokens the event is about. The annotation is stored with the event under
`sight`, so a player's render of it (vtt.tabletop.policy.event_view) is the
same live, in a resync page and in a replay: nobody recomputes the past.
`SeenToken` holds each group's view now (what REST and snapshots filter on)
and `SceneSight` its view and explored area as drawable paths.

A token is seen when its centre is seen (vtt.rules.sight.Sight.sees): the
same centre-to-centre line the attacks measure."""

import copy
import json
from collections.abc import Iterable

import numpy as np
from django.db import transaction

from vtt.rules import fog_paint, sight
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.event_kinds import Fog
from vtt.tabletop.models import Membership, Scene, SceneSight, SeenToken, Token
from vtt.tabletop.serialize import is_table, table_tokens, token_data

# The groups are named with the viewer, and the walls read with the map,
# in the table, which must not import this package; group_of stays at hand
# here for the rooms, beside the views it names.
from vtt.tabletop.visibility import PARTY, group_of, own_group  # noqa: F401
from vtt.tabletop.walls import sight_walls

from . import fog_drawing, lights, sight_cache
from . import points as points_seen
from .eyes import centre, eye, eyes_seeing_for

# The drawings as stored, read and written with the drawing; the rooms
# read a group's frames here (vision.visions_of) with the rest of its view.
from .fog_drawing import stored_sights, visions_of

# ------------------------------------------------------------------ the scene as geometry


# What sight reads of each token (with its controllers).
SIGHT_COLUMNS = ("id", "x", "y", "size", "hidden", "sight_ft", "light_ft")


def scene_tokens(scene_id: int) -> list[dict]:
    """What sight needs of every token on the scene, read in two queries."""
    rows = list(Token.objects.filter(scene_id=scene_id).values(*SIGHT_COLUMNS))
    links = Token.controllers.through.objects.filter(token__scene_id=scene_id)
    controllers: dict[int, list[int]] = {}
    for token_id, user_id in links.values_list("token_id", "user_id"):
        controllers.setdefault(token_id, []).append(user_id)
    for row in rows:
        row["controllers"] = controllers.get(row["id"], [])
    return rows


def table_sight_tokens(table: dict) -> list[dict]:
    """What sight needs of every token, from a scene change's token table
    (serialize.token_table): the rows the event was just read with, not
    read again."""
    return table_tokens(table, (*SIGHT_COLUMNS, "controllers"))


def players_of(campaign_id: int) -> set[int]:
    return set(
        Membership.objects.filter(policy.players_q(), campaign_id=campaign_id).values_list(
            "user_id", flat=True
        )
    )


def groups_of(players: Iterable[int], settings) -> list[str]:
    """Every group that sees the scene: the party always (observers), and
    each player when each sees through their own tokens."""
    if (settings or {}).get("own_vision"):
        return [PARTY, *(own_group(p) for p in sorted(players))]
    return [PARTY]


def eyes_of(token: dict, players: set[int], own: bool) -> list[str]:
    """The groups a token sees for: a token a player controls sees for the
    party and, with own vision, for each of its players. Hidden ones see
    for nobody (a player does not see through what they cannot see)."""
    if token["hidden"]:
        return []
    owners = [user for user in token["controllers"] if user in players]
    if not owners:
        return []
    return [PARTY, *(own_group(user) for user in owners)] if own else [PARTY]


# Kept in this process between events (and shared by its threads), so a move
# recomputes only what moved: each scene's walls as a Sight (which remembers
# every eye's polygon). The walls read are kept by vtt.tabletop.walls, and
# explored areas as shapes by fog_paint, which draws them.
_SIGHTS = sight.Kept(64)


def scene_sight(scene: Scene, tokens: list[dict], on: list[dict] | None = None) -> sight.Sight:
    """The scene's walls (kept) under its light now: `on`, its lights that
    are on (vtt.fog.lights.lights_on; read when not given)."""
    if on is None:
        on = lights.lights_on(scene.pk)
    shining = lights.sight_lights(on, tokens) if not scene.lit else []
    text = json.dumps(scene.walls or [])

    def walls():
        segments = sight_walls(scene.walls, text)
        return sight.Sight(segments, scene.width, scene.height, True)

    key = (scene.pk, scene.width, scene.height, text)
    return _SIGHTS.get_or(key, walls).relit(scene.lit, shining, lights.ambient(scene))


def explored_shape(record: SceneSight):
    """A group's explored area as a shape, parsed once per stored text."""
    return fog_paint.explored_shape(record.explored)


class SceneView:
    """What each group sees of one scene as it stands now."""

    def __init__(
        self,
        scene: Scene,
        players: set[int],
        settings,
        gone: int | None = None,
        tokens: list[dict] | None = None,
    ):
        self.scene = scene
        if tokens is None:
            tokens = scene_tokens(scene.pk)
        self.tokens = [t for t in tokens if t["id"] != gone]
        self.players = players
        self.own = bool((settings or {}).get("own_vision"))
        self.groups = groups_of(players, settings)
        on = lights.lights_on(scene.pk)
        # A token carrying a light that is on: its move relights the scene.
        carrying = lights.carriers(on) if not scene.lit else set()
        self.tokens = [{**t, "carries": t["id"] in carrying} for t in self.tokens]
        self.sight = scene_sight(scene, self.tokens, on)
        # The tokens that see for some group, and for which.
        self.eyes: dict[int, list[str]] = {}
        for token in self.tokens:
            mine = [g for g in eyes_of(token, players, self.own) if g in self.groups]
            if mine:
                self.eyes[token["id"]] = mine

    def eye_seen(self) -> dict[int, frozenset]:
        """What each eye sees: a group sees what any of its eyes sees
        (Sight.seen of several eyes is the union of each one's)."""
        candidates = [t for t in self.tokens if not t["hidden"]]
        if not candidates:
            return {token_id: frozenset() for token_id in self.eyes}
        ids = np.array([t["id"] for t in candidates])
        by_id = {t["id"]: t for t in self.tokens}
        eyes = [eye(by_id[token_id]) for token_id in self.eyes]
        flags = self.sight.seen_by_each(eyes, [centre(t) for t in candidates])
        sets = {id(seen): frozenset(ids[seen].tolist()) for seen in flags}  # alike eyes share
        return {token_id: sets[id(seen)] for token_id, seen in zip(self.eyes, flags, strict=True)}

    def state(self, campaign_id: int, seq: int, stored: dict) -> sight_cache.RoomSight:
        eye_seen = self.eye_seen()
        return sight_cache.RoomSight(
            campaign_id=campaign_id,
            scene=self.scene,
            seq=seq,
            sight=self.sight,
            tokens={t["id"]: t for t in self.tokens},
            players=self.players,
            own=self.own,
            groups=list(self.groups),
            eyes=self.eyes,
            eye_seen=eye_seen,
            seen=_union_per_group(self.groups, self.eyes, eye_seen),
            stored=stored,
        )


def _union_per_group(groups, eyes: dict, eye_seen: dict) -> dict[str, set[int]]:
    seen: dict[str, set[int]] = {group: set() for group in groups}
    for token_id, mine in eyes.items():
        for group in mine:
            seen[group] |= eye_seen[token_id]
    return seen


def view_of(state: sight_cache.RoomSight, group: str):
    """The area a group's eyes see, to draw (Sight.view keeps each eye's)."""
    eyes = eyes_seeing_for(state, group)
    return state.sight.view(eyes) if eyes else sight.EMPTY


# ------------------------------------------------------------------ keeping it in step


def refs_of(kind: str, data: dict, scene_id: int) -> list[int]:
    """The tokens an event is about, as its kind declares: a group that does
    not see them does not see the event (names and positions stay hidden)."""
    declared = event_kinds.KINDS[kind]
    if declared.sight == event_kinds.Sight.TOKEN:
        return [data["token"]["id"]]
    if "attack" in data:
        sides = (data["attack"]["attacker"], data["attack"]["target"])
        return [side["token_id"] for side in sides if side.get("token_id")]
    if declared.fog == Fog.CHARACTER and data.get("character"):
        character_id = data["character"]["id"]
        return list(
            Token.objects.filter(scene_id=scene_id, character_id=character_id).values_list(
                "id", flat=True
            )
        )
    return []


def combatants_of(kind: str, data: dict) -> list[int]:
    """The tokens of a turn order's combatants (an encounter event's): a
    group that does not see one is not told it is in the fight."""
    if event_kinds.KINDS[kind].fog != Fog.FIGHT:
        return []
    return [c["token_id"] for c in data["encounter"]["order"] if c["token_id"] is not None]


def annotate_event(campaign, scene_id: int, kind: str, data: dict, seq: int) -> dict | None:
    """The `sight` annotation of an event of `kind` with its payload `data`,
    numbered `seq`, about the fog scene the room is on: what append_event
    asks of this package (registered at start, vtt.fog.apps). What the event
    does to the fog is its kind's declaration (`Kind.fog`)."""
    declared = event_kinds.KINDS[kind]
    fog = declared.fog
    moved = fog == Fog.MOVE
    annotation = annotate(
        campaign,
        scene_id,
        refs_of(kind, data, scene_id),
        combatants=combatants_of(kind, data),
        # A move carries only where its token went (serialize.token_moved_data).
        carried=[data["token"]["id"]] if moved else (),
        fresh=fog == Fog.NEW_SCENE,
        gone=data["token"]["id"] if fog == Fog.GONE else None,
        refresh=fog == Fog.REFRESH,
        seq=seq,
        moved=data["token"] if moved else None,
        tokens=table_sight_tokens(data["tokens"])
        if fog == Fog.NEW_SCENE and is_table(data["tokens"])
        else None,
    )
    if annotation is not None and declared.where is not None:
        _by_place(annotation, scene_id, declared.where(data))
    return annotation


def _by_place(annotation: dict, scene_id: int, points: list) -> None:
    """An event about a place (a drawing, `Kind.where`): a group whose map
    shows none of its points does not see it (policy.event_view reads
    `unseen`), so what lies under unexplored fog reaches nobody."""
    seeing = set(points_seen.groups_seeing_any(scene_id, points))
    for group, mine in annotation["groups"].items():
        mine["unseen"] = mine["unseen"] or group not in seeing


def annotate(
    campaign,
    scene_id: int | None,
    refs: Iterable[int] = (),
    *,
    combatants: Iterable[int] = (),
    carried: Iterable[int] = (),
    fresh=False,
    gone=None,
    refresh=False,
    seq: int | None = None,
    moved: dict | None = None,
    tokens: list[dict] | None = None,
):
    """The `sight` annotation of an event about `scene_id`, the scene the
    room is on (None when the scene has no fog and had none), after bringing
    the stored views up to date with the scene as it now stands.

    `refs`: the tokens the event is about; a group that does not see one of
    them does not see the event. `combatants`: a turn order's tokens; each
    group's `out_of_view` lists those it does not see. `carried`: those of
    `refs` the event does not carry whole (a move's token): a group that
    comes to see one by this event gets it whole in its `enter`. `fresh`:
    the room has just come to this
    scene (its activation), so nothing was seen before. `gone`: a token
    being deleted, no longer seeing or lighting anything. `refresh`: the
    explored areas were changed by hand: every group gets its vision anew.
    `seq`: the event's number; `moved`: a token.moved event's token as it
    now is. With both, a move right after this process's last annotation of
    the scene recomputes only what the move changes (sight_cache). `tokens`:
    the scene's every token as the event carries them (table_sight_tokens),
    so a scene change does not read them twice.

    Runs inside the appending transaction, with the campaign row locked:
    the room's changes are in order, so before and after are exact."""
    refs, combatants = set(refs), set(combatants)
    told = refs - set(carried)  # the event itself tells of these
    if scene_id is None:
        return None
    if moved is not None and not (fresh or refresh or gone):
        step = _moved(sight_cache.kept(campaign.pk, scene_id, seq), moved, seq)
        if step is not None:
            state, before, views = step
            eyes = {
                str(t): eyes_of(state.tokens[t], state.players, state.own)
                for t in refs
                if t in state.tokens
            }
            return _annotation(
                state.scene, before, state.seen, refs, told, combatants, views, eyes, state.tokens
            )
    scene = Scene.objects.filter(pk=scene_id).first()
    if scene is None:
        return None
    sight_cache.forget(campaign.pk, scene_id)
    stored = stored_sights(scene.pk)
    was_fog = any(s.active for s in stored.values())
    if not scene.fog and not was_fog:
        return None
    before = {} if fresh else _seen_before(scene, stored, was_fog)
    views, eyes, known = [], {}, None
    if scene.fog:
        players = players_of(campaign.pk)
        now = SceneView(scene, players, campaign.settings, gone, tokens)
        state = now.state(campaign.pk, seq if seq is not None else -1, stored)
        after, known = state.seen, state.tokens
        # Only the rows that differ are written: a scene the room comes back
        # to mostly sees what it saw when it left.
        _write_seen(scene, before if was_fog and not fresh else _seen_rows(scene, stored), after)
        views = _store(state, fresh)
        if seq is not None:
            fog_drawing.drawn_in_transaction(campaign.pk, scene.pk, seq)
        if refresh or fresh or not was_fog:
            views = list(now.groups)
        if seq is not None:
            sight_cache.keep(state)
        # The groups each token sees for: the event's own, or on arriving at
        # the scene every token's that sees for some (the live rooms route
        # drags by them; a token left out sees for none).
        for t in now.tokens:
            if fresh or t["id"] in refs:
                groups = eyes_of(t, players, now.own)
                if groups or t["id"] in refs:
                    eyes[str(t["id"])] = groups
    else:
        everyone = _unhidden(scene)
        after = {group: everyone for group in before}
        SeenToken.objects.filter(scene=scene).delete()
        SceneSight.objects.filter(scene=scene).update(view="", active=False)
    return _annotation(scene, before, after, refs, told, combatants, views, eyes, known, fresh)


def _annotation(
    scene, before, after, refs, told, combatants, views, eyes, known=None, fresh=False
) -> dict:
    groups, entering = {}, set()
    for group in after:
        was, seen = before.get(group, set()), after[group]
        enter = sorted(seen - was - told)
        entering.update(enter)
        groups[group] = {
            "enter": enter,
            "leave": sorted(was - seen - refs),
            "was": sorted(refs & was),
            "sees": sorted(refs & seen),
            "unseen": bool(refs - seen),
        }
        if combatants:
            groups[group]["out_of_view"] = sorted(combatants - seen)
        if views is not None and scene.fog and group not in views and (seen != was):
            views.append(group)  # its frame lists the tokens in view
    return {
        "scene": scene.pk,
        "groups": groups,
        # A scene change carries every token of its map itself.
        "tokens": [] if fresh else _token_dicts(entering, known),
        "views": views or [],
        "eyes": eyes,
    }


SIGHT_FIELDS = ("size", "hidden", "sight_ft", "light_ft")


def _moved(state, token: dict, seq: int):
    """The kept state after a move of `token` (as token.moved carries it),
    or None when the move must be worked out from the database: nothing
    kept for the previous event, or the token lights the scene (every
    view may change), or more than its place differs from the kept one.

    A token that is nobody's eye only needs which eyes see its new place;
    an eye that moved needs what it sees now; the groups' views are the
    unions of their eyes'. Writes what changed; returns the new state, the
    groups' views before and the groups whose drawn view changed."""
    if state is None or not state.scene.fog or token["id"] not in state.tokens:
        return None
    old = state.tokens[token["id"]]
    # A move carries only what it changes (serialize.token_moved_data); the
    # rest changes by events of its own, which read the scene anew.
    if any(f in token and old[f] != token[f] for f in SIGHT_FIELDS):
        return None
    if "controllers" in token and sorted(old["controllers"]) != sorted(token["controllers"]):
        return None
    if (old["light_ft"] or old.get("carries")) and not old["hidden"]:
        return None
    moved_id = token["id"]
    tokens = {**state.tokens, moved_id: {**old, "x": token["x"], "y": token["y"]}}
    eye_seen = dict(state.eye_seen)
    if not token["hidden"]:
        point = [centre(tokens[moved_id])]
        for eye_id in state.eyes:
            if eye_id == moved_id:
                continue
            sees = state.sight.seen([eye(tokens[eye_id])], point)[0]
            if sees != (moved_id in eye_seen[eye_id]):
                mine = set(eye_seen[eye_id])
                mine.add(moved_id) if sees else mine.discard(moved_id)
                eye_seen[eye_id] = frozenset(mine)
        if moved_id in state.eyes:
            candidates = [t for t in tokens.values() if not t["hidden"]]
            flags = state.sight.seen([eye(tokens[moved_id])], [centre(t) for t in candidates])
            eye_seen[moved_id] = frozenset(
                t["id"] for t, flag in zip(candidates, flags, strict=True) if flag
            )
    after = _union_per_group(state.groups, state.eyes, eye_seen)
    new = sight_cache.RoomSight(
        campaign_id=state.campaign_id,
        scene=state.scene,
        seq=seq,
        sight=state.sight,
        tokens=tokens,
        players=state.players,
        own=state.own,
        groups=state.groups,
        eyes=state.eyes,
        eye_seen=eye_seen,
        seen=after,
        stored=dict(state.stored),
    )
    _write_seen(state.scene, state.seen, after)
    sight_cache.keep(new)
    if not fog_drawing.deferred():
        return new, state.seen, _store(new, False)
    # Drawn after the commit (fog_drawing): the groups the moved token sees
    # for have their view changed, those whose seen tokens changed a frame.
    mine = state.eyes.get(moved_id, [])
    changed = [g for g in state.groups if after[g] != state.seen[g]]
    if mine and not token["hidden"]:
        fog_drawing.owe(new, [(g, eye(tokens[moved_id])) for g in mine], [*mine, *changed])
    elif changed:
        fog_drawing.owe(new, [], changed)
    return new, state.seen, None


def _token_dicts(ids: set[int], known: dict[int, dict] | None = None) -> list[dict]:
    """The tokens that came into a view, as they are now: the event carries
    them, so its render never reads the present. `known`: the scene's tokens
    as sight read them (vision.scene_tokens), whose controllers need no
    second read."""
    if not ids:
        return []
    tokens = Token.objects.filter(pk__in=ids).select_related("character").order_by("pk")
    if known is None:
        return [token_data(t) for t in tokens.prefetch_related("controllers")]
    for token in tokens:
        token.controller_ids = sorted(known[token.pk]["controllers"])
    return [token_data(t) for t in tokens]


def _seen_before(scene, stored, was_fog) -> dict[str, set[int]]:
    if not was_fog:
        # Without fog the players saw every token that was not hidden.
        everyone = _unhidden(scene)
        return {PARTY: everyone, **{g: everyone for g in stored if g != PARTY}}
    return _seen_rows(scene, stored)


def _seen_rows(scene, stored) -> dict[str, set[int]]:
    """The seen rows stored for the scene, by group (every stored group named)."""
    rows: dict[str, set[int]] = {group: set() for group in stored}
    for group, token_id in SeenToken.objects.filter(scene=scene).values_list("group", "token_id"):
        rows.setdefault(group, set()).add(token_id)
    return rows


def _unhidden(scene) -> set[int]:
    return set(Token.objects.filter(scene=scene, hidden=False).values_list("id", flat=True))


def _write_seen(scene, before, after) -> None:
    """Write the seen rows that changed (`before`: the stored ones)."""
    gone = [(g, t) for g, seen in before.items() for t in seen - after.get(g, set())]
    if gone:
        for group in {g for g, _ in gone}:
            ids = [t for g, t in gone if g == group]
            SeenToken.objects.filter(scene=scene, group=group, token_id__in=ids).delete()
    new = [
        (group, token_id)
        for group, seen in after.items()
        for token_id in seen - before.get(group, set())
    ]
    if new:
        _insert_seen(scene.pk, new)


def _insert_seen(scene_id: int, rows: list[tuple[str, int]]) -> None:
    """Insert (group, token) seen rows, skipping any already there. On
    PostgreSQL the rows go as two arrays in one statement: a scene put on
    the table sees thousands at once, and building a model object and a
    parameter pair for each cost more than the insert."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        SeenToken.objects.bulk_create(
            [SeenToken(scene_id=scene_id, group=g, token_id=t) for g, t in rows],
            ignore_conflicts=True,
        )
        return
    quote, fields = connection.ops.quote_name, SeenToken._meta
    scene, group, token = (
        quote(fields.get_field(name).column) for name in ("scene", "group", "token")
    )
    groups, tokens = zip(*rows, strict=True)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(fields.db_table)} ({scene}, {group}, {token}) "
            "SELECT %s, g, t FROM unnest(%s::varchar[], %s::bigint[]) AS seen(g, t) "
            "ON CONFLICT DO NOTHING",
            [scene_id, list(groups), list(tokens)],
        )


def _store(state: sight_cache.RoomSight, fresh: bool) -> list[str]:
    """Write each group's view and explored area (the kept records in
    `state.stored` are replaced, never changed: a rolled back change leaves
    the previous state as it was). The groups whose view changed."""
    scene, stored = state.scene, state.stored
    changed = []
    for group in state.groups:
        # Drawn, not decided on (Sight.sees decides).
        view = fog_paint.drawn(view_of(state, group))
        path = sight.to_path(view)
        record = stored.get(group)
        if record is None:
            stored[group] = SceneSight.objects.create(
                scene=scene, group=group, view=path, explored=path
            )
            changed.append(group)
            continue
        if record.view == path and record.active and not fresh:
            continue
        explored = sight.union(explored_shape(record), view)
        record = copy.copy(record)
        record.view, record.explored = path, sight.to_path(explored)
        fog_paint.remember(record.explored, explored)
        record.active = True
        record.save(update_fields=["view", "explored", "active"])
        stored[group] = record
        changed.append(group)
    return changed


def token_eyes(campaign, tokens: list[dict]) -> dict[int, list[str]]:
    """For each of a fog scene's `tokens` (dicts with its controllers and
    whether it is hidden: token_data), the groups it sees for (the live
    rooms let a group watch the drags of its own eyes only)."""
    players = players_of(campaign.pk)
    own = bool((campaign.settings or {}).get("own_vision"))
    return {t["id"]: eyes_of(t, players, own) for t in tokens}


def vision_of(scene_id: int | None, group: str | None) -> dict | None:
    """A group's vision of a fog scene now, as the browser draws it; None
    without fog (or for no group)."""
    if scene_id is None or group is None:
        return None
    if not Scene.objects.filter(pk=scene_id, fog=True).exists():
        return None
    return visions_of(scene_id, [group])[group]
