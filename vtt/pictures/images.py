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

import contextlib
import io
import secrets
import threading
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from PIL import Image, ImageOps

from vtt.core.errors import Busy, ServiceError

# What Pillow can tell apart and we accept, and the extension each keeps
# when a background is re-encoded in its own kind.
ACCEPTED = {"PNG": "png", "JPEG": "jpg", "GIF": "gif", "WEBP": "webp"}
# Square thumbnails of portraits and token art: a token on the map at
# ordinary zooms, and at high zoom or on a dense screen.
THUMB_SIDES = (128, 256)
# The largest side a portrait or token art is kept at: a sheet's picture.
ART_SIDE = 1024
# How long an upload waits for another's image work in this process to end
# before it is turned away as busy; and when it is told to come back.
WAIT_SECONDS = 10
RETRY_AFTER_SECONDS = 5

# The kinds of picture, as the refusals name them; each has its own limits
# in the settings (<PREFIX>_MAX_SIDE, <PREFIX>_MAX_PIXELS).
BACKGROUND, PORTRAIT, TOKEN_ART = "background", "portrait", "token art"
_SETTINGS_PREFIX = {BACKGROUND: "BACKGROUND", PORTRAIT: "PORTRAIT", TOKEN_ART: "TOKEN_ART"}


@dataclass(frozen=True)
class Limits:
    kind: str
    max_bytes: int
    max_side: int
    # Pixels decoded: a JPEG to be shrunk is decoded at a fraction of its
    # size (draft), so only what is decoded counts.
    max_pixels: int
    # The side a portrait or token art is kept at (None: as it came).
    shrink_to: int | None = None


def limits_for(kind: str) -> Limits:
    """The limits of a kind of picture, as the settings have them now."""
    prefix = _SETTINGS_PREFIX[kind]
    return Limits(
        kind,
        settings.IMAGE_MAX_BYTES,
        getattr(settings, f"{prefix}_MAX_SIDE"),
        getattr(settings, f"{prefix}_MAX_PIXELS"),
        None if kind == BACKGROUND else ART_SIDE,
    )


def largest_pixel_limit() -> int:
    """Pillow's own bomb limit (Image.MAX_IMAGE_PIXELS, set when the app
    starts): no picture of ours is decoded past the largest kind's."""
    return max(limits_for(kind).max_pixels for kind in _SETTINGS_PREFIX)


class _Slots:
    """At most IMAGE_WORK_AT_ONCE decodes and encodes in this process at
    once: each may take up to about 100 MiB while it runs, and uploads that
    come together (requests run in threads) must not add that up."""

    def __init__(self):
        self.lock = threading.Lock()
        self.at_once = None
        self.semaphore = None

    def current(self) -> tuple[threading.Semaphore, int]:
        at_once = max(1, settings.IMAGE_WORK_AT_ONCE)
        with self.lock:
            if self.at_once != at_once:
                self.at_once, self.semaphore = at_once, threading.BoundedSemaphore(at_once)
            return self.semaphore, at_once


_slots = _Slots()


@contextlib.contextmanager
def image_work():
    """Hold one of the process's slots for image work while decoding and
    encoding; Busy if none frees within WAIT_SECONDS."""
    semaphore, at_once = _slots.current()
    if not semaphore.acquire(timeout=WAIT_SECONDS):
        raise Busy(
            f"the server is working on other pictures (at most {at_once} at a time); "
            f"try again in {RETRY_AFTER_SECONDS} seconds",
            RETRY_AFTER_SECONDS,
            "image",
        )
    try:
        yield
    finally:
        semaphore.release()


def _refuse(code: str, message: str, field: str):
    return ServiceError(code, message, field)


def megabytes(limit: int) -> str:
    return f"{limit / (1024 * 1024):g} MB"


def _weight(image: Image.Image, limits: Limits) -> tuple[int, str]:
    """How many times its pixels a picture counts against the limit, and
    what the refusal calls it: what Pillow holds of it at once, against a
    PNG's or JPEG's. A WebP is held about five times over (the decoder's
    canvas, a copy of it, the picture, the encoder's copies); a CMYK map is
    converted whole to RGB."""
    if image.format == "WEBP":
        return 5, "WebP "
    if image.mode == "CMYK" and not limits.shrink_to:
        return 2, "CMYK JPEG "
    return 1, ""


