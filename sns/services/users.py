"""Accounts: creation after a verified sign-up, creation by admins, profile updates, passwords, deletion."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..core import throttle
from ..reads.access import (
    access_admin,
    access_owner_proof,
    access_user_self_or_admin,
    access_writable,
)
from ..core.errors import Conflict, Forbidden, InvalidInput
from ..mdtree import make_snippet
from ..auth.passwords import password_check
from ..auth.session import auth_record_forget
from ..models import AiMemory, AiTier, Follow, Like, Post, User
from ..core.text import normalize_locale, normalize_timezone
from ..core.textguard import checked_text, refuse_invalid, strip_invisible

_UNSET = object()


def _clean_email(email) -> str:
    if not isinstance(email, str) or not email.strip():
        raise InvalidInput("email is required")
    email = refuse_invalid(email, "email").strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidInput("email is invalid") from None
    if len(email) > 100:
        raise InvalidInput("email is too long")
    return email


def _clean_nickname(nickname) -> str:
    if not isinstance(nickname, str):
        raise InvalidInput("nickname is required")
    # Bidi overrides and invisible controls could make one name pass for another.
    nickname = " ".join(strip_invisible(refuse_invalid(nickname, "nickname")).split())
    if not nickname:
        raise InvalidInput("nickname is required")
    if len(nickname) > 50:
        raise InvalidInput("nickname is too long")
    return nickname


def _clean_password(password, user: User | None = None, *, self_service: bool = True) -> str:
    """Self-service passwords meet AUTH_PASSWORD_VALIDATORS (length, not common, not
    like the e-mail or nickname); one an admin sets only has to be non-blank, as in
    the original (docs/accounts.md §6). The rule is sns/auth/passwords.py's."""
    return password_check(password, user, self_service=self_service)


def _clean_ai_model(ai_model):
    if ai_model in (None, ""):
        return None
    if ai_model not in AiTier.values:
        raise InvalidInput("aiModel must be one of advanced, balanced, basic")
    return ai_model


