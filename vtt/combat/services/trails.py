"""The moves of the current turn: a player may put their token back where it
stood when the turn began; a GM may wipe the scene's trails (outside an
encounter the trail runs until then, or until an encounter starts)."""

from django.db import transaction

from vtt.tabletop import event_kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Scene, Token
from vtt.tabletop.services.access import actor, as_gm, find
from vtt.tabletop.services.errors import ServiceError
from vtt.tabletop.services.tokens import footprint_fits, token_controlled, token_place

from ..models import TrailStep


def token_reset(*, token_id: int, by) -> Token:
    """Move the token back to where it started this turn (its controllers or a
    GM). Announced as a token.moved with "reset": true; nothing happens when
    it has not moved."""
    token, _ = token_controlled(token_id, by)
    with transaction.atomic():
        token = (
            Token.objects.select_for_update(of=("self",))
            .select_related("scene__campaign")
            .get(pk=token.pk)
        )
        first = TrailStep.objects.filter(token=token).order_by("seq").first()
        if first is None or (token.x, token.y) == (first.from_x, first.from_y):
            return token
        x, y = first.from_x, first.from_y
        if not footprint_fits(token.scene, x, y, token.size):
            raise ServiceError(
                "out_of_bounds", "the square the turn began on is no longer on the map", "token"
            )
        token_place(token, x, y, by, reset=True)
    return token


def clear_trails(scene_id: int) -> None:
    TrailStep.objects.filter(scene_id=scene_id).delete()


def trails_clear(*, scene_id: int, by) -> None:
    """Start every token's trail afresh (GM): "trails.cleared" {"scene_id"}."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene")
    as_gm(member, "clear trails")
    with transaction.atomic():
        clear_trails(scene.pk)
        append_event(
            campaign=scene.campaign,
            kind=event_kinds.TRAILS_CLEARED,
            data={"scene_id": scene.pk},
            actor=actor(by),
        )
