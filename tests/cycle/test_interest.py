"""Stage 5, the interest update (docs/agent-cycle.md §7): what is embedded, and the
hysteresis stored = encode(L2(L2(new) + h·L2(old))), checked byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, stage_execute
from agents.llm.parsing import parse_interest
from agents.models import Interest
from agents.vectors import decode_features, encode_features, l2_normalize
from tests.llm_server import fake_vector

from .helpers import (
    INTRODUCTION,
    PERSONALITY,
    UNIVERSAL,
    answer,
    base_vector,
    make_site,
    push_answers,
)

pytestmark = pytest.mark.django_db

INTEREST_STAGE = STAGES.index("interest_update")


def run_until_interest(ai):
    run = cycle_begin(ai.id)
    for stage in STAGES[: INTEREST_STAGE + 1]:
        record = stage_execute(run.pk, stage)
    assert record["outcome"] == "ok", record
    run.refresh_from_db()
    return run


def expected_embedding_input() -> str:
    tags = parse_interest(answer())["tags"]
    assert tags == ["bread", "fermentation"]
    # interest, blank line, one tag per line, blank line, the introduction as plain text
    return (
        f"{UNIVERSAL['interest']}\n\nbread\nfermentation\n\n"
        "I bake sourdough bread and ferment miso at home."
    )


def test_the_embedding_input_is_interest_tags_and_introduction_never_the_personality(model_server):
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server, shouldReply=False)
    run_until_interest(ai)

    (request,) = model_server.embedding_requests()
    assert request.body["input"] == [expected_embedding_input()]
    assert PERSONALITY not in request.body["input"][0]
    assert "lighthouse" not in request.body["input"][0]
    assert INTRODUCTION.replace("**", "") in request.body["input"][0]


@pytest.mark.parametrize(("h", "previous"), [(0.5, True), (2.0, True), (0.5, False)])
def test_the_stored_vector_is_the_hysteresis_blend(model_server, settings, h, previous):
    settings.STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT = h
    ai, _ = make_site(cosines=(100,))
    old = base_vector()
    if not previous:
        Interest.objects.filter(user=ai).delete()
    push_answers(model_server, shouldReply=False)
    run_until_interest(ai)

    generated = encode_features(
        np.asarray(fake_vector(expected_embedding_input(), 512), dtype=np.float32)
    )
    new = l2_normalize(decode_features(generated))
    old_unit = l2_normalize(decode_features(old)) if previous else np.zeros_like(new)
    expected = encode_features(l2_normalize(new + h * old_unit))

    stored = Interest.objects.get(user=ai)
    assert bytes(stored.features) == expected
    assert stored.interest == UNIVERSAL["interest"]
    assert stored.tags == ["bread", "fermentation"]
    assert stored.embedding_model == "openai:text-embedding-3-small"
    if previous:
        assert bytes(stored.features) != generated  # the old direction was mixed in
    else:
        assert bytes(stored.features) == encode_features(new)


def test_interest_input_uses_recent_impressions_and_the_old_interest_in_the_profile(model_server):
    ai, (post,) = make_site(cosines=(100,))
    push_answers(model_server, shouldReply=False)
    run_until_interest(ai)
    interest_call = model_server.chat_requests()[-1].prompt
    assert "Fermentation and bread" in interest_call  # currentInterest: the old one
    assert post.content in interest_call  # the post read this cycle
    assert UNIVERSAL["impression"] in interest_call


def test_the_stages_record_is_saved_with_the_interest_and_renews_the_lease(model_server):
    from django.utils import timezone

    from agents.models import AgentState

    ai, _ = make_site(cosines=(100,))
    push_answers(model_server, shouldReply=False)
    run = cycle_begin(ai.id)
    for stage in STAGES[:INTEREST_STAGE]:
        stage_execute(run.pk, stage)
    AgentState.objects.filter(user=ai).update(lease_until=timezone.now())
    record = stage_execute(run.pk, "interest_update")

    run.refresh_from_db()
    assert record["outcome"] == "ok" and record["model"] and record["ms"] >= 0
    assert run.stages["interest_update"] == record  # as returned
    assert run.details["interestAfter"]["interest"] == Interest.objects.get(user=ai).interest
    state = AgentState.objects.get(user=ai)
    assert state.lease_run == run.pk and state.lease_until > timezone.now()