def _clean_long_text(actor: User, value, name: str, limit_setting: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    refuse_invalid(value, name)
    if not actor.is_admin and len(value) > getattr(settings, limit_setting):
        raise InvalidInput(f"{name} is too long")
    return value


def _clean_avatar(avatar) -> str | None:
    if avatar in (None, ""):
        return None
    return checked_text(avatar, "avatar", max_length=User._meta.get_field("avatar").max_length)


def _create(*, email, nickname, password, self_service: bool, password_hash=None, **fields) -> User:
    email = _clean_email(email)
    if User.objects.filter(email=email).exists():
        raise Conflict("email is already in use")
    user = User(email=email, nickname=_clean_nickname(nickname), **fields)
    user.snippet = make_snippet(user.introduction)
    if password_hash:
        user.password = password_hash
    else:
        user.set_password(_clean_password(password, user, self_service=self_service))
    user.save(force_insert=True)
    return user


def user_create_verified(
    *, email, nickname, password=None, password_hash=None, locale="en-US", timezone_name="UTC"
) -> User:
    """A human account whose e-mail address has just been verified; only
    sns.services.accounts calls this, after checking the code (docs/accounts.md §1).
    `password` is the typed password; `password_hash` one checked and hashed when the
    sign-up started (POST /signup/start takes the password first)."""
    return _create(
        email=email,
        nickname=nickname,
        password=password,
        password_hash=password_hash,
        self_service=True,
        locale=normalize_locale(locale or "en-US"),
        timezone=normalize_timezone(timezone_name or "UTC"),
    )


def user_create(
    actor: User,
    *,
    email,
    nickname,
    password,
    is_admin=False,
    block_strangers=False,
    locale="en-US",
    timezone_name="UTC",
    introduction="",
    avatar=None,
    ai_model=None,
    ai_personality=None,
    user_id: int | None = None,
) -> User:
    access_admin(actor)
    access_writable(actor)
    fields = dict(
        is_admin=bool(is_admin),
        block_strangers=bool(block_strangers),
        locale=normalize_locale(locale or "en-US"),
        timezone=normalize_timezone(timezone_name or "UTC"),
        introduction=_clean_long_text(actor, introduction or "", "introduction", "STGY_INTRODUCTION_LENGTH_LIMIT"),
        avatar=_clean_avatar(avatar),
        ai_model=_clean_ai_model(ai_model),
        ai_personality=ai_personality if ai_personality else None,
    )
    if user_id is not None:
        if User.objects.filter(pk=user_id).exists():
            raise Conflict("id is already in use")
        fields["id"] = user_id
    return _create(email=email, nickname=nickname, password=password, self_service=False, **fields)


def _clean_ai_memory(value) -> str:
    """ "allowed" or "none" (docs/what-ai-users-know.md, "Don't remember me")."""
    if value not in AiMemory.values:
        raise InvalidInput("aiMemory must be allowed or none")
    return value


def user_update(
    actor: User,
    user_id: int,
    *,
    email=_UNSET,
    nickname=_UNSET,
    introduction=_UNSET,
    avatar=_UNSET,
    locale=_UNSET,
    timezone_name=_UNSET,
    block_strangers=_UNSET,
    ai_personality=_UNSET,
    is_admin=_UNSET,
    is_frozen=_UNSET,
    ai_model=_UNSET,
    ai_memory=_UNSET,
) -> User:
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    if not actor.is_admin:
        for name, value in (("isAdmin", is_admin), ("isFrozen", is_frozen), ("aiModel", ai_model)):
            if value is not _UNSET:
                raise Forbidden(f"forbidden to change {name}")
        if ai_personality is not _UNSET and not user.is_ai:
            raise Forbidden("forbidden to change aiPersonality")
    size = 0
    if email is not _UNSET:
        new_email = _clean_email(email)
        if new_email != user.email:
            # One's own address changes only by the code mailed to the new one
            # (sns/services/accounts.py), admins' too; the original's clients send the
            # unchanged address back with every profile save, which stays accepted.
            # Admins still set other people's addresses here.
            if not actor.is_admin or user.id == actor.id:
                raise Forbidden(
                    "forbidden to change email without verification: "
                    "use /users/{id}/email/start and /email/verify"
                )
            if User.objects.filter(email=new_email).exists():
                raise Conflict("email is already in use")
        user.email = new_email
    if nickname is not _UNSET:
        user.nickname = _clean_nickname(nickname)
        size += len(user.nickname)
    if introduction is not _UNSET:
        user.introduction = _clean_long_text(actor, introduction, "introduction", "STGY_INTRODUCTION_LENGTH_LIMIT")
        user.snippet = make_snippet(user.introduction)
        size += len(user.introduction)
    if ai_personality is not _UNSET:
        text = _clean_long_text(actor, ai_personality or "", "aiPersonality", "STGY_AI_PERSONALITY_LENGTH_LIMIT")
        user.ai_personality = text or None
        size += len(text)
    # The fields without a size: each given one is cleaned, in this order, and set.
    for field, value, clean in (
        ("avatar", avatar, _clean_avatar),
        ("locale", locale, normalize_locale),
        ("timezone", timezone_name, normalize_timezone),
        ("block_strangers", block_strangers, bool),
        ("ai_memory", ai_memory, _clean_ai_memory),
        ("is_admin", is_admin, bool),
        ("is_frozen", is_frozen, bool),
        ("ai_model", ai_model, _clean_ai_model),
    ):
        if value is not _UNSET:
            setattr(user, field, clean(value))
    throttle.throttle_check(actor, throttle.USER_UPDATES, size=size)
    user.updated_at = timezone.now()
    # Changing isAdmin or isFrozen changes the session hash (User._get_session_auth_hash),
    # which ends every session of that user; the locale is in the auth record too.
    user.save()
    auth_record_forget(user.id)
    return user


def owner_proof(actor: User, user: User, *, current_password, logged_in_at) -> None:
    """When `actor` changes their own password or address: the proof of
    sns/reads/access.py `access_owner_proof`. Each current password given costs one of the
    hourly profile updates, so a stolen session cannot guess it at leisure."""
    if user.id != actor.id:
        return  # an admin acting on someone else (access_user_self_or_admin)
    if not isinstance(current_password, str):
        current_password = None
    if current_password:
        throttle.throttle_check(actor, throttle.USER_UPDATES)
    access_owner_proof(user, current_password=current_password, logged_in_at=logged_in_at)


def user_set_password(
    actor: User, user_id: int, password, *, current_password=None, logged_in_at=None
) -> None:
    """`current_password` and `logged_in_at` (when the actor's session logged in) are
    the proof a person changing their own password gives (`owner_proof`); an admin
    setting someone else's needs neither."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    if not isinstance(password, str) or not password:
        raise InvalidInput("password required")
    owner_proof(actor, user, current_password=current_password, logged_in_at=logged_in_at)
    user.set_password(_clean_password(password, user, self_service=not actor.is_admin))
    user.updated_at = timezone.now()
    user.save(update_fields=["password", "updated_at"])
    auth_record_forget(user.id)


def user_delete(actor: User, user_id: int) -> None:
    """Delete an account with its posts, likes, follows, blocks and AI memory, keeping
    the counters of everyone else right."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    with transaction.atomic():
        for followee_id in Follow.objects.filter(follower_id=user.id).values_list("followee_id", flat=True):
            User.objects.filter(pk=followee_id, follower_count__gt=0).update(follower_count=F("follower_count") - 1)
        for follower_id in Follow.objects.filter(followee_id=user.id).values_list("follower_id", flat=True):
            User.objects.filter(pk=follower_id, followee_count__gt=0).update(followee_count=F("followee_count") - 1)
        for post_id in Like.objects.filter(user_id=user.id).values_list("post_id", flat=True):
            Post.objects.filter(pk=post_id, like_count__gt=0).update(like_count=F("like_count") - 1)
        parents = Post.objects.filter(owner_id=user.id, reply_to__isnull=False).values_list("reply_to", flat=True)
        for parent_id in parents:
            Post.objects.filter(pk=parent_id, reply_count__gt=0).update(reply_count=F("reply_count") - 1)
        user_hex = user.hex_id
        user_id = user.id
        user.delete()
        auth_record_forget(user_id)
        # Their stored images and avatar go too, once the rows are gone (docs/media.md §4).
        from .media import media_delete_all

        transaction.on_commit(lambda: media_delete_all(user_hex))