def _too_large(field: str, limits: Limits, image: Image.Image, size) -> ServiceError:
    """The refusal of a picture past a side or its pixels, naming the limit
    it passed."""
    width, height = size
    if width > limits.max_side or height > limits.max_side:
        return _refuse(
            "image_too_large",
            f"a {limits.kind} must be at most {limits.max_side} px a side, not {width} x {height}",
            field,
        )
    weight, label = _weight(image, limits)
    return _refuse(
        "image_too_large",
        f"a {label}{limits.kind} must have at most {limits.max_pixels // weight:,} pixels, "
        f"not {width * height:,} ({width} x {height})",
        field,
    )


def check_image(upload, *, field: str = "image", limits: Limits | None = None) -> str:
    """A real PNG, JPEG, GIF or WebP within `limits` (a background's by
    default); the extension its kind is stored under. Reads the header and
    verifies the file without decoding the picture. Raises ServiceError on
    `field` otherwise."""
    limits = limits or limits_for(BACKGROUND)
    with _opened(upload, field, limits) as image:
        kind = image.format
        try:
            image.verify()
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
    return ACCEPTED[kind]


def _header(data: bytes) -> Image.Image | None:
    """Pillow's reader of the file's kind, with only the header read; None
    if it is none of ACCEPTED. Image.open would also refuse a header past
    MAX_IMAGE_PIXELS, but without its size: ours are checked right after,
    and name the limit passed."""
    Image.init()
    for kind in ACCEPTED:
        factory, accept = Image.OPEN[kind]
        if accept is None or accept(data[:16]):
            return factory(io.BytesIO(data), None)
    return None


class _opened:
    """Open an upload with Pillow and check its kind, bytes, sides and
    pixels; every failure of a hostile file becomes a field error. A JPEG
    to be shrunk is set to decode near the size it is kept at."""

    def __init__(self, upload, field: str, limits: Limits):
        self.upload, self.field, self.limits = upload, field, limits
        self.image = None

    def __enter__(self) -> Image.Image:
        upload, field, limits = self.upload, self.field, self.limits
        too_big = _refuse(
            "image_too_large", f"the image must be at most {megabytes(limits.max_bytes)}", field
        )
        size = getattr(upload, "size", None)
        if size is None or size > limits.max_bytes:
            raise too_big
        # Pillow reads a copy (at most the limit, whatever the upload says
        # of its size): closing its image must not close the upload.
        upload.seek(0)
        data = upload.read(limits.max_bytes + 1)
        upload.seek(0)
        if len(data) > limits.max_bytes:
            raise too_big
        try:
            self.image = _header(data)
        except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError) as error:
            raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
        if self.image is None:
            raise _refuse(
                "bad_image",
                "the file is not an image we can read: it must be a PNG, JPEG, GIF or WebP",
                field,
            )
        try:
            size = self.image.size
            if max(size) > limits.max_side:
                raise _too_large(field, limits, self.image, size)
            if limits.shrink_to and self.image.format == "JPEG":
                # Decode a large photo at a fraction of its size: less memory.
                self.image.draft("RGB", (limits.shrink_to, limits.shrink_to))
            width, height = self.image.size
            if width * height * _weight(self.image, limits)[0] > limits.max_pixels:
                raise _too_large(field, limits, self.image, size)
        except BaseException:
            self.__exit__()
            raise
        return self.image

    def __exit__(self, *exc):
        if self.image is not None:
            self.image.close()
        self.upload.seek(0)
        return False


def _load(image: Image.Image, field: str, limits: Limits) -> None:
    try:
        image.load()
    except Image.DecompressionBombError:
        raise _too_large(field, limits, image, image.size) from None
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        raise _refuse("bad_image", f"the image is damaged: {error}", field) from None


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info


def _upright(image: Image.Image, field: str) -> Image.Image:
    """The picture turned as its EXIF orientation says (then forgotten)."""
    try:
        ImageOps.exif_transpose(image, in_place=True)
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        raise _refuse("bad_image", f"the image is damaged: {error}", field) from None
    return image


