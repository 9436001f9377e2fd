"""How often verification mail may go out, and how many sign-ups an hour may finish.

The original's limits (docs/accounts.md §4): at most STGY_MAIL_ADDRESS_LIMIT_PER_MIN
mails a minute to one address, STGY_MAIL_DOMAIN_LIMIT_PER_MIN to one domain and
STGY_MAIL_GLOBAL_LIMIT_PER_MIN in all; STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT sign-ups
an hour site-wide. Ours, checked first: STGY_MAIL_CLIENT_LIMIT_PER_MIN and
STGY_MAIL_CLIENT_LIMIT_PER_HOUR mails asked for by one client address (an IPv6 client
by its /64), so that one client cannot use up the site-wide budget and make everyone's
sign-up and reset answer "global limit exceeded". Counters live in the cache in
one-minute buckets, like sns/core/throttle.py; check-then-count is not atomic across
processes, so a burst may overshoot by the number of concurrent requests, which is
acceptable for a throttle; a refused request counts nothing.

A mail is counted whether or not it carries a code, and a password reset for an
address without an account is counted too: the limits must not tell a stranger which
addresses are registered.
"""

from __future__ import annotations

import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from .errors import InvalidInput, Throttled

_SIGNUP_WINDOW_MINUTES = 60


def _minute() -> int:
    return int(time.time() // 60)


def _bucket_keys(base: str, minutes: int) -> list[str]:
    now = _minute()
    return [f"{base}:{m}" for m in range(now - minutes + 1, now + 1)]


def _sum(keys: list[str]) -> int:
    return sum(int(v) for v in cache.get_many(keys).values())


def _count(key: str, ttl: int) -> None:
    cache.add(key, 0, ttl)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, ttl)


def _mail_bases(address: str) -> list[tuple[str, str, str]]:
    domain = address.rsplit("@", 1)[-1].lower()
    return [
        ("mail:sent:all", "STGY_MAIL_GLOBAL_LIMIT_PER_MIN", "global limit exceeded"),
        (f"mail:sent:domain:{domain}", "STGY_MAIL_DOMAIN_LIMIT_PER_MIN", "domain limit exceeded"),
        (f"mail:sent:address:{address}", "STGY_MAIL_ADDRESS_LIMIT_PER_MIN", "address limit exceeded"),
    ]


def client_of(request) -> str:
    """The client address the mail budgets count by: the login throttle's reading of it
    (X-Forwarded-For only as far as STGY_TRUSTED_PROXIES allows), an IPv6 address by its
    /64, which one client usually holds whole."""
    ident = BaseThrottle().get_ident(request) or "unknown"
    try:
        address = ipaddress.ip_address(ident)
    except ValueError:
        return ident
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _client_spent(base: str) -> bool:
    keys = _bucket_keys(base, 60)
    counts = cache.get_many(keys)
    return (
        int(counts.get(keys[-1], 0)) >= settings.STGY_MAIL_CLIENT_LIMIT_PER_MIN
        or sum(int(v) for v in counts.values()) >= settings.STGY_MAIL_CLIENT_LIMIT_PER_HOUR
    )


def mail_allow(address: str, *, client: str | None = None) -> None:
    """Refuse (400) a mail to `address` asked for by `client` over the limits, or count
    it. The client's budgets come first (`client limit exceeded`), then the original's
    per-minute limits and reasons. A minute's window is the current clock minute: a
    limit of N lets N mails through in a minute, at most 2N in 60 seconds across a
    minute's edge; the client's hour is the last sixty such minutes. `client` None (no
    request behind the mail) has no client budget."""
    client_base = f"mail:sent:client:{client}"
    if client is not None and _client_spent(client_base):
        raise InvalidInput("client limit exceeded")
    bases = _mail_bases(address)
    for base, setting, reason in bases:
        if _sum(_bucket_keys(base, 1)) >= getattr(settings, setting):
            raise InvalidInput(reason)
    for base, _, _ in bases:
        _count(_bucket_keys(base, 1)[-1], 120)
    if client is not None:
        _count(_bucket_keys(client_base, 1)[-1], 61 * 60)


def signup_room() -> None:
    """403 `too often signups` when this hour's sign-ups reached the limit."""
    keys = _bucket_keys("signup:done", _SIGNUP_WINDOW_MINUTES)
    if _sum(keys) >= settings.STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT:
        raise Throttled("too often signups")


def signup_done() -> None:
    _count(_bucket_keys("signup:done", 1)[-1], (_SIGNUP_WINDOW_MINUTES + 1) * 60)
