"""The boundaries a person sets for AI users: three switches and "stop" records.

The AI side asks `sns.selectors.boundaries.ai_contact_allowed`; these functions are
how a person (or an admin on their behalf) changes the answer.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import throttle
from ..access import access_user, access_user_self_or_admin, access_writable
from ..errors import InvalidInput, NotFound
from ..models import User
from ..models_messages import AiBoundaries, AiStop
from ..selectors.boundaries import Boundaries, ai_boundaries_get

_UNSET = object()


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be a boolean")
    return value


def ai_boundaries_update(
    actor: User,
    user_id: int,
    *,
    allow_replies=_UNSET,
    allow_mentions=_UNSET,
    allow_messages=_UNSET,
) -> Boundaries:
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
            person_id=person.id, ai_user_id=ai_user.id, defaults={"until": until, "created_at": now}
        )
    stop.ai_user = ai_user
    return stop


def ai_stop_remove(actor: User, ai_user_id: int, *, person_id: int | None = None) -> None:
    """Undo a stop record (expired ones too: they no longer count either way)."""
    access_writable(actor)
    person = access_user_self_or_admin(actor, person_id if person_id is not None else actor.id)
    deleted, _ = AiStop.objects.filter(person_id=person.id, ai_user_id=ai_user_id).delete()
    if not deleted:
        raise NotFound("stop not found")
