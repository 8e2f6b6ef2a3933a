"""The GM's hand on the fog of war: forget what the players explored, or
reveal or cover an area of it. What they see now stays seen: the fog hides
what no token of theirs sees."""

from django.db import transaction

from vtt.core import shapes
from vtt.rules import sight
from vtt.tabletop import event_kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Scene, SceneSight
from vtt.tabletop.services.access import actor
from vtt.tabletop.services.scenes import scene_for_gm

from . import vision

ACTIONS = ("reset", "reveal", "cover")


def fog_edit(*, scene_id: int, by, action: str, rect=None, group: str | None = None) -> Scene:
    """`reset` forgets the explored area (down to the view now), `reveal`
    adds the rectangle [x, y, w, h] (squares) to it and `cover` takes the
    rectangle out. For one group, or every group (`group` None)."""
    scene = scene_for_gm(scene_id, by, "change the fog")
    if action not in ACTIONS:
        raise shapes.invalid("action", "must be reset, reveal or cover")
    area = None if action == "reset" else _rect(rect, scene)
    if group is not None and (not isinstance(group, str) or len(group) > 24):
        raise shapes.invalid("group", 'must be "party" or "u<user id>"')
    with transaction.atomic():
        scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene_id)
        players = vision.players_of(scene.campaign_id)
        groups = vision.groups_of(players, scene.campaign.settings)
        if group is not None and group not in groups:
            raise shapes.invalid("group", "no such group sees this campaign's scenes")
        for name in [group] if group else groups:
            record, _ = SceneSight.objects.get_or_create(
                scene=scene, group=name, defaults={"active": scene.fog}
            )
            explored = sight.from_path(record.explored)
            if action == "reset":
                explored = sight.from_path(record.view)
            elif action == "reveal":
                explored = sight.union(explored, area)
            else:
                explored = sight.difference(explored, area)
            record.explored = sight.to_path(explored)
            record.save(update_fields=["explored"])
        append_event(
            campaign=scene.campaign,
            kind=event_kinds.FOG_CHANGED,
            data={"scene_id": scene.pk, "action": action, "group": group},
            actor=actor(by),
            scene_id=scene.pk,
        )
    return scene


def _rect(rect, scene: Scene):
    if not isinstance(rect, list) or len(rect) != 4:
        raise shapes.invalid("rect", "must be [x, y, width, height] in squares")
    x = shapes.number(rect[0], "rect[0]", 0, scene.width)
    y = shapes.number(rect[1], "rect[1]", 0, scene.height)
    w = shapes.number(rect[2], "rect[2]", 0, scene.width - x)
    h = shapes.number(rect[3], "rect[3]", 0, scene.height - y)
    if not w or not h:
        raise shapes.invalid("rect", "the area must have a width and a height")
    return sight.rect(x, y, w, h)
