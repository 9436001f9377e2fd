"""Boundaries said in words, through the real path: a person sends an AI user "please
stop messaging me" (or 「もう連絡しないで」) through the API, a real Celery worker runs
the respond task, and the stop is then listed by GET /users/{id}/ai-stops; the AI user
acknowledged it once, answers nothing more and opens no conversation while it holds."""

from __future__ import annotations

import pytest
from django.utils import timezone

from agents.cycle.context import StageContext
from agents.cycle.outreach import outreach
from agents.models import AttentionEvent, CycleRun, Relationship
from agents.respond.stop import ACKNOWLEDGEMENT
from sns import services
from sns.models.messages import Message
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user
from tests.integration.worker import WORKER_TEST_MARKS, celery_worker, sending_to, wait_for
from tests.respond.helpers import PERSONA

pytestmark = WORKER_TEST_MARKS


def from_ai(ai) -> list[Message]:
    return list(Message.objects.filter(sender=ai).order_by("id"))


def handled(message_id: int):
    return AttentionEvent.objects.filter(message_id=message_id).exclude(status__in=("pending", "claimed")).first()


@pytest.mark.parametrize(
    ("words", "lang"), [("Thanks, but please stop messaging me.", "en"), ("ごめんなさい、もう連絡しないで。", "ja")]
)
def test_a_stop_said_in_a_message_holds_against_answers_and_outreach(tmp_path, settings, words, lang):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_OUTREACH_PROBABILITY = 1.0
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    # A friend the AI user would write to first, were it not for the stop.
    services.follow_add(person, ai.id)
    services.follow_add(ai, person.id)
    Relationship.objects.create(user=ai, peer=person, score=0.7, updated_at=timezone.now())
    make_post(person, "My rye sourdough starter finally doubled overnight after a week of feeding.")
    client = login_client(person)
    log = tmp_path / "worker.log"
    with celery_worker(log, STGY_AI_PROVIDER="offline"), sending_to():
        sent = client.post(f"/api/messages/conversations/{ai.hex_id}", {"content": words}, format="json")
        assert sent.status_code == 201, sent.content
        first = int(sent.json()["id"], 16)
        wait_for(lambda: handled(first), 30, lambda: "the stop\n" + log.read_text()[-3000:])

        stops = client.get(f"/api/users/{person.hex_id}/ai-stops").json()
        assert [(s["aiUserId"], s["source"]) for s in stops] == [(ai.hex_id, "words")]
        [ack] = from_ai(ai)
        assert ack.content == ACKNOWLEDGEMENT[lang].format(nick="Mina")

        # Within the stop: another message is not answered...
        again = client.post(
            f"/api/messages/conversations/{ai.hex_id}", {"content": "How is your starter, by the way?"}, format="json"
        )
        second = int(again.json()["id"], 16)
        event = wait_for(lambda: handled(second), 30, lambda: "the refusal\n" + log.read_text()[-3000:])
    assert event.status == "refused" and event.outcome.startswith("boundaries:")
    assert len(from_ai(ai)) == 1
    run = CycleRun.objects.get(pk=AttentionEvent.objects.get(message_id=first).run_id)
    assert run.details["events"][0]["stop"]["detectedBy"] == "matcher"

    # ...and the AI user's cycle opens no conversation with her.
    cycle = CycleRun.objects.create(user=ai, started_at=timezone.now(), details={})
    outreach(StageContext(run=cycle, stage="follow_management"))
    [looked] = cycle.details["outreach"]["candidates"]
    assert looked["refused"] == "boundaries: the user asked this AI user to stop"
    assert len(from_ai(ai)) == 1
