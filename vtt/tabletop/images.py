"""Uploaded pictures: the one place a file from a browser is judged to be an
image and turned into the files we keep. Battle-map backgrounds, character
portraits and token art all come through here.

The type is read from the content by Pillow, never from the file's name or
the browser's content type. Bytes, sides and pixels are bounded before
anything is decoded (a small PNG can claim a billion pixels). What is stored
is always re-encoded from the decoded pixels, so no metadata (EXIF with a
phone's GPS position, comments, colour profiles) survives, and a photo's
EXIF orientation is applied to the pixels first. Files are written through
Django's storage API under random names, so the default file system and an
S3-compatible bucket (django-storages) behave alike."""

import io
import secrets
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.db import transaction
from PIL import Image, ImageOps, UnidentifiedImageError

from .errors import ServiceError

MAX_IMAGE_BYTES = 10 * 1024 * 1024
# What Pillow can tell apart and we accept, and the extension each keeps
# when a background is re-encoded in its own kind.
ACCEPTED = {"PNG": "png", "JPEG": "jpg", "GIF": "gif", "WEBP": "webp"}
# Square thumbnails of portraits and token art: a token on the map at
# ordinary zooms, and at high zoom or on a dense screen.
THUMB_SIDES = (128, 256)
# The largest side a portrait or token art is kept at: a sheet's picture.
ART_SIDE = 1024


@dataclass(frozen=True)
class Limits:
    max_bytes: int
    max_side: int
    max_pixels: int


# A battle map: up to 200 squares a side at 40 px a square.
BACKGROUND = Limits(MAX_IMAGE_BYTES, 8192, 8192 * 8192)
# A portrait or token art: a phone's photo fits; the result is small anyway.
ART = Limits(MAX_IMAGE_BYTES, 8192, 40_000_000)


def _refuse(code: str, message: str, field: str):
    return ServiceError(code, message, field)


