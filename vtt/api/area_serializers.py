"""Request and response shapes of the area templates' REST endpoints. The
input serializer type-checks only; the template service checks shapes,
bounds and rights, so the socket and REST give its one answer."""

from rest_framework import serializers

from vtt.api.serializers import ID, Flag, StrictSerializer, Text, UserOut, Whole


class TemplateIn(StrictSerializer):
    scene = Whole(**ID)
    shape = Text(help_text="circle (a burst), cone, line or square")
    x = Whole(help_text="The grid intersection it stands on (the corner of square x, y).")
    y = Whole()
    size = Whole(help_text="In squares of 5 ft: a burst's radius, a square's side, a length.")
    angle = Whole(required=False, default=0, help_text="Degrees clockwise from east.")
    label = Text(required=False, default="", allow_blank=True, trim_whitespace=False)
    gm_only = Flag(default=False)


class TemplateOut(serializers.Serializer):
    id = serializers.IntegerField()
    scene_id = serializers.IntegerField()
    shape = serializers.CharField()
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    size = serializers.IntegerField()
    angle = serializers.IntegerField()
    label = serializers.CharField()
    gm_only = serializers.BooleanField()
    by = UserOut(allow_null=True)
