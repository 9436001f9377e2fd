"""What finalize does to the uploaded bytes, with Pillow (docs/media.md §4): make sure
they are a JPEG, PNG or WebP image within the size limits, turn it upright and drop its
metadata (EXIF with any GPS position, XMP, text chunks, JPEG comments), and make the
WebP thumbnail.

Decoding is the costly part (about a second for 25 megapixels, and three to four bytes
of memory per pixel, more than once), so the pixel limit is read from the header before
anything is decoded, and the thumbnail is made from the pixels already decoded."""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

from sns.core.errors import InvalidInput

_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
_SAVE_AS = {mime: fmt for fmt, mime in _FORMATS.items()}


@dataclass(frozen=True)
class CleanImage:
    data: bytes
    mime: str
    width: int
    height: int
    thumb: bytes  # the WebP thumbnail


def sniff(data: bytes) -> tuple[str, int, int]:
    """(mime, width, height) from the header, or InvalidInput with the original's texts.
    Only the header is read here, so a decompression bomb is refused before decoding."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                mime = _FORMATS.get(image.format or "")
                width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise InvalidInput("invalid image data") from None
    if mime is None:
        raise InvalidInput("invalid image data")
    if width <= 0 or height <= 0:
        raise InvalidInput("cannot determine image dimensions")
    max_side = settings.STGY_MEDIA_INPUT_MAX_DIMENSION
    if max_side and (width > max_side or height > max_side):
        raise InvalidInput("image too large (dimension)")
    if settings.STGY_MEDIA_INPUT_MAX_PIXELS and width * height > settings.STGY_MEDIA_INPUT_MAX_PIXELS:
        raise InvalidInput("image too large (pixels)")
    return mime, width, height


def _decode(data: bytes) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            image.load()
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise InvalidInput("invalid image data") from None
    return image


def clean(data: bytes, mime: str, thumb_max_pixels: int) -> CleanImage:
    """Re-encode without metadata, and make the thumbnail. The EXIF orientation is
    applied to the pixels first, so a photo taken sideways still shows the right way up
    without its EXIF."""
    image = _decode(data)
    upright = ImageOps.exif_transpose(image)
    fmt = _SAVE_AS[mime]
    options: dict = {}
    if fmt == "JPEG":
        # An unrotated JPEG keeps its own quantisation tables: next to no loss. Pillow
        # carries a JPEG's comment (COM) segment over unless told otherwise.
        options = {"quality": "keep"} if upright is image and image.format == "JPEG" else {"quality": 92}
        options["comment"] = b""
        if upright.mode not in ("RGB", "L", "CMYK"):
            upright = upright.convert("RGB")
    elif fmt == "WEBP":
        options = {"quality": 90}
    out = io.BytesIO()
    upright.save(out, format=fmt, **options)  # no exif=, no pnginfo=: nothing carried over
    return CleanImage(out.getvalue(), mime, upright.width, upright.height,
                      _thumbnail(upright, thumb_max_pixels))


def _thumbnail(image: Image.Image, max_pixels: int) -> bytes:
    """A WebP of at most `max_pixels` pixels, never enlarged (the original's worker)."""
    width, height = image.size
    if width * height > max_pixels:
        scale = math.sqrt(max_pixels / (width * height))
        # reducing_gap: shrink by whole factors first, then resample; the same picture
        # at a fraction of the cost of resampling every source pixel.
        image = image.resize((max(1, int(width * scale)), max(1, int(height * scale))), Image.LANCZOS,
                             reducing_gap=3.0)
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.getbands() or image.mode == "P" else "RGB")
    out = io.BytesIO()
    image.save(out, format="WEBP", quality=82)
    return out.getvalue()
