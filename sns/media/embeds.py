"""Images embedded in post Markdown (docs/media.md §6). Posts name an uploaded image as
`![alt](/images/<user>/masters/<rev>/<file>)`, the original's form; the page shows it
from the store's public URL, with its pixel size when this site finalized it."""

from __future__ import annotations

import re

from . import keys, storage

EMBED_PREFIX = "/images/"
# An image with an optional trailing "{grid}"-style attribute block the original's editor adds.
_MARKDOWN_IMAGE = re.compile(r"!\[((?:\\.|[^\]\\])*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)(?:\{[A-Za-z0-9 _-]*\})?")


def embedded_key(src: str) -> str | None:
    if not src.startswith(EMBED_PREFIX):
        return None
    key = src[len(EMBED_PREFIX):].split("?", 1)[0].split("#", 1)[0]
    return key if keys.is_public(key) else None


def resolve(srcs: list[str]) -> dict[str, tuple[str, int | None, int | None]]:
    """src → (public URL, width, height) for the `/images/...` sources among `srcs`."""
    wanted = {src: key for src in srcs if (key := embedded_key(src))}
    if not wanted:
        return {}
    from sns.models.media import MediaImage  # the renderer loads before the app registry

    sizes = {row.key: (row.width, row.height)
             for row in MediaImage.objects.filter(key__in=set(wanted.values()))}
    bucket = storage.images_bucket()
    return {src: (storage.public_url(bucket, key), *sizes.get(key, (None, None)))
            for src, key in wanted.items()}


def images_as_alt_text(markdown_text: str) -> str:
    """Each Markdown image replaced by its alt text (nothing for an empty alt): what an
    AI user's prompt shows of a post's pictures (docs/media.md §7)."""
    return _MARKDOWN_IMAGE.sub(lambda m: re.sub(r"\\(.)", r"\1", m.group(1)), markdown_text or "")
