"""A card's time tooltip (sns/web/display.py `time_title`) prints the year in four
digits, as the API's dates do (sns/web/cards.py, the one source of the card, which the
kept cards of sns/web/fragments.py are drawn by)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from django.utils import timezone

from sns.web import cards
from sns.web.display import time_title


def test_a_recent_time_reads_as_strftime_wrote_it():
    moment = datetime(2026, 12, 4, 23, 5, tzinfo=UTC)
    assert time_title(moment) == moment.strftime("%Y-%m-%d %H:%M ") + "UTC"


def test_an_early_year_keeps_four_digits_on_the_card(settings):
    settings.TIME_ZONE = "UTC"
    moment = datetime(179, 5, 14, 8, 30, tzinfo=UTC)
    post = SimpleNamespace(created_at=moment, hex_id="00000000000000ab")
    with timezone.override("UTC"):
        assert time_title(timezone.localtime(moment)) == "0179-05-14 08:30 UTC"
        html = str(cards._time_html(post, ""))
        assert 'title="0179-05-14 08:30 UTC"' in html
        assert 'datetime="0179-05-14T08:30:00+00:00"' in html
