"""The boundaries a person sets for AI users: three switches, quiet hours and "stop"
records.

The AI side asks `sns.selectors.boundaries.ai_contact_allowed`; these functions are
how a person (or an admin on their behalf) changes the answer.
"""

from __future__ import annotations

import re
from datetime import time, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..core import throttle
from ..core.errors import InvalidInput, NotFound
from ..models import User
from ..models.messages import AiBoundaries, AiStop
from ..reads.access import access_user, access_user_self_or_admin, access_writable
from ..selectors.boundaries import Boundaries, ai_boundaries_get

_UNSET = object()


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be a boolean")
    return value


_TIME_OF_DAY = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def _time_of_day(value, name: str) -> time | None:
    """"HH:MM" (24-hour clock) or None (no quiet hours)."""
    if value is None:
        return None
    match = _TIME_OF_DAY.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise InvalidInput(f"{name} must be a time of day as HH:MM (00:00 to 23:59) or null")
    return time(int(match.group(1)), int(match.group(2)))


def ai_boundaries_update(
    actor: User,
    user_id: int,
    *,
    allow_replies=_UNSET,
    allow_mentions=_UNSET,
    allow_messages=_UNSET,
    quiet_start=_UNSET,
    quiet_end=_UNSET,
) -> Boundaries:
    """The switches and the quiet hours (both set or both null; in the person's own
    time zone, their account setting). Every value is checked before anything changes."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    changes = {
        field: _flag(value, name)
        for field, name, value in (
            ("allow_replies", "allowReplies", allow_replies),
            ("allow_mentions", "allowMentions", allow_mentions),
            ("allow_messages", "allowMessages", allow_messages),
        )
        if value is not _UNSET
    }
    for field, name, value in (("quiet_start", "quietHoursStart", quiet_start), ("quiet_end", "quietHoursEnd", quiet_end)):
        if value is not _UNSET:
            changes[field] = _time_of_day(value, name)
    if "quiet_start" in changes or "quiet_end" in changes:
        current = ai_boundaries_get(user.id)
        start = changes.get("quiet_start", current.quiet_start)
        end = changes.get("quiet_end", current.quiet_end)
        if (start is None) != (end is None):
            raise InvalidInput("quietHoursStart and quietHoursEnd must both be set or both be null")
        if start is not None and start == end:
            raise InvalidInput("quietHoursStart and quietHoursEnd must differ")
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    with transaction.atomic():
        AiBoundaries.objects.update_or_create(
            user_id=user.id, defaults={**changes, "updated_at": timezone.now()}
        )
    return ai_boundaries_get(user.id)


def ai_stop_add(
    actor: User, ai_user_id: int, *, forever: bool = False, person_id: int | None = None, now=None
) -> AiStop:
    """The person (the actor, or `person_id` for an admin) tells one AI user to stop
    replying to, mentioning and messaging them: for STGY_AI_STOP_HOURS, or for good.
    Asking again replaces the earlier record."""
    access_writable(actor)
    person = access_user_self_or_admin(actor, person_id if person_id is not None else actor.id)
    ai_user = access_user(ai_user_id)
    if not ai_user.is_ai:
        raise InvalidInput("not an AI user")
    if ai_user.id == person.id:
        raise InvalidInput("cannot stop yourself")
    now = now or timezone.now()
    until = None if forever else now + timedelta(hours=settings.STGY_AI_STOP_HOURS)
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    with transaction.atomic():
        stop, _ = AiStop.objects.update_or_create(
            person_id=person.id, ai_user_id=ai_user.id,
            defaults={"until": until, "created_at": now, "source": "button", "said_in": None},
        )
    stop.ai_user = ai_user
    return stop


def ai_stop_from_words(person: User, ai_user: User, *, said_in: int, source: str = "words", now=None) -> tuple[AiStop, bool]:
    """The person asked the AI user in their own words (a reply, mention or message:
    `said_in`) to stop: the same stop as the Stop button's, for STGY_AI_STOP_HOURS.
    Caught by `sns.core.stop_words.stop_request` ("words") or by the model reading them
    ("model"); the AI side records it, and may only add a stop, never lift or shorten
    one: a stop already in force is left as it is. (stop, whether it is new)."""
    if source not in ("words", "model"):
        raise ValueError("source must be words or model")
    if not ai_user.is_ai or ai_user.id == person.id:
        raise InvalidInput("not an AI user")
    now = now or timezone.now()
    until = now + timedelta(hours=settings.STGY_AI_STOP_HOURS)
    with transaction.atomic():
        row = AiStop.objects.select_for_update().filter(person_id=person.id, ai_user_id=ai_user.id).first()
        if row is not None and row.is_active(now):
            return row, False
        fields = {"until": until, "created_at": now, "source": source, "said_in": said_in}
        if row is None:
            # Unique per pair: a concurrent insert makes this one fail, not duplicate.
            row = AiStop.objects.create(person_id=person.id, ai_user_id=ai_user.id, **fields)
        else:
            AiStop.objects.filter(pk=row.pk).update(**fields)
            row.refresh_from_db()
    row.ai_user = ai_user
    return row, True


def ai_stop_remove(actor: User, ai_user_id: int, *, person_id: int | None = None) -> None:
    """Undo a stop record (expired ones too: they no longer count either way)."""
    access_writable(actor)
    person = access_user_self_or_admin(actor, person_id if person_id is not None else actor.id)
    deleted, _ = AiStop.objects.filter(person_id=person.id, ai_user_id=ai_user_id).delete()
    if not deleted:
        raise NotFound("stop not found")
