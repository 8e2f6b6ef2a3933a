"""Universal VTT import on the GM console (docs/maps.md): a map file
uploaded, counted and shown (walls once simplified, doors, lights, what a
scene would lose), counted again at another tolerance if the GM likes,
then imported as a new scene or as a scene's map. The count comes with a
sketch (the picture small, the walls, doors and lights drawn over it), so
the GM sees whether they lie where the picture has them. Nothing is saved
before the GM says so; a re-import replaces walls, doors and lights only
with the box that says so ticked."""

import base64
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from vtt.maps.importing import map_import, map_preview, map_review, read_upload
from vtt.tabletop.models import Scene
from vtt.tabletop.services import ServiceError

from .. import map_staging
from ..access import gm_membership_or_404
from ..gm_forms import MapConfirmForm, MapFileForm
from .gm import _console, _scene_page


def _scene(campaign_id: int, scene_id: int | None) -> Scene | None:
    if scene_id is None:
        return None
    return get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)


def _back(request, membership, scene, form, status=400):
    """The page the upload came from, its error on the map form."""
    if scene is None:
        return _console(request, membership, status=status, map_form=form)
    return _scene_page(request, membership, scene, status=status, map_form=form)


def _review(request, membership, scene, plan, form, status=200, sketch=None):
    context = {
        "campaign": membership.campaign,
        "scene": scene,
        "plan": plan,
        "form": form,
        "replaces": plan is not None and plan.replaces and any(plan.replaces.values()),
        "sketch": sketch,
        # Inline: the picture is in no storage until the import (img-src allows data:).
        "sketch_picture": sketch
        and "data:image/webp;base64," + base64.b64encode(sketch.picture).decode(),
    }
    return render(request, "web/map_import_review.html", context, status=status)


def _sketch(asked: dict):
    """The sketch for a page that is shown again (a refused import), or
    None if the picture cannot be worked on now."""
    try:
        return map_review(**asked)[1]
    except ServiceError:
        return None


def _on_form(form, error: ServiceError) -> None:
    field = error.field if error.field in ("simplify", "replace") else None
    form.add_error(field, error.message)


@login_required
@require_POST
def map_upload(request, campaign_id: int, scene_id: int | None = None):
    """The first step: the file judged whole and counted, then kept."""
    membership = gm_membership_or_404(request.user, campaign_id)
    scene = _scene(campaign_id, scene_id)
    form = MapFileForm(
        request.POST, request.FILES, auto_id="map-new-%s" if scene is None else "map-%s"
    )
    if not form.is_valid():
        return _back(request, membership, scene, form)
    upload = form.cleaned_data["file"]
    name = form.cleaned_data["name"] or Path(upload.name or "").stem[:120] or "Imported map"
    try:
        data = read_upload(upload)
        plan, sketch = map_review(
            by=request.user,
            data=data,
            campaign_id=campaign_id,
            scene_id=scene_id,
            name=name,
            simplify=form.cleaned_data["simplify"],
        )
    except ServiceError as error:
        form.add_error("simplify" if error.field == "simplify" else "file", error.message)
        return _back(request, membership, scene, form)
    map_staging.stage(request, data, campaign_id=campaign_id, scene_id=scene_id, name=name)
    confirm = MapConfirmForm(initial={"simplify": plan.simplify})
    return _review(request, membership, scene, plan, confirm, sketch=sketch)


@login_required
@require_POST
def map_confirm(request, campaign_id: int, scene_id: int | None = None):
    """The second step: count again (`action=count`) or import."""
    membership = gm_membership_or_404(request.user, campaign_id)
    scene = _scene(campaign_id, scene_id)
    pending = map_staging.staged(request, campaign_id=campaign_id, scene_id=scene_id)
    if pending is None:
        messages.error(request, "The uploaded map is no longer here: upload it again.")
        if scene is None:
            return redirect("web:gm", campaign_id=campaign_id)
        return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=scene.pk)
    staged, data = pending
    form = MapConfirmForm(request.POST)
    asked = {"by": request.user, "data": data, "campaign_id": campaign_id, "scene_id": scene_id}
    asked["name"] = staged["name"]
    if not form.is_valid():
        return _review(request, membership, scene, None, form, status=400)
    asked["simplify"] = form.cleaned_data["simplify"]
    counting = request.POST.get("action") == "count"
    try:
        # The sketch decodes the picture: only for a page that shows it.
        plan, sketch = map_review(**asked) if counting else (map_preview(**asked), None)
    except ServiceError as error:
        _on_form(form, error)
        return _review(request, membership, scene, None, form, status=400)
    if counting:
        return _review(request, membership, scene, plan, form, sketch=sketch)
    try:
        made, _ = map_import(**asked, replace=form.cleaned_data["replace"])
    except ServiceError as error:
        _on_form(form, error)
        return _review(request, membership, scene, plan, form, status=400, sketch=_sketch(asked))
    map_staging.discard(request)
    messages.success(
        request,
        f"Map imported: {plan.walls} walls, {plan.doors} doors and {plan.lights} lights.",
    )
    return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=made.pk)
