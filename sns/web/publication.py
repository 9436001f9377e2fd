"""What the public-site pages and the feed share (docs/publication.md §4): design
themes, article titles and descriptions, and who a reader is for the view count."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rest_framework.throttling import BaseThrottle

from sns.reads.markdown import to_plain_text

# The original's themes; only these names ever reach a page, as class names.
THEMES = (
    "default", "newspaper", "whiteboard", "dark", "blackboard",
    "tategaki", "shimbun", "hakuban", "kokuban",
)
VERTICAL_THEMES = {"tategaki", "shimbun", "hakuban", "kokuban"}
DARK_THEMES = {"dark", "blackboard", "kokuban"}
DEFAULT_SITE_TITLE = "STGY Publications"
DEFAULT_INTRODUCTION = "my publications"
DESCRIPTION_CHARS = 200
_HEADING = re.compile(r"^\s{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$")


@dataclass(frozen=True)
class Design:
    theme: str
    vertical: bool
    dark: bool

    @property
    def classes(self) -> str:
        direction = "vert" if self.vertical else "norm"
        tone = "dark" if self.dark else "light"
        return f"pub-theme-{self.theme} pub-dir-{direction} pub-tone-{tone}"


def design_for(config, requested: str | None = None) -> Design:
    """The reader's `?design=` if it names a theme, else the owner's, else default."""
    theme = next(
        (t for t in (requested, config.design_theme) if t in THEMES),
        "default",
    )
    return Design(theme, theme in VERTICAL_THEMES, theme in DARK_THEMES)


def article_title(markdown_text: str) -> str:
    """The text of a leading heading (the first non-blank line), or ""."""
    for line in (markdown_text or "").splitlines():
        if line.strip():
            match = _HEADING.match(line)
            return " ".join(to_plain_text(match.group(1)).split()) if match else ""
    return ""


def article_description(markdown_text: str) -> str:
    """Plain text after the title, folded onto one line, for <meta name=description>."""
    text = markdown_text or ""
    if article_title(text):
        text = text.lstrip().split("\n", 1)[1] if "\n" in text.lstrip() else ""
    plain = " ".join(to_plain_text(text).split())
    return plain[:DESCRIPTION_CHARS] + ("…" if len(plain) > DESCRIPTION_CHARS else "")


def post_title(post) -> str:
    """The post's heading, else "POST@<publication date>" as the original names it."""
    return article_title(post.content) or f"POST@{post.published_at.year:04d}-{post.published_at:%m-%d}"


def site_title(config) -> str:
    return config.site_name.strip() or article_title(config.introduction) or DEFAULT_SITE_TITLE


def site_introduction(config) -> str:
    return config.introduction.strip() or DEFAULT_INTRODUCTION


def site_description(config) -> str:
    return article_description(site_introduction(config)) or site_title(config)


def snippet_of(post) -> str:
    """The post's stored snippet (the original's node tree) as plain text."""
    return post.snippet_text


def reader_address(request) -> str | None:
    """The client address as the API's throttles see it (trusted proxies honoured)."""
    return BaseThrottle().get_ident(request) or None


def sidebar_count(value: int, maximum: int) -> int:
    return max(0, min(maximum, int(value)))
