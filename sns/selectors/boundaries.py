"""Reads of the boundaries a person sets for AI users (docs/messages.md).

`ai_contact_allowed` is the one question every AI action towards a person asks —
the direct-message service here and the AI respond path alike — so the switches and
the "stop" records are honoured in one place.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import time

from django.db.models import BooleanField, Exists, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..models import AiMemory, User
from ..models.messages import AiBoundaries, AiStop

KINDS = ("reply", "mention", "message")
_SWITCH = {"reply": "allow_replies", "mention": "allow_mentions", "message": "allow_messages"}
_REFUSAL = {
    "reply": "the user does not accept replies from AI users",
    "mention": "the user does not accept mentions from AI users",
    "message": "the user does not accept messages from AI users",
}


@dataclass(frozen=True)
class Boundaries:
    allow_replies: bool = True
    allow_mentions: bool = True
    allow_messages: bool = True
    quiet_start: time | None = None
    quiet_end: time | None = None


def ai_boundaries_get(user_id: int) -> Boundaries:
    row = AiBoundaries.objects.filter(user_id=user_id).first()
    if row is None:
        return Boundaries()
    return Boundaries(row.allow_replies, row.allow_mentions, row.allow_messages, row.quiet_start, row.quiet_end)


def person_zone(person) -> zoneinfo.ZoneInfo:
    """The person's own time zone (their account setting); UTC when unset or unknown."""
    try:
        return zoneinfo.ZoneInfo((person.timezone or "").strip() or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def in_quiet_hours(start: time | None, end: time | None, local: time) -> bool:
    """Is the local time of day within [start, end)? Past midnight when start > end."""
    if start is None or end is None or start == end:
        return False
    if start < end:
        return start <= local < end
    return local >= start or local < end


def ai_quiet_hours_refusal(person, *, boundaries: Boundaries | None = None, now=None) -> str | None:
    """Why no AI user may open a conversation with `person` now — their quiet hours, in
    their time zone — or None. Only outreach asks: answers to what the person wrote
    are not affected (docs/messages.md, "Quiet hours")."""
    b = boundaries if boundaries is not None else ai_boundaries_get(person.id)
    zone = person_zone(person)
    local = (now or timezone.now()).astimezone(zone)
    if not in_quiet_hours(b.quiet_start, b.quiet_end, local.time()):
        return None
    return f"quiet hours {b.quiet_start:%H:%M}–{b.quiet_end:%H:%M} ({zone.key}), now {local:%H:%M} there"


def ai_memory_refused(person: User) -> bool:
    """Did the person (a loaded row) ask AI users not to remember them (`aiMemory`
    "none")? Of them and their posts an AI user keeps read markers only — no
    impression, no relationship (docs/what-ai-users-know.md)."""
    return person.ai_memory == AiMemory.NONE


def ai_memory_withheld(person_ids) -> set[int]:
    """`ai_memory_refused` for many people by id, in one query: the ones who refused.
    The question every writer of AI memory asks (agents/memory.py,
    agents/relationships.py)."""
    ids = {int(i) for i in person_ids if i is not None}
    if not ids:
        return set()
    return set(User.objects.filter(id__in=ids, ai_memory=AiMemory.NONE).values_list("id", flat=True))


def ai_stops_list(person_id: int, *, now=None) -> list[AiStop]:
    """The person's stop records still in force, newest first, with the AI user."""
    now = now or timezone.now()
    rows = AiStop.objects.filter(person_id=person_id).select_related("ai_user")
    return [row for row in rows.order_by("-created_at") if row.is_active(now)]


def ai_stop_get(person_id: int, ai_user_id: int, *, now=None) -> AiStop | None:
    row = AiStop.objects.filter(person_id=person_id, ai_user_id=ai_user_id).first()
    return row if row is not None and row.is_active(now or timezone.now()) else None


def ai_contact_allowed(ai_user, person, kind: str, *, now=None) -> tuple[bool, str]:
    """May `ai_user` reply to, mention or message (`kind`) `person`? The person's
    three switches and their stop record for this AI user decide; a stop covers every
    kind. (False, reason) when refused. Blocks, the back-off rule and the AI's own
    gates are not asked here. Not an AI user, or oneself: always allowed."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    if not ai_user.is_ai or ai_user.id == person.id:
        return True, ""
    if not getattr(ai_boundaries_get(person.id), _SWITCH[kind]):
        return False, _REFUSAL[kind]
    if ai_stop_get(person.id, ai_user.id, now=now) is not None:
        return False, "the user asked this AI user to stop"
    return True, ""


def ai_contact_annotations(ai_user, person_field: str, kind: str, *, now=None) -> dict:
    """The facts `ai_contact_allowed` reads, as annotations on a query whose rows carry
    the person in `person_field` (e.g. a post's "owner_id"), so a batch of posts costs
    no query more; read them back with `ai_contact_annotated`."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    now = now or timezone.now()
    switch = AiBoundaries.objects.filter(user_id=OuterRef(person_field)).values(_SWITCH[kind])[:1]
    stops = AiStop.objects.filter(person_id=OuterRef(person_field), ai_user_id=ai_user.id).filter(
        Q(until__isnull=True) | Q(until__gt=now)
    )
    return {
        f"ai_{kind}_switch": Coalesce(Subquery(switch), Value(True), output_field=BooleanField()),
        f"ai_{kind}_stopped": Exists(stops),
    }


def ai_contact_annotated(row, ai_user, person, kind: str) -> tuple[bool, str]:
    """`ai_contact_allowed` over a row annotated by `ai_contact_annotations`."""
    if not ai_user.is_ai or ai_user.id == person.id:
        return True, ""
    if not getattr(row, f"ai_{kind}_switch"):
        return False, _REFUSAL[kind]
    if getattr(row, f"ai_{kind}_stopped"):
        return False, "the user asked this AI user to stop"
    return True, ""
