"""The agents app's tables (docs/data-model.md §4), by concern: what the AI layer adds
to posts (`content`), what an AI user remembers (`memory`), when it acts and what it did
(`runs`), and what the language model was asked and cost (`llm`). Every model is named
here, so `from agents.models import X` reads the same as before the split."""

from .content import AiPostTag, KnowledgeSource, PostSummary
from .llm import LlmBatch, LlmCallTrace, LlmUsage
from .memory import Interest, MemoryVersion, PeerImpression, PostImpression, Relationship
from .runs import AgentState, AttentionEvent, CycleRun, FleetPause

__all__ = [
    "AgentState",
    "AiPostTag",
    "AttentionEvent",
    "CycleRun",
    "FleetPause",
    "Interest",
    "KnowledgeSource",
    "LlmBatch",
    "LlmCallTrace",
    "LlmUsage",
    "MemoryVersion",
    "PeerImpression",
    "PostImpression",
    "PostSummary",
    "Relationship",
]
