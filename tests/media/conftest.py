import io

import pytest
from PIL import Image


@pytest.fixture(autouse=True)
def _media_dir(settings, tmp_path):
    """Each test stores its images under its own temporary directory (local driver)."""
    settings.STGY_STORAGE_DRIVER = "local"
    settings.STGY_MEDIA_DIR = tmp_path / "media"
    settings.STGY_STORAGE_PUBLIC_URL_PREFIX = "/storage/{bucket}/"


def make_image(fmt: str = "JPEG", size=(64, 48), color=(200, 40, 40), exif_gps: bool = False,
               orientation: int | None = None) -> bytes:
    image = Image.new("RGB", size, color)
    exif = Image.Exif()
    if exif_gps:
        exif[0x010F] = "Make: Test Camera"  # Make
        exif[0x8825] = {1: "N", 2: (35.0, 39.0, 29.0), 3: "E", 4: (139.0, 44.0, 28.0)}  # GPSInfo
    if orientation:
        exif[0x0112] = orientation
    out = io.BytesIO()
    kwargs = {"exif": exif.tobytes()} if (exif_gps or orientation) else {}
    image.save(out, format=fmt, **kwargs)
    return out.getvalue()
