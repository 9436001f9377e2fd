"""Who is asking, from the session alone (docs/architecture.md, "Authentication").

Every request needs the caller's id, whether they are an admin or frozen, their locale
and whether their session is still valid; few need the rest of the 19-column user row.
So the session's user is built from a small *auth record* — the session hash (password,
admin and frozen folded in), the two flags, the locale, the accepted agreement term,
the nickname and time zone every page's header shows — with the newest term's id beside it, and every other column is deferred: the first one a view reads loads them all in one statement
(`User.refresh_from_db`).

Where the auth record comes from:
* `STGY_AUTH_RECORD_TTL` > 0 (the default with Redis): the shared cache, filled from
  the database on a miss. Every service that changes a recorded column calls
  `auth_record_forget`, at once and again after commit (so a request that read the
  old row just before the commit cannot leave it behind); the TTL bounds what an
  unforeseen writer could leave stale.
* 0 (the default without Redis, where the cache is per process): one lean query per
  request, so a change made by another process is seen at once.

With cached sessions in the same cache, a session the process has seen before is read
together with its user's record in one round trip (`_prefetch`); the session read in
that round trip still decides whose it is.

The check itself is Django's: the hash in the session must equal the user's current
one, otherwise the session is flushed — so a password change, a freeze or a role change
ends the user's other sessions exactly as before.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from asgiref.sync import sync_to_async

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import Subquery
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from ..models import AgreementTerm, User, session_auth_hash

# The columns the auth record keeps besides the id (the hash stands for the password).
# The accepted agreement term is here because every page checks it against the newest
# term (sns/selectors/agreements.py), whose id is kept beside the records; the
# nickname and time zone because every page's header shows them (templates/base.html).
RECORDED = ("is_admin", "is_frozen", "locale", "agreement_term_id", "nickname", "timezone")
# Every key of this module starts so; a delete of one that Redis missed is kept in the
# database until Redis has it (sns/auth/tombstones.py).
AUTH_RECORD_PREFIX = "auth-record:"
_LATEST_TERM = f"{AUTH_RECORD_PREFIX}latest-agreement-term"
_NO_TERM = 0  # the cached stand-in for "no term yet" (a cache cannot hold None as a hit)


class AuthRecord(NamedTuple):
    session_hash: str
    is_admin: bool
    is_frozen: bool
    locale: str
    agreement_term_id: int | None
    nickname: str
    timezone: str


def _key(user_id: int) -> str:
    # "v2": the record grew the nickname and time zone; a record cached before has
    # fewer fields and must not be read as one.
    return f"{AUTH_RECORD_PREFIX}v2:{user_id}"


def _from_database(user_id: int) -> tuple[AuthRecord | None, int | None]:
    """The record and the newest agreement term's id, in one statement."""
    newest = AgreementTerm.objects.order_by("-id").values("id")[:1]
    row = (
        User.objects.filter(pk=user_id)
        .annotate(latest_term=Subquery(newest))
        .values_list("password", *RECORDED, "latest_term")
        .first()
    )
    if row is None:
        return None, AgreementTerm.objects.order_by("-id").values_list("id", flat=True).first()
    password, is_admin, is_frozen, locale, term_id, nickname, zone, latest = row
    hashed = session_auth_hash(password, is_admin, is_frozen)
    return AuthRecord(hashed, is_admin, is_frozen, locale, term_id, nickname, zone), latest


def auth_record(user_id: int) -> tuple[AuthRecord | None, int | None]:
    """The user's auth record (None: no such user) and the newest agreement term's id;
    from the cache in one round trip when both are there."""
    ttl = settings.STGY_AUTH_RECORD_TTL
    if ttl <= 0:
        return _from_database(user_id)
    cached = cache.get_many([_key(user_id), _LATEST_TERM])
    if len(cached) == 2:
        latest = cached[_LATEST_TERM]
        return AuthRecord(*cached[_key(user_id)]), (None if latest == _NO_TERM else latest)
    record, latest = _from_database(user_id)
    fresh = {_LATEST_TERM: _NO_TERM if latest is None else latest}
    if record is not None:
        fresh[_key(user_id)] = tuple(record)
    cache.set_many(fresh, ttl)
    return record, latest


def record_key_forget(key: str) -> None:
    """Delete a key of this prefix at once and again after commit (a token's grant in
    sns/auth/token.py is kept under the prefix too)."""
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def auth_record_forget(user_id: int) -> None:
    """Called by every service that changes a user's password, flags, locale, nickname,
    time zone, accepted agreement term or existence; the next request of any of the
    user's sessions reads the row again. Deleted at once and again after commit, so a request that read the
    old row just before the commit cannot leave it cached."""
    record_key_forget(_key(user_id))


