"""Markdown for posts and introductions: sanitised HTML, plain text and snippets.

markdown-it-py renders CommonMark with raw HTML disabled; nh3 (Ammonia) then
sanitises the result, so no script, event handler or javascript: URL survives even
if a renderer bug let one through.
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

_ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code",
    "pre", "blockquote", "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th",
    "td",
}
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "ol": {"start"}}
_SNIPPET_CHARS = 300
_SNIPPET_LINES = 10
_CACHED_RENDERINGS = 2048
_CACHED_TEXT_CHARS = 12000  # a post's content limit is 10,000 pseudo tokens


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "breaks": True}).enable(
        ["table", "strikethrough"]
    )


def render_html(markdown_text: str) -> str:
    text = markdown_text or ""
    return _render_recent(text) if len(text) <= _CACHED_TEXT_CHARS else _render(text)


@lru_cache(maxsize=_CACHED_RENDERINGS)
def _render_recent(markdown_text: str) -> str:
    # Timelines show the same recent posts to every reader; the process keeps the HTML
    # of the last few thousand texts rather than rendering them on every view.
    return _render(markdown_text)


def _render(markdown_text: str) -> str:
    html = _parser().render(markdown_text)
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


def to_plain_text(markdown_text: str) -> str:
    """Rendered text without markup (summary-and-vectors §4): blocks end with a blank
    line, list items get "- " and two spaces per nesting level, table rows become
    `|cell|cell|`."""
    out: list[str] = []
    depth = 0
    row: list[str] | None = None
    for token in _parser().parse(markdown_text or ""):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                out.append("\n")
        elif kind == "list_item_open":
            out.append("  " * (depth - 1) + "- ")
        elif kind == "inline":
            text = _inline_text(token)
            if row is not None:
                row.append(text)
            else:
                out.append(text)
        elif kind in ("paragraph_close", "heading_close"):
            out.append("\n" if depth else "\n\n")
        elif kind in ("fence", "code_block"):
            out.append(token.content.rstrip("\n") + "\n\n")
        elif kind == "hr":
            out.append("\n")
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            out.append("|" + "|".join(row or []) + "|\n")
            row = None
        elif kind == "table_close":
            out.append("\n")
    text = re.sub(r"[ \t]+\n", "\n", "".join(out))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _inline_text(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


def make_snippet(markdown_text: str) -> str:
    """A short plain-text excerpt for cards and list views."""
    text = to_plain_text(markdown_text)
    lines = text.split("\n")
    cut = len(lines) > _SNIPPET_LINES
    text = "\n".join(lines[:_SNIPPET_LINES])
    if len(text) > _SNIPPET_CHARS:
        text, cut = text[:_SNIPPET_CHARS], True
    return text.rstrip() + ("…" if cut else "")


def folded_plain_text(markdown_text: str) -> str:
    """Plain text with space runs and newline runs folded, as the embedding inputs use."""
    text = re.sub(r"[ \t]+", " ", to_plain_text(markdown_text))
    return re.sub(r"\n+", "\n", text).strip()
