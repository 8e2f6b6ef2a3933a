"""Scenes (battle maps) and their background images."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from vtt.core.errors import ServiceError
from vtt.fog import lit_areas, vision
from vtt.fog.services import fog_edit
from vtt.maps.importing import map_import, map_preview, read_upload
from vtt.maps.wall_edits import wall_add, wall_change, wall_delete
from vtt.pictures.images import megabytes
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.serialize import light_data, scene_data
from vtt.tabletop.services.scenes import scene_set_door

from ..permissions import campaign_access, scene_access
from ..serializers import (
    BackgroundIn,
    DoorIn,
    FogIn,
    MapImportIn,
    MapImportOut,
    SceneIn,
    SceneOut,
    ScenePatchIn,
    VisionOut,
    WallChangeIn,
    WallDeleteIn,
    WallIn,
)
from .base import ERRORS, READ_ERRORS, TabletopView
from .pictures import PictureView


def render_scene(scene, viewer=None, lit=False) -> dict:
    """A scene as the API answers it; with its lights when `viewer` may
    see them (policy.sees_lights), and with `lit` on a dim or dark scene
    where they shine (`lit_areas`: the GM's map draws them)."""
    data = {
        **scene_data(scene),
        "campaign_id": scene.campaign_id,
        "active": scene.campaign.active_scene_id == scene.pk,
    }
    if viewer is not None and policy.sees_lights(viewer, scene):
        data["lights"] = [light_data(light) for light in scene.lights.all()]
        if lit and not scene.lit:
            data["lit_areas"] = lit_areas.lit_areas(scene)
    return data


class SceneListView(TabletopView):
    @extend_schema(responses={200: SceneOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        scenes = selectors.scenes_for(viewer, campaign_id).select_related("campaign")
        scenes = scenes.prefetch_related("lights")
        return self.page(scenes, lambda scene: render_scene(scene, viewer))

    @extend_schema(request=SceneIn, responses={201: SceneOut, **ERRORS})
    def post(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        data = self.parse(SceneIn).validated_data
        scene = services.scene_create(campaign_id=campaign_id, by=request.user, **data)
        return Response(render_scene(scene), status=status.HTTP_201_CREATED)


class SceneDetailView(TabletopView):
    @extend_schema(responses={200: SceneOut, **READ_ERRORS})
    def get(self, request, scene_id):
        scene, viewer = scene_access(request.user, scene_id)
        return Response(render_scene(scene, viewer, lit=True))

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


# Room for the multipart envelope and the form's other fields.
ENVELOPE_BYTES = 64 * 1024


class MapImportView(TabletopView):
    """A Universal VTT map file, sent as multipart/form-data field `file`
    (docs/maps.md)."""

    parser_classes = [MultiPartParser, FormParser]

    def fields(self) -> dict:
        # Refuse a body too big to hold an allowed file before reading it.
        length = self.request.META.get("CONTENT_LENGTH") or "0"
        most = settings.MAP_IMPORT_MAX_BYTES
        if not length.isdigit() or int(length) > most + ENVELOPE_BYTES:
            raise ServiceError(
                "bad_map",
                f"a map file may be at most {megabytes(most)} (MAP_IMPORT_MAX_BYTES)",
                "file",
            )
        data = self.parse(MapImportIn).validated_data
        data["data"] = read_upload(data.pop("file"))
        return data

    def answer(self, request, plan, scene=None, created=False) -> Response:
        body = {
            "scene": render_scene(scene, scene_access(request.user, scene.pk)[1])
            if scene
            else None,
            "plan": plan.as_dict(),
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class CampaignMapImportView(MapImportView):
    """A new scene from a map file (GM); `dry_run` only counts."""

    @extend_schema(
        request={"multipart/form-data": MapImportIn},
        responses={200: MapImportOut, 201: MapImportOut, **ERRORS},
    )
    def post(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        fields = self.fields()
        fields.pop("replace")
        if fields.pop("dry_run"):
            return self.answer(
                request, map_preview(campaign_id=campaign_id, by=request.user, **fields)
            )
        scene, plan = map_import(campaign_id=campaign_id, by=request.user, **fields)
        return self.answer(request, plan, scene, created=True)


class SceneMapImportView(MapImportView):
    """The scene's map from a file (GM): its walls, doors and map lights
    replaced, which `replace` must confirm when it has any; its tokens
    stay. `dry_run` only counts, and says what would be replaced."""

    @extend_schema(
        request={"multipart/form-data": MapImportIn}, responses={200: MapImportOut, **ERRORS}
    )
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        fields = self.fields()
        fields.pop("name", None)
        replace = fields.pop("replace")
        if fields.pop("dry_run"):
            return self.answer(request, map_preview(scene_id=scene_id, by=request.user, **fields))
        scene, plan = map_import(scene_id=scene_id, by=request.user, replace=replace, **fields)
        return self.answer(request, plan, scene)


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


class WallListView(TabletopView):
    """The GM adds a wall, door or window to a scene."""

    @extend_schema(request=WallIn, responses={201: SceneOut, **ERRORS})
    def post(self, request, scene_id):
        scene_access(request.user, scene_id)
        wall = self.parse(WallIn).validated_data["wall"]
        scene = wall_add(scene_id=scene_id, by=request.user, wall=wall)
        return Response(render_scene(scene), status=status.HTTP_201_CREATED)


class WallView(TabletopView):
    """The GM moves, changes or deletes the segment `walls[index]`, named
    with the ends the GM saw there (docs/vision.md, "Editing walls")."""

    @extend_schema(request=WallChangeIn, responses={200: SceneOut, **ERRORS})
    def patch(self, request, scene_id, index):
        scene_access(request.user, scene_id)
        data = self.parse(WallChangeIn).validated_data
        scene = wall_change(scene_id=scene_id, by=request.user, index=index, **data)
        return Response(render_scene(scene))

    @extend_schema(request=WallDeleteIn, responses={200: SceneOut, **ERRORS})
    def delete(self, request, scene_id, index):
        scene_access(request.user, scene_id)
        was = self.parse(WallDeleteIn).validated_data["was"]
        scene = wall_delete(scene_id=scene_id, by=request.user, index=index, was=was)
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
