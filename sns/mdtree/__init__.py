"""The original STGY's Markdown dialect as a node tree: parse, cut, serialise, render
as text. It produces the `snippet` of posts and users (docs/data-model.md, "Snippets");
the HTML of our own pages still comes from sns/reads/markdown.py."""

from .blocks import parse_markdown
from .codec import deserialize, serialize
from .cut import cut_off
from .featured import filter_for_featured, find_featured
from .snippet import make_snippet, notification_text, snippet_text
from .text import render_text

__all__ = [
    "cut_off", "deserialize", "filter_for_featured", "find_featured", "make_snippet",
    "notification_text", "parse_markdown", "render_text", "serialize", "snippet_text",
]
