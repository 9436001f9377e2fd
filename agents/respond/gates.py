"""The deterministic gates in front of the model call (docs/respond-path.md).

Each gate returns None (pass) or why it refuses; `gates_check` records every gate it
ran with its verdict and stops at the first refusal. The rulebook's own checks decide
blocks (sns.reads.access), the daily budgets are agents.budget's; nothing here is an error:
a refusal closes the event as refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings

from agents.budget import budget_refusal
from agents.llm.gateway import ai_enabled
from agents.rate_limits import HourlyWrites
from agents.runs.ai_thread import ai_exchange_refusal
from agents.runs.contact import backoff_refusal
from sns.models import User
from sns.reads.access import is_blocked_annotated
from sns.selectors.boundaries import ai_contact_allowed, ai_contact_annotated

from .facts import EventFacts

# The loop breaker's "the AIs are already talking here": this many newest posts of the
# thread, all AI-written.
AI_RUN_LENGTH = 3


@dataclass
class GateInput:
    ai: User
    facts: EventFacts  # or facts_message.MessageFacts for a message event
    counts: HourlyWrites


def _ai_enabled(g: GateInput) -> str | None:
    return None if ai_enabled() else "AI is off (provider none)"


def _ai_user_active(g: GateInput) -> str | None:
    if not g.ai.is_ai:
        return "no longer an AI user"
    return "the AI user is frozen" if g.ai.is_frozen else None


def _post_exists(g: GateInput) -> str | None:
    return None if g.facts.post is not None else "the post was deleted"


def _sender_active(g: GateInput) -> str | None:
    return "the sender is frozen" if g.facts.post.owner.is_frozen else None


def blocks_between(row, sender: User, ai: User) -> str | None:
    """The rulebook's block check both ways, over a row annotated with the block facts
    (the sender toward the AI user) and ai_blocks_sender / ai_follows_sender."""
    if is_blocked_annotated(row, sender, ai):
        return "the sender blocks the AI user"
    toward_sender = SimpleNamespace(owner_blocks_actor=row.ai_blocks_sender, owner_follows_actor=row.ai_follows_sender)
    if is_blocked_annotated(toward_sender, ai, sender):
        return "the AI user blocks the sender"
    return None


def _blocks(g: GateInput) -> str | None:
    return blocks_between(g.facts.post, g.facts.post.owner, g.ai)


def _boundaries(g: GateInput) -> str | None:
    # The person's switches and "stop" records; an answer to a post is a reply.
    if g.facts.event.kind == "message":
        allowed, reason = ai_contact_allowed(g.ai, g.facts.event.sender, "message")
    else:
        allowed, reason = ai_contact_annotated(g.facts.post, g.ai, g.facts.event.sender, "reply")
    return None if allowed else reason


def _backoff(g: GateInput) -> str | None:
    return backoff_refusal(g.ai.id, g.facts.event.sender_id)


def _allow_replies(g: GateInput) -> str | None:
    return None if g.facts.post.allow_replies else "the post does not allow replies"


def _not_answered(g: GateInput) -> str | None:
    return "the AI user has already replied to the post" if g.facts.post.ai_replied else None


def _ai_exchange(g: GateInput) -> str | None:
    # The cycle's reply stage asks the same rule (agents/runs/ai_thread.py); the event's
    # post is the one answered, its line `thread_ai` (the post first).
    return ai_exchange_refusal(g.facts.thread_ai)


def _loop_breaker(g: GateInput) -> str | None:
    facts = g.facts
    thread = [*facts.chain, facts.post, *facts.replies]
    newest = thread[-AI_RUN_LENGTH:]
    if len(newest) == AI_RUN_LENGTH and all(p.owner.is_ai for p in newest):
        return f"the thread's last {AI_RUN_LENGTH} posts are AI-written"
    turns = sum(facts.thread_ai)
    limit = settings.STGY_RESPOND_MAX_AI_TURNS
    if turns >= limit:
        return f"{turns} AI turns in this thread (limit {limit})"
    return None


def _hourly_replies(g: GateInput) -> str | None:
    return g.counts.replies_refusal()


def _hourly_fleet(g: GateInput) -> str | None:
    return g.counts.fleet_refusal()


def _budget(g: GateInput) -> str | None:
    return budget_refusal(user_id=g.ai.id)


GATES: tuple[tuple[str, Callable[[GateInput], str | None]], ...] = (
    ("ai_enabled", _ai_enabled),
    ("ai_user_active", _ai_user_active),
    ("post_exists", _post_exists),
    ("sender_active", _sender_active),
    ("blocks", _blocks),
    ("boundaries", _boundaries),
    ("backoff", _backoff),
    ("allow_replies", _allow_replies),
    ("not_answered", _not_answered),
    ("ai_exchange", _ai_exchange),
    ("loop_breaker", _loop_breaker),
    ("hourly_replies", _hourly_replies),
    ("hourly_fleet", _hourly_fleet),
    ("budget", _budget),
)


def gates_check(g: GateInput, verdicts: list[dict], gates=GATES) -> str | None:
    """Run the gates in order, appending each verdict; the first refusal as "gate: why"."""
    for name, gate in gates:
        why = gate(g)
        if why is not None:
            verdicts.append({"gate": name, "verdict": "refuse", "why": why})
            return f"{name}: {why}"
        verdicts.append({"gate": name, "verdict": "pass"})
    return None
