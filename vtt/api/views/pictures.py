"""Uploaded pictures: a scene's background, a character's portrait and a
token's art, each sent as multipart/form-data field `image` and checked and
re-encoded by the services (vtt.pictures.images)."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from vtt.core.errors import ServiceError
from vtt.pictures.images import megabytes
from vtt.tabletop import policy, services
from vtt.tabletop.serialize import character_data, token_data

from ..permissions import character_access, token_access
from ..serializers import CharacterOut, PictureIn, TokenOut
from .base import ERRORS, TabletopView

# Room for the multipart envelope around a largest allowed image.
ENVELOPE_BYTES = 64 * 1024


class PictureView(TabletopView):
    """A view that takes one uploaded image in the field `image`."""

    parser_classes = [MultiPartParser, FormParser]

    def image(self):
        # Refuse a body too big to hold an allowed image before reading it.
        length = self.request.META.get("CONTENT_LENGTH") or "0"
        max_bytes = settings.IMAGE_MAX_BYTES
        if not length.isdigit() or int(length) > max_bytes + ENVELOPE_BYTES:
            raise ServiceError(
                "image_too_large", f"the image must be at most {megabytes(max_bytes)}", "image"
            )
        return self.parse(PictureIn).validated_data["image"]


class PortraitView(PictureView):
    """The character's portrait (its owner or a GM). Every token of the
    character without art of its own shows it."""

    @extend_schema(
        request={"multipart/form-data": PictureIn}, responses={200: CharacterOut, **ERRORS}
    )
    def put(self, request, character_id):
        _, viewer = character_access(request.user, character_id)
        character = services.character_set_portrait(
            character_id=character_id, by=request.user, image=self.image()
        )
        return Response(character_data(character, gm=policy.runs_table(viewer)))

    @extend_schema(
        request={"multipart/form-data": PictureIn}, responses={200: CharacterOut, **ERRORS}
    )
    def post(self, request, character_id):
        return self.put(request, character_id)

    @extend_schema(request=None, responses={200: CharacterOut, **ERRORS})
    def delete(self, request, character_id):
        _, viewer = character_access(request.user, character_id)
        character = services.character_clear_portrait(character_id=character_id, by=request.user)
        return Response(character_data(character, gm=policy.runs_table(viewer)))


class TokenArtView(PictureView):
    """The token's own art (a GM, or the owner of the token's character)."""

    @extend_schema(request={"multipart/form-data": PictureIn}, responses={200: TokenOut, **ERRORS})
    def put(self, request, token_id):
        token_access(request.user, token_id)
        token = services.token_set_art(token_id=token_id, by=request.user, image=self.image())
        return Response(token_data(token))

    @extend_schema(request={"multipart/form-data": PictureIn}, responses={200: TokenOut, **ERRORS})
    def post(self, request, token_id):
        return self.put(request, token_id)

    @extend_schema(request=None, responses={200: TokenOut, **ERRORS})
    def delete(self, request, token_id):
        token_access(request.user, token_id)
        token = services.token_clear_art(token_id=token_id, by=request.user)
        return Response(token_data(token))
