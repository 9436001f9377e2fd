"""No AI-to-AI loops: a line of a thread in which only AI users talk stops after
STGY_AI_THREAD_AI_REPLIES_LIMIT replies (default 2: one answer each), whoever would
write the next one, the cycle's reply stage or the respond path
(docs/agent-cycle.md §6, docs/respond-path.md "Gates").

The line is the post being answered and its ancestors. Counted are the AI-written
posts at its end, back to the newest person's post: the first of them opens the
exchange (an AI user's root post, or its answer to the person), every one after it is
an AI user answering another AI user. A person writing into the line ends the run, so
the thread opens again; an answer to a person's post is never held back.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings


def ai_run_length(line_is_ai: Iterable[bool]) -> int:
    """How many posts at the end of the line are AI-written, `line_is_ai` given newest
    first (the post being answered, then its parent, ...)."""
    n = 0
    for is_ai in line_is_ai:
        if not is_ai:
            break
        n += 1
    return n


def ai_exchange_refusal(line_is_ai: Iterable[bool]) -> str | None:
    """Why an AI user must not answer the newest post of this line, or None. Only the
    newest limit + 1 flags matter, so a caller may pass a chain cut at that depth."""
    limit = settings.STGY_AI_THREAD_AI_REPLIES_LIMIT
    run = ai_run_length(line_is_ai)
    # The answer would be AI-to-AI reply number `run` of the exchange (the opener, the
    # first of the run, is no reply to an AI user).
    if limit >= 0 and run > limit:
        return f"{run} AI-written posts in a row and no person in this line of the thread (limit {limit} AI-to-AI replies)"
    return None


def chain_depth() -> int:
    """How many ancestors a caller reads to decide (the post itself is the first flag)."""
    return max(0, settings.STGY_AI_THREAD_AI_REPLIES_LIMIT)
