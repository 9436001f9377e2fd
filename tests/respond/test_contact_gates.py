"""The respond path's `boundaries` and `backoff` gates: the person's switches and
"stop" records, and no fourth write to a person who has not answered three."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sns.services import boundaries, messages
from tests.factories import make_ai_user

from .helpers import conversation, post_quietly, reply_quietly
from .test_gates import refused_by

pytestmark = pytest.mark.django_db


def test_the_person_turned_ai_replies_off_after_replying():
    ai, person, *_, event = conversation()
    boundaries.ai_boundaries_update(person, person.id, allow_replies=False)
    assert refused_by(ai, event) == "boundaries"
    assert event.outcome == "boundaries: the user does not accept replies from AI users"


def test_the_other_switches_do_not_stop_a_reply():
    ai, person, *_, event = conversation()
    boundaries.ai_boundaries_update(person, person.id, allow_mentions=False, allow_messages=False)
    assert refused_by(ai, event) is None


@pytest.mark.parametrize(("age_hours", "refused"), [(47.9, True), (48.1, False)])
def test_a_48_hour_stop_at_its_boundary(age_hours, refused):
    ai, person, *_, event = conversation()
    boundaries.ai_stop_add(person, ai.id, now=timezone.now() - timedelta(hours=age_hours))
    assert refused_by(ai, event) == ("boundaries" if refused else None)


def test_a_stop_for_good_and_its_undoing():
    ai, person, *_, event = conversation()
    boundaries.ai_stop_add(person, ai.id, forever=True)
    assert refused_by(ai, event) == "boundaries"
    assert event.outcome.endswith("the user asked this AI user to stop")
    boundaries.ai_stop_remove(person, ai.id)
    *_, second = conversation(ai=ai, person=person)
    assert refused_by(ai, second) is None


def test_another_ai_user_being_stopped_does_not_count():
    ai, person, *_, event = conversation()
    boundaries.ai_stop_add(person, make_ai_user("Bo").id, forever=True)
    assert refused_by(ai, event) is None


@pytest.mark.parametrize(("writes", "refused"), [(2, False), (3, True), (4, True)])
def test_back_off_at_three_unanswered_writes(writes, refused):
    """The person replied; before the run the AI user wrote to them `writes` times
    (replies to their posts, then messages), none answered."""
    ai, person, *_, event = conversation()
    for i in range(writes):
        if i % 2:
            messages.message_send(ai, person.id, content=f"Me again ({i})")
        else:
            reply_quietly(ai, post_quietly(person, f"Person's post {i}"), f"AI reply {i}")
    assert refused_by(ai, event) == ("backoff" if refused else None)


def test_back_off_ends_when_the_person_writes_again():
    ai, person, *_, first = conversation()
    for i in range(3):
        messages.message_send(ai, person.id, content=f"Me again ({i})")
    assert refused_by(ai, first) == "backoff"
    *_, second = conversation(ai=ai, person=person)  # a new reply of the person
    assert refused_by(ai, second) is None
