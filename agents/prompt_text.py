"""A post's text as prompts show it (docs/media.md §7): Markdown images become their alt
text and map lines "[map: caption]", since the models read no pictures and a storage
URL is noise that costs tokens."""

from __future__ import annotations

from sns.media.embeds import images_as_alt_text
from sns.media.maps import maps_as_text

from .textmeasure import truncate_pt


def post_prompt_text(content: str, limit: int) -> str:
    return truncate_pt(maps_as_text(images_as_alt_text(content)), limit)
