"""The texts that are embedded for posts and interests (one definition for the summary
task, the AI cycle, the interests API and `manage.py reembed`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from agents.textmeasure import truncate_pt
from sns.reads.markdown import folded_plain_text


def _join(head: str, tags: Iterable[str], tail: str) -> str:
    """head; then a blank line and one tag per line; then a blank line and the tail."""
    lines = [head.strip()]
    tags = [t for t in tags if t]
    if tags:
        lines += ["", *tags]
    if tail:
        lines += ["", tail]
    return "\n".join(lines)


def post_embedding_input(summary: str, keywords: Iterable[str], content_markdown: str) -> str:
    """docs/summaries-and-vectors.md §1.4 step 8: summary, keywords, then a plain-text snippet of
    the post (folded whitespace, STGY_AI_SUMMARY_SUMMARY_LENGTH pseudo tokens)."""
    snippet = truncate_pt(folded_plain_text(content_markdown or ""), settings.STGY_AI_SUMMARY_SUMMARY_LENGTH)
    return _join(summary or "", keywords, snippet)


def interest_embedding_input(interest: str, tags: Iterable[str], introduction_markdown: str = "") -> str:
    """docs/agent-cycle.md §7 step 7: interest, tags, then a plain-text snippet of the profile
    introduction (STGY_AI_USER_INTRO_TEXT_LIMIT). The personality is never embedded.

    With no introduction this is the server-side form of POST /ai-users/{id}/interests:
    interest + blank line + tags. An empty introduction adds no trailing blank line.
    """
    intro = truncate_pt(folded_plain_text(introduction_markdown or ""), settings.STGY_AI_USER_INTRO_TEXT_LIMIT)
    return _join(interest or "", tags, intro)
