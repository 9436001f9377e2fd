"""Sessions, for both interfaces: log in, log out, switch user, and keeping one's own
session through a password change (docs/api.md §1). The API and the pages call these,
so a session made by either carries the same keys (`logged_in_at` included)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate, login, logout, update_session_auth_hash
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.utils import timezone
from django.utils.module_loading import import_string

from sns.auth import backend as auth_backend
from sns.core.errors import NotFound
from sns.core.isotime import iso
from sns.models import User
from sns.reads.access import access_admin

from .users import user_set_password

LOGGED_IN_AT = "logged_in_at"


def session_login(request, *, email: str, password: str) -> User | None:
    """Checks the password and, if it is right, makes `request`'s session the user's
    (a new key). None when the address or the password is wrong; the caller says so
    in its own way."""
    user = authenticate(request, email=email.strip().lower(), password=password)
    if user is None:
        return None
    session_begin(request, user)
    return user


def session_begin(request, user: User) -> None:
    """Makes `request`'s session the user's (a new key), stamped with the login time a
    password change may rely on (`session_logged_in_at`)."""
    login(request, user, backend=auth_backend.PATH)
    request.session[LOGGED_IN_AT] = iso(timezone.now())


def session_logged_in_at(session) -> datetime | None:
    """When the session's user logged in (by password, sign-up or an admin's switch);
    None for a session without the stamp."""
    stamp = session.get(LOGGED_IN_AT)
    try:
        return datetime.fromisoformat(stamp) if isinstance(stamp, str) else None
    except ValueError:
        return None


def session_is_actors(request, actor: User) -> bool:
    """Whether `request`'s session is the acting user's own. Not so for a personal access
    token's request (docs/api.md, "Personal access tokens"), which acts by the token
    whatever cookie it carries: that cookie's recent login must not vouch for the
    token's user."""
    return str(request.session.get(SESSION_KEY)) == str(actor.id)


def session_logout(request) -> None:
    logout(request)


def session_switch_user(request, actor: User, target_id: int) -> str:
    """An admin gets a new session of another user and it becomes `request`'s session
    (the session middleware saves it and sets its cookie); the admin's own session
    stays valid. Returns the new session's key."""
    access_admin(actor)
    target = User.objects.filter(pk=target_id).first()
    if target is None:
        raise NotFound("user not found")
    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    # Switched sessions are not piled up (docs/differences.md item 10): a new switch of
    # the same admin to the same user ends the previous switched session.
    remembered = f"switched-session:{actor.pk}:{target.pk}"
    previous = cache.get(remembered)
    if previous:
        store_class(session_key=previous).delete()
    store: SessionBase = store_class()
    # The keys django.contrib.auth.login() writes, without touching the admin's session.
    store["_auth_user_id"] = str(target.pk)
    store["_auth_user_backend"] = auth_backend.PATH
    store["_auth_user_hash"] = target.get_session_auth_hash()
    store[LOGGED_IN_AT] = iso(timezone.now())
    store.create()
    cache.set(remembered, store.session_key, settings.SESSION_COOKIE_AGE)
    request.session = store
    return store.session_key


def session_password_change(
    request, actor: User, user_id: int, password, *, current_password=None
) -> None:
    """Sets a password (the rules are `user_set_password`'s: one's own needs the current
    password or a recent login of this session). The new hash ends every session of that
    user; when it is the caller's own password, the caller's session is kept (under a
    new key)."""
    own_session = session_is_actors(request, actor)
    user_set_password(
        actor,
        user_id,
        password,
        current_password=current_password,
        logged_in_at=session_logged_in_at(request.session) if own_session else None,
    )
    if user_id == actor.id and own_session:
        actor.refresh_from_db(fields=["password"])
        update_session_auth_hash(request, actor)
