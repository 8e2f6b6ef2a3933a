"""Scenes (battle maps) and their background images."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.fog import vision
from vtt.fog.services import fog_edit
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.serialize import scene_data
from vtt.tabletop.services.scenes import scene_set_door

from ..permissions import campaign_access, scene_access
from ..serializers import (
    BackgroundIn,
    DoorIn,
    FogIn,
    SceneIn,
    SceneOut,
    ScenePatchIn,
    VisionOut,
)
from .base import ERRORS, READ_ERRORS, TabletopView
from .pictures import PictureView


def render_scene(scene) -> dict:
    return {
        **scene_data(scene),
        "campaign_id": scene.campaign_id,
        "active": scene.campaign.active_scene_id == scene.pk,
    }


class SceneListView(TabletopView):
    @extend_schema(responses={200: SceneOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        scenes = selectors.scenes_for(viewer, campaign_id).select_related("campaign")
        return self.page(scenes, render_scene)

    @extend_schema(request=SceneIn, responses={201: SceneOut, **ERRORS})
    def post(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        data = self.parse(SceneIn).validated_data
        scene = services.scene_create(campaign_id=campaign_id, by=request.user, **data)
        return Response(render_scene(scene), status=status.HTTP_201_CREATED)


class SceneDetailView(TabletopView):
    @extend_schema(responses={200: SceneOut, **READ_ERRORS})
    def get(self, request, scene_id):
        scene, _ = scene_access(request.user, scene_id)
        return Response(render_scene(scene))

    @extend_schema(request=ScenePatchIn, responses={200: SceneOut, **ERRORS})
    def patch(self, request, scene_id):
        scene_access(request.user, scene_id)
        fields = self.parse(ScenePatchIn).given()
        scene = services.scene_update(scene_id=scene_id, by=request.user, **fields)
        return Response(render_scene(scene))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, scene_id):
        scene_access(request.user, scene_id)
        services.scene_delete(scene_id=scene_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BackgroundView(PictureView):
    """The scene's background image, sent as multipart/form-data field `image`."""

    @extend_schema(
        request={"multipart/form-data": BackgroundIn}, responses={200: SceneOut, **ERRORS}
    )
    def put(self, request, scene_id):
        scene_access(request.user, scene_id)
        image = self.image()
        scene = services.scene_set_background(scene_id=scene_id, by=request.user, image=image)
        return Response(render_scene(scene))

    @extend_schema(responses={200: SceneOut, **ERRORS})
    def delete(self, request, scene_id):
        scene_access(request.user, scene_id)
        scene = services.scene_clear_background(scene_id=scene_id, by=request.user)
        return Response(render_scene(scene))


class ActivateView(TabletopView):
    """Put the room on this scene (GM)."""

    @extend_schema(request=None, responses={200: SceneOut, **ERRORS})
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        scene = services.scene_activate(scene_id=scene_id, by=request.user)
        return Response(render_scene(scene))


class DoorView(TabletopView):
    """Open, close, lock or unlock a door: a GM any; a player, when the table
    lets players open doors, an unlocked one next to a token of theirs."""

    @extend_schema(request=DoorIn, responses={200: SceneOut, **ERRORS})
    def patch(self, request, scene_id, index):
        scene_access(request.user, scene_id)
        state = self.parse(DoorIn).validated_data["state"]
        scene = scene_set_door(scene_id=scene_id, by=request.user, wall=index, state=state)
        return Response(render_scene(scene))


class FogView(TabletopView):
    """The GM's hand on the fog: reset, reveal or cover an area (docs/vision.md)."""

    @extend_schema(request=FogIn, responses={200: VisionOut, **ERRORS})
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        data = self.parse(FogIn).validated_data
        scene = fog_edit(scene_id=scene_id, by=request.user, **data)
        return Response(vision.vision_of(scene.pk, data.get("group") or vision.PARTY))


class VisionView(TabletopView):
    """What the caller's group sees of a fog scene now (the GM: the party's,
    or `?group=`); 204 for a scene without fog."""

    @extend_schema(responses={200: VisionOut, 204: None, **READ_ERRORS})
    def get(self, request, scene_id):
        scene, viewer = scene_access(request.user, scene_id)
        group = viewer.group
        if policy.runs_table(viewer):
            group = request.query_params.get("group") or vision.PARTY
        seen = vision.vision_of(scene.pk, group)
        if seen is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(seen)
