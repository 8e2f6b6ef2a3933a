"""Placing and removing area templates, and reading them: each change one
room event (vtt.areas.kinds) in the transaction that makes it; who may do
what is the policy's (may_place_template, may_remove_template,
sees_template)."""

from django.db import transaction

from vtt.core import shapes
from vtt.tabletop import policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Scene, Visibility
from vtt.tabletop.serialize import user_data
from vtt.tabletop.services.access import actor, find, unknown
from vtt.tabletop.services.errors import NotAllowed

from . import geometry, kinds
from .models import AreaTemplate

MAX_TEMPLATES_PER_SCENE = 200  # a busy fight's worth, and then some
MAX_LABEL = 40  # what it is ("Fireball"): a tooltip, not a note


def template_data(template: AreaTemplate) -> dict:
    """A template as events, snapshots and the REST API carry it."""
    return {
        "id": template.pk,
        "scene_id": template.scene_id,
        "shape": template.shape,
        "x": template.x,
        "y": template.y,
        "size": template.size,
        "angle": template.angle,
        "label": template.label,
        "gm_only": template.gm_only,
        "by": user_data(template.by),
    }


def _size(value) -> int:
    if type(value) is not int:
        raise shapes.invalid("size", "must be a whole number of squares")
    if not geometry.MIN_SIZE <= value <= geometry.MAX_SIZE:
        low, high = geometry.MIN_SIZE, geometry.MAX_SIZE
        raise shapes.invalid(
            "size",
            f"must be between {low} and {high} squares ({geometry.feet(low)} to"
            f" {geometry.feet(high)} ft), not {value}",
        )
    return value


def template_place(
    *, scene_id: int, by, shape, x, y, size, angle=0, label="", gm_only=False
) -> AreaTemplate:
    """Put a template on a scene. A player places on the room's scene only,
    and never a GM-only one."""
    if type(scene_id) is not int:
        raise shapes.invalid("scene", "must be a scene id")
    scene, member = find(
        Scene.objects.select_related("campaign"), scene_id, by, "scene", "scene", with_campaign=True
    )
    viewer = policy.member_viewer(member)
    if not policy.sees_scene(viewer, scene):
        raise unknown("scene", "scene")
    gm_only = shapes.boolean(gm_only, "gm_only")
    if not policy.may_place_template(member, gm_only=gm_only):
        if not policy.takes_part(member):
            raise NotAllowed("an observer may not place templates")
        raise NotAllowed("only a GM may place a GM-only template", "gm_only")
    shape = shapes.choice(shape, "shape", geometry.SHAPES)
    size = _size(size)
    x = shapes.whole(x, "x", 0, scene.width)
    y = shapes.whole(y, "y", 0, scene.height)
    angle = shapes.whole(angle, "angle", 0, 359) if shape in geometry.TURNING else 0
    label = shapes.text(label, "label", MAX_LABEL, blank=True)
    with transaction.atomic():
        scene = Scene.objects.select_for_update().select_related("campaign").get(pk=scene.pk)
        if AreaTemplate.objects.filter(scene=scene).count() >= MAX_TEMPLATES_PER_SCENE:
            raise shapes.invalid(
                "scene", f"a scene holds at most {MAX_TEMPLATES_PER_SCENE} templates: remove some"
            )
        template = AreaTemplate.objects.create(
            scene=scene,
            shape=shape,
            x=x,
            y=y,
            size=size,
            angle=angle,
            label=label,
            gm_only=gm_only,
            by=actor(by),
        )
        _announce(template, kinds.TEMPLATE_PLACED, by)
    return template


def template_remove(*, template_id, by) -> None:
    """Take a template off its scene: a GM any, a player their own. The
    undo of a placement."""
    template, member = template_for(template_id, by)
    if not policy.may_remove_template(member, template):
        raise NotAllowed("only a GM or whoever placed it may remove a template", "template")
    with transaction.atomic():
        locked = AreaTemplate.objects.select_for_update().filter(pk=template.pk).first()
        if locked is None:
            raise unknown("template", "template")
        _announce(template, kinds.TEMPLATE_REMOVED, by)
        locked.delete()


def _announce(template: AreaTemplate, kind: str, by) -> None:
    append_event(
        campaign=template.scene.campaign,
        kind=kind,
        data={"template": template_data(template)},
        actor=actor(by),
        visibility=Visibility.GM if template.gm_only else Visibility.PUBLIC,
        scene_id=template.scene_id,
    )


def template_for(template_id, by) -> tuple[AreaTemplate, object]:
    """The template and `by`'s membership, if they may see it; the same
    `unknown` whether there is none or the GM keeps it from them."""
    if type(template_id) is not int:
        raise shapes.invalid("template", "must be a template id")
    template, member = find(
        AreaTemplate.objects.select_related("scene__campaign", "by"),
        template_id,
        by,
        "template",
        "template",
        campaign="scene.campaign_id",
    )
    if not policy.sees_template(policy.member_viewer(member), template):
        raise unknown("template", "template")
    return template, member


def templates_for(viewer, campaign_id: int, scene_id: int | None = None):
    """The campaign's templates `viewer` sees (of one scene, when named)."""
    found = AreaTemplate.objects.filter(scene__campaign_id=campaign_id).filter(
        policy.visible_templates_q(viewer)
    )
    if scene_id is not None:
        found = found.filter(scene_id=scene_id)
    return found.select_related("by").order_by("id")


def template_covers(template: AreaTemplate) -> set[tuple[int, int]]:
    """The squares of its scene the template covers."""
    scene = template.scene
    return geometry.squares(
        template.shape,
        template.x,
        template.y,
        template.size,
        template.angle,
        scene.width,
        scene.height,
    )
