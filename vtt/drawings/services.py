"""Drawings added, moved, removed and cleared: each checks policy and the
drawing's bounds once and writes in one transaction with its room event,
whichever door asked (the room's intents, REST).

A drawing is seen as anything on its scene's map is: a GM-layer one by the
GM alone (its events appended with the GM's visibility), another scene's
by the GM alone (decided at append), and on a fog scene by the groups
whose map shows some of its points (the kinds' `where`)."""

from django.db import transaction

from vtt.core import shapes
from vtt.db import rows
from vtt.db.transactions import step
from vtt.tabletop import policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, Membership, Scene
from vtt.tabletop.services.access import actor, as_id, find, no_active_scene, unknown
from vtt.tabletop.services.errors import NotAllowed

from . import bounds, kinds
from .models import Drawing
from .selectors import sees_drawing
from .serialize import drawing_data

CLEAR_LAYERS = ("shared", "gm", "all")


def _scene(scene_id, by, room=None):
    """The scene and `by`'s membership of its campaign: a scene the member
    may not see (another one than the room's, for a player) is unknown.
    `room`: the campaign of the live room asking, whose scene it must be,
    and whose active scene it is when none is named.

    Read in one written-out statement, the scene (its size and fog), its
    campaign (the room's scene, the settings) and `by`'s role, as partial
    instances whose other fields load if read: every member adds a drawing
    every few strokes, and the querysets cost more than the rest of the add
    (docs/benchmarks.md, "Drawing")."""
    by_room = scene_id is None and room is not None
    refusal = unknown("campaign") if by_room else unknown("scene", "scene")
    pk = as_id(room if by_room else scene_id)
    if pk is None or not getattr(by, "is_authenticated", False):
        raise refusal
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    scene, campaign, member = (
        quote(model._meta.db_table) for model in (Scene, Campaign, Membership)
    )
    columns = (
        f"SELECT c.id, s.id, s.width, s.height, s.fog, c.active_scene_id, c.settings,"
        f" (SELECT m.role FROM {member} m WHERE m.campaign_id = c.id AND m.user_id = %s)"
    )
    params = [by.pk, pk]
    if by_room:
        where = (
            f" FROM {campaign} c LEFT JOIN {scene} s ON s.id = c.active_scene_id WHERE c.id = %s"
        )
    else:
        where = f" FROM {scene} s JOIN {campaign} c ON c.id = s.campaign_id WHERE s.id = %s"
        if room is not None:
            where += " AND c.id = %s"
            params.append(as_id(room))
    with connection.cursor() as cursor:
        cursor.execute(columns + where, params)
        row = cursor.fetchone()
    if row is None or row[-1] is None:
        raise refusal
    campaign_id, pk, width, height, fog, room_scene_id, settings, role = row
    if pk is None:
        raise no_active_scene()
    found = rows.partial(
        Scene, connection, id=pk, campaign_id=campaign_id, width=width, height=height, fog=bool(fog)
    )
    found.campaign = rows.partial(
        Campaign,
        connection,
        id=campaign_id,
        active_scene_id=room_scene_id,
        settings=rows.read_value(Campaign, "settings", settings, connection),
    )
    member = Membership(campaign_id=campaign_id, user_id=by.pk, role=role)
    if not policy.sees_scene(policy.member_viewer(member, found.campaign.settings), found):
        raise unknown("scene", "scene")
    return found, member


def draw_refusal(member, layer: str) -> str:
    """Why policy.may_draw said no, in words."""
    if not policy.takes_part(member):
        return "an observer may not draw"
    if policy.drawing_for_gms(layer):
        return "only a GM may draw on the GM layer"
    return "only the GM draws on this table (the campaign's drawing setting)"


