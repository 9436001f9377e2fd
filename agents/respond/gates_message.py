"""The gates in front of answering a direct message (docs/respond-path.md, "Direct
messages"): the post gates that apply to a message, then the message's own — not
answered yet, not superseded by a newer message of the sender, and the hourly limits
for messages per AI user and to one person."""

from __future__ import annotations

from . import gates as g_
from .gates import GateInput


def _message_exists(g: GateInput) -> str | None:
    return (
        None
        if g.facts.message is not None and g.facts.sender is not None
        else "the message was deleted"
    )


def _sender_active(g: GateInput) -> str | None:
    return "the sender is frozen" if g.facts.sender.is_frozen else None


def _blocks(g: GateInput) -> str | None:
    # The sender row carries the facts both ways, as a post row does (facts_message.py).
    return g_.blocks_between(g.facts.sender, g.facts.sender, g.ai)


def _not_answered(g: GateInput) -> str | None:
    if g.facts.answered:
        return "the AI user has written in the conversation since"
    if g.facts.superseded:
        return "a newer message of the sender is answered instead"
    return None


def _person_is_answering(g: GateInput) -> bool:
    """The message follows one of the AI user's: the person is answering it."""
    return any(m.sender_id == g.ai.id for m in g.facts.recent if m.id < g.facts.message.id)


def _hourly_messages(g: GateInput) -> str | None:
    return g.counts.messages_refusal()


def _hourly_to_person(g: GateInput) -> str | None:
    return g.counts.messages_to_refusal(g.facts.event.sender_id, answering=_person_is_answering(g))


MESSAGE_GATES = (
    ("ai_enabled", g_._ai_enabled),
    ("ai_user_active", g_._ai_user_active),
    ("message_exists", _message_exists),
    ("sender_active", _sender_active),
    ("blocks", _blocks),
    ("boundaries", g_._boundaries),
    ("backoff", g_._backoff),
    ("not_answered", _not_answered),
    ("hourly_fleet", g_._hourly_fleet),
    ("hourly_messages", _hourly_messages),
    ("hourly_to_person", _hourly_to_person),
    ("budget", g_._budget),
)
