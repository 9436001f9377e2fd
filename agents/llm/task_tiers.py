"""The cascade: which tier each task runs on (docs/agent-cycle.md, "Which model does what").

Judging — impressions of posts and of peers, the interest, a post's summary — is
classification and note-taking, so it runs on one configured tier
(STGY_AI_JUDGING_TIER, `basic` by default). Writing in the AI user's voice — a reply, a
new post, an answer, a message — runs on the AI user's own tier. STGY_AI_TASK_TIERS
overrides single tasks ("interest=own,post-impressions=balanced"); `own` means the AI
user's own tier. An admin can pin an AI user to its own tier for every task
(`AgentState.own_tier_only`, read once a run into `pinned`).
"""

from __future__ import annotations

import functools
import logging

from django.conf import settings

log = logging.getLogger(__name__)

OWN = "own"
TIERS = ("advanced", "balanced", "basic")
JUDGING_TASKS = (
    "post-impression",
    "post-impressions",
    "peer-impression",
    "peer-impressions",
    "interest",
    "post-summary",
)
WRITING_TASKS = ("reply-post", "new-post", "respond", "respond-message", "open-message", "revise")


@functools.lru_cache(maxsize=8)
def _parse(judging: str, overrides: str) -> dict[str, str]:
    table = {task: judging for task in JUDGING_TASKS} | {task: OWN for task in WRITING_TASKS}
    for entry in overrides.split(","):
        task, _, tier = (part.strip() for part in entry.partition("="))
        if not entry.strip():
            continue
        if task not in table or tier not in (*TIERS, OWN):
            log.warning("ignoring malformed STGY_AI_TASK_TIERS entry %r", entry.strip())
            continue
        table[task] = tier
    return table


def task_tiers() -> dict[str, str]:
    """Every task → a tier, or `own` (the AI user's)."""
    judging = (settings.STGY_AI_JUDGING_TIER or OWN).strip().lower()
    if judging not in (*TIERS, OWN):
        log.warning("ignoring STGY_AI_JUDGING_TIER %r: not a tier or %r", judging, OWN)
        judging = OWN
    return _parse(judging, settings.STGY_AI_TASK_TIERS or "")


def task_tier(task: str, own: str | None, *, pinned: bool = False) -> str:
    """The tier a call of `task` runs on for an AI user whose tier is `own` (None for a
    call on no one's behalf, the summary: then `own` falls back to `basic`)."""
    if pinned and own:
        return own
    tier = task_tiers().get(task, OWN)
    if tier == OWN:
        return own or "basic"
    return tier