def _megabytes(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB"


def check_image(upload, *, field: str = "image", limits: Limits = BACKGROUND) -> str:
    """A real PNG, JPEG, GIF or WebP within `limits`; the extension its kind
    is stored under. Reads the header and verifies the file without decoding
    the whole picture. Raises ServiceError on `field` otherwise."""
    with _opened(upload, field, limits) as image:
        kind = image.format
        try:
            image.verify()
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
    return ACCEPTED[kind]


class _opened:
    """Open an upload with Pillow and check its kind, bytes, sides and
    pixels; every failure of a hostile file becomes a field error."""

    def __init__(self, upload, field: str, limits: Limits):
        self.upload, self.field, self.limits = upload, field, limits
        self.image = None

    def __enter__(self) -> Image.Image:
        upload, field, limits = self.upload, self.field, self.limits
        size = getattr(upload, "size", None)
        if size is None or size > limits.max_bytes:
            raise _refuse(
                "image_too_large", f"the image must be at most {_megabytes(limits.max_bytes)}", field
            )
        # Pillow reads a copy (at most the limit, whatever the upload says
        # of its size): closing its image must not close the upload.
        upload.seek(0)
        data = upload.read(limits.max_bytes + 1)
        upload.seek(0)
        if len(data) > limits.max_bytes:
            raise _refuse(
                "image_too_large", f"the image must be at most {_megabytes(limits.max_bytes)}", field
            )
        try:
            self.image = Image.open(io.BytesIO(data))
        except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _refuse("bad_image", "the file is not an image we can read", field) from None
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
        try:
            kind = self.image.format
            width, height = self.image.size
            if kind not in ACCEPTED:
                raise _refuse("bad_image", "the image must be a PNG, JPEG, GIF or WebP", field)
            if width > limits.max_side or height > limits.max_side:
                raise _refuse(
                    "image_too_large",
                    f"the image must be at most {limits.max_side} px a side, not {width} x {height}",
                    field,
                )
            if width * height > limits.max_pixels:
                raise _refuse(
                    "image_too_large",
                    f"the image must have at most {limits.max_pixels} pixels, not {width * height}",
                    field,
                )
        except BaseException:
            self.__exit__()
            raise
        return self.image

    def __exit__(self, *exc):
        if self.image is not None:
            self.image.close()
        self.upload.seek(0)
        return False


def _decoded(upload, field: str, limits: Limits, largest: int | None) -> tuple[Image.Image, str]:
    """The picture's pixels, upright (EXIF orientation applied), in RGB or
    RGBA, shrunk to `largest` px a side; and the kind it came as."""
    with _opened(upload, field, limits) as image:
        kind = image.format
        if largest and kind == "JPEG":
            # Decode a large photo at a fraction of its size: less memory.
            image.draft("RGB", (largest, largest))
        try:
            image.load()
            upright = ImageOps.exif_transpose(image)
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
        except Image.DecompressionBombError:
            raise _refuse("bad_image", "the file is not an image we can read", field) from None
        has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
        pixels = upright.convert("RGBA" if has_alpha else "RGB")
    if largest and max(pixels.size) > largest:
        pixels.thumbnail((largest, largest), Image.Resampling.LANCZOS)
    return pixels, kind


def _encode(pixels: Image.Image, kind: str) -> bytes:
    """Fresh bytes from pixels alone: nothing of the upload's metadata."""
    buffer = io.BytesIO()
    if kind == "JPEG":
        pixels.convert("RGB").save(buffer, "JPEG", quality=88, optimize=True)
    elif kind == "WEBP":
        pixels.save(buffer, "WEBP", quality=85, method=4)
    else:
        pixels.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def _square(pixels: Image.Image, side: int) -> Image.Image:
    """The centre of the picture as a square of `side` px: what a round
    token shows. Faces sit high in a portrait, so a tall picture is cut
    nearer its top."""
    width, height = pixels.size
    edge = min(width, height)
    left = (width - edge) // 2
    top = (height - edge) // 4 if height > width else 0
    square = pixels.crop((left, top, left + edge, top + edge))
    return square.resize((side, side), Image.Resampling.LANCZOS)


@dataclass(frozen=True)
class Encoded:
    """Re-encoded files ready to store: the main picture, and square
    thumbnails by side."""

    extension: str
    image: bytes
    thumbs: dict


def reencode_background(upload, *, field: str = "image") -> Encoded:
    """A battle map as its own kind (a photo stays a JPEG, a drawing a PNG or
    WebP; a GIF becomes a PNG of its first frame), without metadata."""
    pixels, kind = _decoded(upload, field, BACKGROUND, None)
    kind = "PNG" if kind == "GIF" else kind
    return Encoded(ACCEPTED[kind], _encode(pixels, kind), {})


def reencode_art(upload, *, field: str = "image") -> Encoded:
    """A portrait or token art as WebP at most ART_SIDE px a side, with its
    square thumbnails."""
    pixels, _ = _decoded(upload, field, ART, ART_SIDE)
    thumbs = {side: _encode(_square(pixels, side), "WEBP") for side in THUMB_SIDES}
    return Encoded("webp", _encode(pixels, "WEBP"), thumbs)


def random_name(folder: str) -> str:
    """An unguessable file stem: a hidden token's art is only as private as
    its URL, since media is served without asking who wants it."""
    return f"{folder.rstrip('/')}/{secrets.token_urlsafe(18)}"


def save_files(storage, folder: str, encoded: Encoded) -> dict:
    """Store the picture and its thumbnails under one random stem; returns
    {"image": name, 128: name, ...} as the storage named them. On a failure
    part way, what was written is deleted again."""
    stem = random_name(folder)
    names = {}
    try:
        names["image"] = storage.save(f"{stem}.{encoded.extension}", ContentFile(encoded.image))
        for side, data in encoded.thumbs.items():
            names[side] = storage.save(f"{stem}-{side}.{encoded.extension}", ContentFile(data))
    except BaseException:
        delete_files(storage, names.values())
        raise
    return names


def delete_files(storage, names) -> None:
    for name in names:
        if name:
            storage.delete(name)


def forget_files(storage, names) -> None:
    """Delete stored files once the transaction that dropped them commits
    (never before: a rollback keeps the row pointing at them)."""
    names = [name for name in names if name]
    if names:
        transaction.on_commit(lambda: delete_files(storage, names))


def stored_names(row, fields) -> list[str]:
    """The names of the files a row's picture fields point at."""
    return [getattr(row, field).name for field in fields if getattr(row, field)]


def forget_pictures(rows) -> None:
    """forget_files for every picture of model rows about to be deleted
    (rows of one model with PICTURE_FIELDS)."""
    rows = list(rows)
    if rows:
        fields = rows[0].PICTURE_FIELDS
        storage = getattr(rows[0], fields[0]).storage
        forget_files(storage, [name for row in rows for name in stored_names(row, fields)])
