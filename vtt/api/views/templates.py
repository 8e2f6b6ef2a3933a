"""Area templates on the map (vtt.areas)."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.areas import services as areas
from vtt.tabletop.models import Scene
from vtt.tabletop.services.access import unknown

from ..area_serializers import TemplateIn, TemplateOut
from ..permissions import campaign_access
from .base import ERRORS, READ_ERRORS, TabletopView


class TemplateListView(TabletopView):
    """The campaign's templates you see (a GM-only one, or one on another
    scene: the GM's); `?scene=` keeps one scene's."""

    @extend_schema(responses={200: TemplateOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        scene = request.query_params.get("scene")
        scene_id = int(scene) if scene and scene.isdigit() and len(scene) < 19 else None
        found = areas.templates_for(viewer, campaign_id, scene_id)
        return self.page(found, areas.template_data)

    @extend_schema(request=TemplateIn, responses={201: TemplateOut, **ERRORS})
    def post(self, request, campaign_id):
        # A stranger learns nothing of the campaign, whatever the body says.
        campaign_access(request.user, campaign_id)
        data = dict(self.parse(TemplateIn).validated_data)
        scene_id = data.pop("scene")
        if not Scene.objects.filter(pk=scene_id, campaign_id=campaign_id).exists():
            raise unknown("scene", "scene")
        template = areas.template_place(scene_id=scene_id, by=request.user, **data)
        return Response(areas.template_data(template), status=status.HTTP_201_CREATED)


class TemplateDetailView(TabletopView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, template_id):
        areas.template_remove(template_id=template_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