def drawing_add(
    *,
    scene_id: int | None,
    by,
    shape,
    color,
    width,
    points,
    layer="shared",
    text="",
    stroke="",
    room: int | None = None,
) -> Drawing:
    """Store a finished drawing (policy.may_draw) and tell the room; `stroke`
    names the live preview it finishes, for the others to drop. `room`: the
    live room asking (_scene)."""
    scene, member = _scene(scene_id, by, room)
    drawn = bounds.clean(
        shape=shape,
        layer=layer,
        color=color,
        width=width,
        points=points,
        text=text,
        map_width=scene.width,
        map_height=scene.height,
    )
    stroke = bounds.stroke_key(stroke)
    if not policy.may_draw(member, scene.campaign.settings, drawn.layer):
        raise NotAllowed(draw_refusal(member, drawn.layer), "layer")
    # No savepoint of its own inside a live intent's all-or-nothing transaction.
    with step():
        drawing = Drawing(
            scene=scene,
            by=actor(by),
            shape=drawn.shape,
            layer=drawn.layer,
            color=drawn.color,
            width=drawn.width,
            points=drawn.points,
            text=drawn.text,
        )
        rows.insert(transaction.get_connection(), drawing)  # no signal listens to a drawing
        _event(
            scene, drawing, kinds.ADDED, {"drawing": drawing_data(drawing), "stroke": stroke}, by
        )
    return drawing


def drawing_seen(drawing_id: int, by):
    """The drawing and `by`'s membership, or the one refusal for a drawing
    they may not know of (none, another campaign's, one they do not see)."""
    drawing, member = find(
        Drawing.objects.select_related("scene__campaign", "by"),
        drawing_id,
        by,
        "drawing",
        campaign="scene.campaign_id",
    )
    viewer = policy.member_viewer(member, drawing.scene.campaign.settings)
    if not sees_drawing(viewer, drawing):
        raise unknown("drawing")
    return drawing, member


def _mine(drawing_id: int, by):
    """The drawing, if `by` may change it."""
    drawing, member = drawing_seen(drawing_id, by)
    if not policy.may_change_drawing(member, drawing):
        if not policy.takes_part(member):
            raise NotAllowed("an observer may not change drawings")
        raise NotAllowed("you may move or remove only your own drawings")
    return drawing


def drawing_move(*, drawing_id: int, by, dx, dy) -> Drawing:
    """Move a drawing by (dx, dy) squares, all of it staying on the map."""
    drawing = _mine(drawing_id, by)
    scene = drawing.scene
    with transaction.atomic():
        drawing = (
            Drawing.objects.select_for_update(of=("self",)).select_related("by").get(pk=drawing.pk)
        )
        was = drawing.points
        drawing.points = bounds.moved(was, dx, dy, scene.width, scene.height)
        drawing.save(update_fields=["points"])
        # `from`: a group that saw it there and not where it goes is told it went.
        data = {"drawing": drawing_data(drawing), "from": was}
        _event(scene, drawing, kinds.MOVED, data, by)
    return drawing


def drawing_remove(*, drawing_id: int, by) -> None:
    """Take a drawing off the map (a member's undo of their own stroke)."""
    drawing = _mine(drawing_id, by)
    scene = drawing.scene
    with transaction.atomic():
        gone = Drawing.objects.select_for_update().filter(pk=drawing.pk).first()
        if gone is None:
            raise unknown("drawing")
        data = {"id": gone.pk, "scene": scene.pk, "points": gone.points}
        _event(scene, gone, kinds.REMOVED, data, by)
        gone.delete()


def drawing_clear(*, scene_id: int, by, layer="all") -> list[int]:
    """The GM clears a scene's drawings, every member's: one layer or both
    (one event a layer, so the GM layer's ids reach the GM alone). The ids
    cleared."""
    layer = shapes.choice(layer, "layer", CLEAR_LAYERS)
    scene, member = _scene(scene_id, by)
    if not policy.may_clear_drawings(member):
        raise NotAllowed("only a GM may clear the drawings")
    layers = bounds.LAYERS if layer == "all" else (layer,)
    cleared = []
    with transaction.atomic():
        for one in layers:
            found = Drawing.objects.select_for_update().filter(scene=scene, layer=one)
            ids = sorted(found.values_list("pk", flat=True))
            if not ids:
                continue
            Drawing.objects.filter(pk__in=ids).delete()
            append_event(
                campaign=scene.campaign,
                kind=kinds.CLEARED,
                data={"scene": scene.pk, "layer": one, "ids": ids},
                actor=actor(by),
                visibility=policy.drawing_audience(one),
                scene_id=scene.pk,
            )
            cleared.extend(ids)
    return cleared


def _event(scene, drawing, kind: str, data: dict, by) -> None:
    append_event(
        campaign=scene.campaign,
        kind=kind,
        data=data,
        actor=actor(by),
        visibility=policy.drawing_audience(drawing.layer),
        scene_id=scene.pk,
    )
