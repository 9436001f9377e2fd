"""The `snippet` of posts and users: the original's serialised, cut node tree
(docs/data-model.md, "Snippets"), and the plain text our own pages show of it."""

from __future__ import annotations

from functools import lru_cache

from .blocks import parse_markdown
from .codec import deserialize, serialize
from .cut import cut_off
from .featured import filter_for_featured
from .text import render_text

# The original's STGY_SNIPPET_MAX_LENGTH / STGY_SNIPPET_MAX_HEIGHT defaults; an image
# costs a quarter of each.
SNIPPET_MAX_LENGTH = 300
SNIPPET_MAX_HEIGHT = 10


def make_snippet(markdown_text: str) -> str:
    """The JSON text stored in Post.snippet / User.snippet."""
    nodes = filter_for_featured(parse_markdown(markdown_text or ""))
    nodes = cut_off(
        nodes,
        max_len=SNIPPET_MAX_LENGTH,
        max_height=SNIPPET_MAX_HEIGHT,
        img_len=SNIPPET_MAX_LENGTH / 4,
        img_height=SNIPPET_MAX_HEIGHT / 4,
        cut_on_hr=True,
    )
    return serialize(nodes)


@lru_cache(maxsize=4096)
def snippet_text(snippet: str) -> str:
    """Plain text of a stored snippet, "…" where it was cut. A value that is not a
    serialised tree (a row written before the tree format) is shown as it is."""
    if not snippet:
        return ""
    try:
        nodes = deserialize(snippet)
    except ValueError:
        return snippet
    return render_text(nodes)


NOTIFICATION_TEXT_PT = 50


def notification_text(snippet: str) -> str:
    """A notification's postSnippet: the snippet's text up to the character that reaches
    50 pseudo tokens (docs/summaries-and-vectors.md §3), as the original's
    notification worker cuts it."""
    text = snippet_text(snippet)
    weight = 0
    for i, ch in enumerate(text):
        weight += 1 if ord(ch) < 0x2000 else 2
        if weight >= NOTIFICATION_TEXT_PT:
            return text[: i + 1]
    return text
