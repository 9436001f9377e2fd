"""Quiet hours (docs/messages.md): hours in the person's own time zone in which AI
users never start a conversation with them, set beside the other AI boundaries through
the API and the settings page; bad input is refused and changes nothing."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from sns.models import AiBoundaries, User
from sns.selectors.boundaries import ai_boundaries_get, ai_quiet_hours_refusal, in_quiet_hours
from tests.conftest import login_client

pytestmark = pytest.mark.django_db

TOKYO = ZoneInfo("Asia/Tokyo")


def test_quiet_hours_through_the_api(human):
    User.objects.filter(pk=human.pk).update(timezone="Asia/Tokyo")
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-boundaries"
    response = client.put(path, {"quietHoursStart": "22:00", "quietHoursEnd": "07:30"}, format="json")
    assert response.status_code == 200, response.content
    data = client.get(path).json()
    assert (data["quietHoursStart"], data["quietHoursEnd"], data["timezone"]) == ("22:00", "07:30", "Asia/Tokyo")
    assert data["allowMessages"] is True  # the switches are left as they were
    # Clearing takes both.
    cleared = client.put(path, {"quietHoursStart": None, "quietHoursEnd": None}, format="json")
    assert (cleared.json()["quietHoursStart"], cleared.json()["quietHoursEnd"]) == (None, None)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"quietHoursStart": "25:00", "quietHoursEnd": "07:00"}, "quietHoursStart must be a time of day as HH:MM (00:00 to 23:59) or null"),
        ({"quietHoursStart": "22:00", "quietHoursEnd": "7pm"}, "quietHoursEnd must be a time of day as HH:MM (00:00 to 23:59) or null"),
        ({"quietHoursStart": 22, "quietHoursEnd": "07:00"}, "quietHoursStart must be a time of day as HH:MM (00:00 to 23:59) or null"),
        ({"quietHoursStart": "", "quietHoursEnd": "07:00"}, "quietHoursStart must be a time of day as HH:MM (00:00 to 23:59) or null"),
        ({"quietHoursStart": None}, "quietHoursStart and quietHoursEnd must both be set or both be null"),
        ({"quietHoursStart": "06:00"}, "quietHoursStart and quietHoursEnd must differ"),  # the end stays 06:00
        ({"quietHoursEnd": None}, "quietHoursStart and quietHoursEnd must both be set or both be null"),
        ({"quietHoursStart": "08:00", "quietHoursEnd": "08:00"}, "quietHoursStart and quietHoursEnd must differ"),
        ({"quietHoursStart": "22:00", "quietHoursEnd": "07:00", "allowReplies": "no"}, "allowReplies must be a boolean"),
    ],
)
def test_bad_quiet_hours_are_refused_and_change_nothing(human, body, error):
    AiBoundaries.objects.create(user=human, quiet_start=time(23), quiet_end=time(6), updated_at=datetime.now(TOKYO))
    response = login_client(human).put(f"/api/users/{human.hex_id}/ai-boundaries", body, format="json")
    assert response.status_code == 400 and response.json() == {"error": error}
    current = ai_boundaries_get(human.id)
    assert (current.quiet_start, current.quiet_end, current.allow_replies) == (time(23), time(6), True)


def test_an_unknown_time_zone_is_refused_and_the_quiet_hours_keep_theirs(human):
    client = login_client(human)
    response = client.put(f"/api/users/{human.hex_id}", {"timezone": "Mars/Olympus"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "timezone is invalid"}
    assert client.get(f"/api/users/{human.hex_id}/ai-boundaries").json()["timezone"] == "UTC"


def test_other_people_can_neither_read_nor_set_them(human, follower):
    path = f"/api/users/{human.hex_id}/ai-boundaries"
    other = login_client(follower)
    assert other.put(path, {"quietHoursStart": "22:00", "quietHoursEnd": "07:00"}, format="json").status_code == 403
    assert ai_boundaries_get(human.id).quiet_start is None


@pytest.mark.parametrize(
    ("start", "end", "local", "quiet"),
    [
        (time(22), time(7), time(23, 30), True),
        (time(22), time(7), time(6, 59), True),
        (time(22), time(7), time(7), False),  # the end is not quiet any more
        (time(22), time(7), time(12), False),
        (time(13), time(14), time(13, 30), True),
        (time(13), time(14), time(14, 30), False),
        (None, None, time(3), False),
    ],
)
def test_the_hours_wrap_past_midnight(start, end, local, quiet):
    assert in_quiet_hours(start, end, local) is quiet


def test_the_rule_reads_the_hours_in_the_persons_time_zone(human):
    User.objects.filter(pk=human.pk).update(timezone="Asia/Tokyo")
    human.refresh_from_db()
    AiBoundaries.objects.create(user=human, quiet_start=time(22), quiet_end=time(7), updated_at=datetime.now(TOKYO))
    late_in_tokyo = datetime(2026, 5, 1, 23, 30, tzinfo=TOKYO)  # 14:30 UTC
    noon_in_tokyo = datetime(2026, 5, 1, 12, 0, tzinfo=TOKYO)  # 03:00 UTC
    why = ai_quiet_hours_refusal(human, now=late_in_tokyo)
    assert why == "quiet hours 22:00–07:00 (Asia/Tokyo), now 23:30 there"
    assert ai_quiet_hours_refusal(human, now=noon_in_tokyo) is None