def latest_term_forget() -> None:
    """Called by the services that add, replace or delete an agreement term."""
    record_key_forget(_LATEST_TERM)


# Session key → the user id its session held when this process last read it. Only a
# hint of which auth record to fetch together with the session, in one round trip to
# the cache instead of two: the session read in that round trip decides whose it is,
# and a record fetched for another user is not used.
_SESSION_USERS: dict[str, int] = {}
_HINTS_KEPT = 10_000
_CACHED_SESSIONS = "django.contrib.sessions.backends.cached_db"


def _prefetch(session) -> tuple[int, AuthRecord, int | None] | None:
    """For a session this process has seen, with sessions cached where auth records are:
    its cached value (put in the session as its load would) and the hinted user's auth
    record, in one round trip. None when there is nothing to prefetch or the record is
    not cached."""
    key = session.session_key
    user_id = _SESSION_USERS.get(key) if key is not None else None
    if (
        user_id is None
        or hasattr(session, "_session_cache")
        or settings.STGY_AUTH_RECORD_TTL <= 0
        or settings.SESSION_ENGINE != _CACHED_SESSIONS
        or settings.SESSION_CACHE_ALIAS != "default"
    ):
        return None
    session_cache_key = session.cache_key
    cached = cache.get_many([session_cache_key, _key(user_id), _LATEST_TERM])
    data = cached.get(session_cache_key)
    if data is None:
        return None  # not cached (or the cache is away): the session loads as usual
    session._session_cache = data
    if _key(user_id) not in cached or _LATEST_TERM not in cached:
        return None
    latest = cached[_LATEST_TERM]
    return user_id, AuthRecord(*cached[_key(user_id)]), (None if latest == _NO_TERM else latest)


def _remember(session_key: str | None, user_id: int) -> None:
    if session_key is None:
        return
    if len(_SESSION_USERS) >= _HINTS_KEPT:
        _SESSION_USERS.clear()
    _SESSION_USERS[session_key] = user_id


# A session names the backend that logged it in; sessions written before the backend
# moved into sns/auth/ name its old path, and stay logged in (a login writes the new one).
_MOVED_BACKENDS = {"sns.auth_backend.UserBackend": "sns.auth.backend.UserBackend"}


def session_user(request):
    """The session's user, a `User` with only the recorded columns loaded, or an
    `AnonymousUser`; a session whose hash no longer matches is flushed, as
    `django.contrib.auth.get_user` does."""
    session = request.session
    prefetched = _prefetch(session)
    try:
        user_id = int(session[SESSION_KEY])
        backend = session[BACKEND_SESSION_KEY]
    except (KeyError, TypeError, ValueError):
        return AnonymousUser()
    backend = _MOVED_BACKENDS.get(backend, backend)
    if backend not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    if prefetched is not None and prefetched[0] == user_id:
        record, latest_term = prefetched[1], prefetched[2]
    else:
        record, latest_term = auth_record(user_id)
    if record is None:
        return AnonymousUser()
    if not constant_time_compare(session.get(HASH_SESSION_KEY, ""), record.session_hash):
        session.flush()
        return AnonymousUser()
    _remember(session.session_key, user_id)
    user = recorded_user(user_id, record, latest_term)
    user.backend = backend
    return user


def recorded_user(user_id: int, record: AuthRecord, latest_term: int | None) -> User:
    """A `User` with only the recorded columns loaded (the rest load together on first
    read); for a session here and for a personal access token (sns/auth/token.py)."""
    known = {"id": user_id, **{name: getattr(record, name) for name in RECORDED}}
    # from_db takes the given values in the model's column order.
    names = [f.attname for f in User._meta.concrete_fields if f.attname in known]
    user = User.from_db("default", names, [known[name] for name in names])
    user.load_rest_together = True
    # Read by sns/selectors/agreements.py (agreement_required) on every page.
    user.latest_agreement_term_id = latest_term
    return user


class SessionAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's middleware (the admin checks for it by class) with `session_user` in
    place of the full user load."""

    def process_request(self, request):
        request.user = SimpleLazyObject(lambda: session_user(request))
        request.auser = partial(_auser, request)


def _resolved(request):
    request.user.is_authenticated  # noqa: B018  (evaluates the lazy user)
    return request.user._wrapped


async def _auser(request):
    return await sync_to_async(_resolved)(request)
