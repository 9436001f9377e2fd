"""Stage 4's reposts (docs/agent-cycle.md §6, "Reposts"): an AI user shares a post
only when the like gate's judgement holds under stricter numbers, within a cap per
cycle and an hourly cap, through sns.services like a person's repost.

The gate is deterministic: the model's literal `shouldLike` from the post impression
(no prompt of its own), the similarity rank and the raw similarity. A repost is
idempotent on redelivery because a user can repost a post once (unique constraint):
the second run finds "already reposted" and writes nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from agents.rate_limits import hourly_reposts
from sns import services
from sns.core.errors import Conflict, DomainError
from sns.selectors.boundaries import ai_contact_annotated


def repost_wanted(item: dict[str, Any], me_id: int) -> bool:
    """The repost gate for one planned post (see plan_actions): the model said it
    would like it, it is among the closest to the interest by rank and similarity, it
    is someone else's root post (a reply out of its thread says little to followers)."""
    post = item["post"]
    return (
        item["decision"].get("shouldLike") is True
        and item["rank"] <= settings.STGY_AI_USER_REPOST_MAX_INTEREST_RANK
        and item["sim"] >= settings.STGY_AI_USER_REPOST_MIN_SIMILARITY
        and post.reply_to is None
        and post.owner_id != me_id
    )


def reposts_write(me, plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Repost the planned posts that pass the gate, best rank first, at most
    STGY_AI_USER_REPOSTS_PER_CYCLE and what the hourly cap leaves; one record per
    candidate with the reason."""
    candidates = [item for item in plan if repost_wanted(item, me.id)]
    if not candidates:
        return []
    # The hourly count rides on the stage's read of its posts (likes_and_replies).
    done = getattr(candidates[0]["post"], "my_reposts_last_hour", None)
    done = hourly_reposts(me.id) if done is None else done
    limit = settings.STGY_AI_USER_HOURLY_REPOSTS_LIMIT
    per_cycle, made = settings.STGY_AI_USER_REPOSTS_PER_CYCLE, 0
    records = []
    for item in candidates:
        post = item["post"]
        record = {"postId": post.hex_id, "rank": item["rank"], "sim": item["sim"], "judgement": "shouldLike"}
        # The person's word binds reposts as it binds replies: with AI replies turned
        # off, or this AI user told to stop, their posts are not boosted by it either
        # (the plan's posts carry the "reply" boundary facts; docs/messages.md).
        allowed, why = ai_contact_annotated(post, me, post.owner, "reply")
        if not allowed:
            record["result"] = f"refused: boundaries: {why}"
        elif made >= per_cycle:
            record["result"] = f"capped: {per_cycle} repost(s) per cycle"
        elif done >= limit:
            record["result"] = f"capped: {done} reposts in the last hour (limit {limit})"
        else:
            try:
                services.repost_add(me, post.id)
                record["result"] = "reposted"
                made += 1
                done += 1
            except Conflict:
                record["result"] = "already reposted"
            except DomainError as exc:
                record["result"] = f"refused: {exc.message}"
        records.append(record)
    return records
