"""Mutes (docs/mutes.md): hide a user, or posts with a word, from what one reads,
without telling anyone. Muting refuses nothing — the muted user may still reply, like
and follow; the muting person just does not see it (sns/selectors/visibility.py)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..core import throttle
from ..core.errors import Conflict, InvalidInput, NotFound
from ..models import User
from ..models.mutes import Mute, MutedWord
from ..reads.access import access_user_self_or_admin, access_writable

MUTED_WORDS_MAX = 100  # a list longer than this is a filter, not a few words
MUTED_WORD_MAX_CHARS = 50  # the column's length


def mute_add(actor: User, user_id: int) -> Mute:
    access_writable(actor)
    if user_id == actor.id:
        raise InvalidInput("cannot mute yourself")
    if not User.objects.filter(pk=user_id).exists():
        raise NotFound("not found")
    throttle.throttle_check(actor, throttle.USER_UPDATES)
    try:
        with transaction.atomic():
            return Mute.objects.create(user_id=actor.id, target_id=user_id, created_at=timezone.now())
    except IntegrityError:
        raise Conflict("already muted") from None


def mute_remove(actor: User, user_id: int) -> None:
    access_writable(actor)
    deleted, _ = Mute.objects.filter(user_id=actor.id, target_id=user_id).delete()
    if not deleted:
        raise NotFound("not muted")


def muted_words_clean(words) -> list[str]:
    """The list as stored: trimmed, inner whitespace collapsed, lower-cased, blanks and
    repeats dropped, in the order given; 400 for anything else than strings or a list
    too long."""
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise InvalidInput("words must be an array of strings")
    cleaned: list[str] = []
    for word in words:
        word = " ".join(word.split()).lower()
        if len(word) > MUTED_WORD_MAX_CHARS:
            raise InvalidInput("muted word is too long")
        if word and word not in cleaned:
            cleaned.append(word)
    if len(cleaned) > MUTED_WORDS_MAX:
        raise InvalidInput("too many muted words")
    return cleaned


def muted_words_set(actor: User, user_id: int, words) -> list[str]:
    """Replaces the muted words of `user_id` (the person themself, or an admin)."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    cleaned = muted_words_clean(words)
    now = timezone.now()
    with transaction.atomic():
        MutedWord.objects.filter(user_id=user.id).exclude(word__in=cleaned).delete()
        kept = set(MutedWord.objects.filter(user_id=user.id).values_list("word", flat=True))
        MutedWord.objects.bulk_create(
            [MutedWord(user_id=user.id, word=w, created_at=now) for w in cleaned if w not in kept]
        )
    return cleaned
