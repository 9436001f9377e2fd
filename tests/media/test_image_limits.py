"""What an image finalize refuses or drops before and while decoding (docs/media.md §4):
the pixel limit read from the header, so a small file of many pixels is never decoded in
the request, and the JPEG comment segment among the metadata that is stripped."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from sns.media import storage
from sns.models.media import MediaImage
from tests.conftest import login_client
from tests.media.flow import full_flow

pytestmark = pytest.mark.django_db


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def blank_png(width: int, height: int) -> bytes:
    """A valid grey PNG of width×height pixels, compressed row by row: a large picture
    in a file of some tens of kilobytes, without ever holding its pixels."""
    deflate, row = zlib.compressobj(9), b"\0" * (width + 1)  # filter byte + grey samples
    data = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def test_a_small_png_of_49_megapixels_is_refused_from_its_header(human, settings):
    data = blank_png(7000, 7000)  # 49,000,000 pixels: under the original's 50,000,000
    assert len(data) < 200_000
    assert Image.open(io.BytesIO(data)).size == (7000, 7000)
    response = full_flow(login_client(human), human, data, "wide.png")
    assert (response.status_code, response.json()) == (400, {"error": "image too large (pixels)"})
    assert MediaImage.objects.count() == 0
    assert storage.list_objects(storage.images_bucket(), "") == []  # the staged upload is gone


def test_the_pixel_limit_is_a_setting(human, settings):
    settings.STGY_MEDIA_INPUT_MAX_PIXELS = 4000 * 4000
    client = login_client(human)
    assert full_flow(client, human, blank_png(4000, 4001), "a.png").json() == {
        "error": "image too large (pixels)"}
    accepted = full_flow(client, human, blank_png(400, 300), "b.png")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["metadata"] == {"image-width": "400", "image-height": "300"}


def test_a_jpeg_comment_does_not_survive(human):
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 120, 200)).save(out, format="JPEG", comment=b"home: 35.6812N 139.7671E")
    photo = out.getvalue()
    assert b"35.6812N" in photo and Image.open(io.BytesIO(photo)).info["comment"]
    meta = full_flow(login_client(human), human, photo, "home.jpg").json()
    stored = storage.read(storage.images_bucket(), meta["key"])
    assert b"35.6812N" not in stored and b"\xff\xfe" not in stored  # no COM segment at all
    assert "comment" not in Image.open(io.BytesIO(stored)).info
    thumb = storage.list_objects(storage.images_bucket(), f"{human.hex_id}/thumbs/")
    assert len(thumb) == 1 and b"35.6812N" not in storage.read(storage.images_bucket(), thumb[0].key)
