"""How the pages show ids, times and lengths: plain functions that the cards
(sns/web/cards.py) call directly and the templates use as filters (stgy_web)."""

from __future__ import annotations

import zlib
from functools import lru_cache

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timesince
from django.utils.timezone import is_aware


def is_long(text, compact=False) -> bool:
    """Whether a card should clamp this Markdown and offer "Read more": more than about
    14 lines (5 on a compact card). A heuristic; the clamp itself is CSS."""
    lines = 5 if compact else 14
    text = str(text or "")
    return text.count("\n") >= lines or len(text) > lines * 60


@lru_cache(maxsize=1)
def _post_path_prefix() -> str:
    return reverse("web:post", args=["0"])[:-1]


def post_url(hex_id, action: str = "") -> str:
    """The path of a post page, or of one of its actions ("like", "unlike", "reply"...),
    the same as `{% url 'web:post' %}` / `{% url 'web:post-<action>' %}` give. A card
    has half a dozen such links and resolving each through the URL patterns was a
    tenth of a timeline's render time."""
    path = _post_path_prefix() + str(hex_id)
    return f"{path}/{action}" if action else path


@lru_cache(maxsize=1)
def _profile_path_prefix() -> str:
    return reverse("web:profile", args=["0"])[:-1]


def profile_url(hex_id) -> str:
    """The path of a user's profile page, as `{% url 'web:profile' %}` gives."""
    return _profile_path_prefix() + str(hex_id)


def hue(user_id) -> int:
    """One of eight avatar colours, stable per user (a class: the CSP allows no inline
    style). Hashed, because the low bits of an id are a worker number and a sequence."""
    return zlib.crc32(str(user_id).encode()) % 8


# `timesince(depth=1)` names the first non-zero of years, months, weeks, days, hours and
# minutes, in English "1\xa0minute" / "2\xa0minutes".
_UNITS = ((7 * 24 * 60 * 60, "week"), (24 * 60 * 60, "day"), (60 * 60, "hour"), (60, "minute"))
# A whole calendar month is at least 28 days on the clock: under that, no month to count.
_SHORTEST_MONTH = 28 * 24 * 60 * 60
_ENGLISH = frozenset({"en", "en-us"})


def ago(moment) -> str:
    """ "just now", "5 minutes ago", "2 days ago" (in the viewer's time zone's now)."""
    if not moment:
        return ""
    return ago_at(moment, timezone.now(), english=in_english())


def in_english() -> bool:
    """Whether the active language is one `ago_at(english=True)` may write itself."""
    return translation.get_language() in _ENGLISH


def ago_at(moment, now, *, english: bool) -> str:
    """`ago(moment)` as of `now`, `english` being `in_english()`: a page's cards share
    one now and one language rather than asking Django for them card by card."""
    if not moment:
        return ""
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    # Django's timesince, through lazy translations, was most of a card's "… ago";
    # the English is written here (compared in tests/web/test_ago.py).
    if english:
        return f"{_english_since(moment, now, seconds)} ago"
    return f"{timesince(moment, now, depth=1)} ago"


def _unit(count: int, unit: str) -> str:
    return f"{count}\xa0{unit}{'' if count == 1 else 's'}"


def _english_since(moment, now, seconds: float) -> str:
    """`timesince(moment, now, depth=1)` in English, for a moment `seconds` (a minute or
    more) before `now`."""
    # As Django's timesince counts: in `moment`'s time zone (the cards' times and now
    # are both UTC, nothing to convert), whole calendar months and years first, then
    # the time left.
    if moment.tzinfo is not now.tzinfo and is_aware(now) and is_aware(moment):
        now = now.astimezone(moment.tzinfo)
        seconds = (now - moment).total_seconds()
    if seconds >= _SHORTEST_MONTH:
        months = (now.year - moment.year) * 12 + now.month - moment.month
        if moment.day > now.day or (moment.day == now.day and moment.time() > now.time()):
            months -= 1
        if months >= 12:
            return _unit(months // 12, "year")
        if months:
            return _unit(months, "month")
    for size, unit in _UNITS:
        count = int(seconds // size)
        if count:
            return _unit(count, unit)
    return _unit(0, "minute")


def time_title(local) -> str:
    """A card's time tooltip for the local `local`: the year always four digits, as the
    API prints its dates (sns/core/isotime.py); strftime's %Y gives "179" for the year 179."""
    return f"{local.year:04d}-{local:%m-%d %H:%M} {local.tzname() or ''}"

