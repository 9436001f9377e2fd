"""What one stage knows: the run record (which doubles as the state passed between
stages, since tasks carry only ids), the AI user and its interest."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

from django.conf import settings

from agents.llm.task_tiers import task_tier
from agents.models import CycleRun, Interest
from sns.models import User


@dataclass
class StageContext:
    run: CycleRun
    stage: str
    notes: dict[str, Any] = field(default_factory=dict)
    # Set by stage_execute: saves this stage's record as if the stage had returned the
    # result given; `recorded` is that record, and stage_execute then saves nothing.
    record_save: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    recorded: dict[str, Any] | None = None

    @property
    def user(self) -> User:
        return self.run.user

    @property
    def details(self) -> dict[str, Any]:
        return self.run.details

    @cached_property
    def interest(self) -> Interest | None:
        """The interest as it is now (after an earlier stage may have updated it).
        `stage_execute` loads it with the run (one query less per stage); after a
        refresh it is read again."""
        try:
            return self.user.ai_interest
        except Interest.DoesNotExist:
            return None

    def refresh_interest(self) -> None:
        self.__dict__.pop("interest", None)
        self.user._state.fields_cache.pop("ai_interest", None)

    @property
    def had_interest_at_start(self) -> bool:
        return self.details.get("interestAtStart") is not None

    def record_now(self, result: dict[str, Any]) -> None:
        """Save the stage's record (with the details) now, in the caller's transaction,
        so it commits with the stage's own last write: one statement instead of a
        details UPDATE there and the record's save after the stage."""
        self.recorded = self.record_save(result)

    def tier(self, task: str) -> str:
        """The tier `task` runs on for this AI user (agents/llm/task_tiers.py); a pin to
        its own tier was read when the cycle began."""
        return task_tier(task, self.user.ai_model, pinned=bool(self.details.get("ownTierOnly")))

    def setting(self, name: str):
        return getattr(settings, f"STGY_{name}")
