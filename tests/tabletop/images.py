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