def _shrunk(image: Image.Image, largest: int) -> Image.Image:
    """At most `largest` px a side, in RGB or RGBA, made without a second
    copy of the large picture: it is first reduced by a whole factor a band
    of rows at a time (each band converted on its own: a palette picture
    cannot be resampled, and Pillow resamples RGBA through a premultiplied
    copy), then resampled from at least twice `largest`."""
    mode = "RGBA" if _has_alpha(image) else "RGB"
    width, height = image.size
    factor = max(1, max(width, height) // largest)
    if factor == 1:
        small = image.copy() if image.mode == mode else image.convert(mode)
    else:
        small = Image.new(mode, (-(-width // factor), -(-height // factor)))
        rows = factor * max(1, 256 // factor)
        for top in range(0, height, rows):
            band = image.crop((0, top, width, min(top + rows, height)))
            small.paste(
                (band if band.mode == mode else band.convert(mode)).reduce(factor),
                (0, top // factor),
            )
        small.info = image.info  # its EXIF orientation, for _upright
    if max(small.size) > largest:
        small.thumbnail((largest, largest), Image.Resampling.LANCZOS)
    return small


def _art_pixels(upload, field: str, limits: Limits) -> Image.Image:
    """A portrait's or token art's pixels: upright, in RGB or RGBA, at
    most `limits.shrink_to` px a side."""
    with _opened(upload, field, limits) as image:
        _load(image, field, limits)
        return _upright(_shrunk(image, limits.shrink_to), field)


def _encode(pixels: Image.Image, kind: str, quick: bool = False) -> bytes:
    """Fresh bytes from pixels alone: nothing of the upload's metadata
    (Pillow writes a PNG's colour profile or a JPEG's comment it finds in
    `info`, so only a transparent colour is left there)."""
    pixels.info = {k: v for k, v in pixels.info.items() if k == "transparency"}
    buffer = io.BytesIO()
    if kind == "JPEG":
        if pixels.mode not in ("RGB", "L"):
            pixels = pixels.convert("RGB")
        # Not optimize=True: its Huffman tables need the whole map's
        # coefficients held at once, some 3 bytes a pixel.
        pixels.save(buffer, "JPEG", quality=88)
    elif kind == "WEBP":
        # method 0: a quarter of method 4's time on a large map, at much the
        # same size.
        pixels.save(buffer, "WEBP", quality=85, method=0 if quick else 4)
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


def reencode_background(upload, *, field: str = "image", as_webp: bool = False) -> Encoded:
    """A battle map as its own kind (a photo stays a JPEG, a drawing a PNG or
    WebP; a GIF becomes a PNG of its first frame), without metadata. Kept in
    the mode it was decoded in: no second copy of a large map is made.
    With `as_webp`, a WebP made quickly whatever it came as: an imported
    map file's picture, a PNG of many megapixels that PNG's encoder takes
    seconds over (7 s for 2,500 px a side; WebP 0.4 s, a sixth of the
    bytes: docs/maps.md)."""
    limits = limits_for(BACKGROUND)
    with image_work(), _opened(upload, field, limits) as image:
        kind = "WEBP" if as_webp else "PNG" if image.format == "GIF" else image.format
        _load(image, field, limits)
        pixels = _upright(image, field)
        return Encoded(ACCEPTED[kind], _encode(pixels, kind, quick=as_webp), {})


def background_preview(upload, *, largest: int, field: str = "image") -> bytes:
    """A battle map small (WebP, at most `largest` px a side), for a look
    before it is kept: bounded as a background is before it is decoded."""
    limits = limits_for(BACKGROUND)
    with image_work(), _opened(upload, field, limits) as image:
        _load(image, field, limits)
        return _encode(_upright(_shrunk(image, largest), field), "WEBP", quick=True)


def reencode_art(upload, *, kind: str = PORTRAIT, field: str = "image") -> Encoded:
    """A portrait or token art (`kind`) as WebP at most ART_SIDE px a side,
    with its square thumbnails."""
    with image_work():
        pixels = _art_pixels(upload, field, limits_for(kind))
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
