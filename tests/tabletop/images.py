"""Small image files made in memory for upload tests."""

import io
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image


def image_bytes(width=8, height=6, kind="PNG") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 30)).save(buffer, kind)
    return buffer.getvalue()


def upload(data: bytes, name="map.png", content_type="image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def png_header_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims a size it does not have: the size check
    must refuse it before anything is decoded."""
    data = bytearray(image_bytes(1, 1))
    # IHDR: type at 12..16, width and height at 16..24, its CRC at 29..33.
    data[16:20] = width.to_bytes(4, "big")
    data[20:24] = height.to_bytes(4, "big")
    data[29:33] = zlib.crc32(bytes(data[12:29])).to_bytes(4, "big")
    return bytes(data)


def photo_with_exif(width=40, height=20, orientation=6) -> bytes:
    """A JPEG as a phone writes one: an EXIF block with the camera, a GPS
    position and an orientation (6: turn a quarter clockwise to view)."""
    image = Image.new("RGB", (width, height), (200, 30, 30))
    # The left half blue: where it ends up shows which way it was turned.
    image.paste((30, 30, 200), (0, 0, width // 2, height))
    exif = Image.Exif()
    exif[0x0112] = orientation  # Orientation
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x8825] = {1: "N", 2: (51.0, 28.0, 38.0)}  # GPSInfo
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes(), quality=95)
    return buffer.getvalue()
