"""A card's "… ago" (sns/web/display.py `ago`) is Django's `timesince(depth=1)` with
" ago", whatever the age, the calendar, the time zones and the active language."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from zoneinfo import ZoneInfo

from django.utils import timezone, translation
from django.utils.timesince import timesince

from sns.web.display import ago, ago_at

MINUTE, HOUR, DAY = 60, 3600, 86400
# Half a second off every boundary, so the clock moving between the two calls cannot
# cross one.
AGES = [
    0, 30, 59, MINUTE, MINUTE + 1, 2 * MINUTE, 59 * MINUTE + 59, HOUR, HOUR + 1, 2 * HOUR, 23 * HOUR + 59 * MINUTE,
    DAY, DAY + 1, 2 * DAY, 6 * DAY + 23 * HOUR, 7 * DAY, 8 * DAY, 13 * DAY, 14 * DAY, 27 * DAY + 23 * HOUR,
    28 * DAY - 1, 28 * DAY, 29 * DAY, 31 * DAY, 45 * DAY, 364 * DAY, 365 * DAY, 800 * DAY,
]


def _expected(moment) -> str:
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, depth=1)} ago"


def test_ago_is_timesince_in_english():
    for seconds in AGES:
        moment = timezone.now() - timedelta(seconds=seconds + 0.5)
        assert ago(moment) == _expected(moment), seconds
    assert ago(timezone.now() - timedelta(seconds=2 * DAY + 5)) == "2\xa0days ago"
    assert ago(timezone.now() - timedelta(seconds=HOUR + 5)) == "1\xa0hour ago"


def test_ago_in_another_language_is_timesince():
    with translation.override("fr"):
        for seconds in AGES:
            moment = timezone.now() - timedelta(seconds=seconds + 0.5)
            assert ago(moment) == _expected(moment), seconds
        assert "jours" in ago(timezone.now() - timedelta(days=2, seconds=5))


def test_no_moment_is_empty():
    assert ago(None) == ""


def test_ago_at_a_given_now_is_timesince_at_that_now():
    # The cards of one page share one now (sns/web/fragments.py `_View`).
    now = timezone.now() - timedelta(days=3)
    for english, language in ((True, "en"), (False, "fr")):
        with translation.override(language):
            for seconds in AGES:
                moment = now - timedelta(seconds=seconds)
                expected = "just now" if seconds < 60 else f"{timesince(moment, now, depth=1)} ago"
                assert ago_at(moment, now, english=english) == expected, (language, seconds)
    assert ago_at(now - timedelta(hours=5), now, english=True) == "5\xa0hours ago"
    assert ago_at(None, now, english=True) == ""


def test_months_and_years_are_counted_as_timesince_counts_them():
    # Calendar months and years (a month from January 31st, a leap day, a year-end),
    # in UTC as the cards' times are and in a zone with summer time; every 7 hours 13
    # minutes over three years before each now. English is the test settings' language.
    for zone in (dt_timezone.utc, ZoneInfo("America/New_York")):
        for now in (datetime(2024, 3, 1, 0, 30, tzinfo=zone), datetime(2025, 1, 31, 23, 59, tzinfo=zone),
                    datetime(2024, 2, 29, 12, 0, tzinfo=zone), datetime(2026, 11, 2, 1, 30, tzinfo=zone)):
            for step in range(0, 3 * 365 * 24 * 60, 7 * 60 + 13):
                moment = now - timedelta(minutes=step + 1)
                # ... and the moment in another zone than now's, whose calendar counts
                for moment in (moment, moment.astimezone(ZoneInfo("Asia/Tokyo"))):
                    expected = f"{timesince(moment, now, depth=1)} ago"
                    assert ago_at(moment, now, english=True) == expected, (now, moment)
