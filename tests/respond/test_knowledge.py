"""Draft → retrieve → revise on the respond path (agents/runs/knowledge.py): an answer
on a topic a knowledge post covers is revised with that post and cites it; a knowledge
post hidden from the AI user is never retrieved; without knowledge, one call as before."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from agents.models import LlmCallTrace, LlmUsage
from agents.respond.run import respond_run
from sns import services
from sns.models import Post
from tests.factories import make_user

from .helpers import answer_json, conversation, post_quietly

pytestmark = pytest.mark.django_db

HANDBOOK_EMAIL = "handbook@example.com"
STARTER = "# Starter care\n\nKeep a rye sourdough starter warm in winter, at about 24°C. A cold starter sulks for days."
QUESTION = "How warm do you keep the rye starter in winter? Mine sulks."
DRAFT = "Warm, Mina: my rye sourdough starter sulks in winter too."
REVISED = (
    'Warm, Mina: as the handbook\'s "Starter care" says, about 24°C; a cold starter sulks for days.'
)


@pytest.fixture
def model(llm_server):
    """The local model server: the answer is DRAFT, a revision REVISED."""
    llm_server.push_chat(answer_json(content=DRAFT))
    llm_server.answer_when("## Task: revise", json.dumps({"content": REVISED, "tags": ["bread"]}))
    return llm_server


@pytest.fixture
def handbook(settings):
    settings.STGY_KNOWLEDGE_ACCOUNTS = [HANDBOOK_EMAIL]
    settings.STGY_AI_TRACE_RETENTION_DAYS = 7
    book = make_user("Handbook", email=HANDBOOK_EMAIL)
    return book, post_quietly(book, STARTER)


def _answer(ai, reply) -> Post:
    [answer] = Post.objects.filter(owner=ai, reply_to=reply.id)
    return answer


def test_an_answer_on_a_covered_topic_cites_the_knowledge_post(handbook, model):
    _, guide = handbook
    ai, person, _, reply, _ = conversation(text=QUESTION)

    run = respond_run(ai.id)

    answer = _answer(ai, reply)
    # A link on the post's page; the same Markdown line, plain, in the API's content.
    client = Client()
    client.force_login(person)
    page = client.get(f"/posts/{answer.hex_id}").content.decode()
    assert f'href="/posts/{guide.hex_id}"' in page
    api = client.get(f"/api/posts/{answer.hex_id}").json()
    assert api["content"].endswith(f"Sources: [Starter care](/posts/{guide.hex_id})")
    assert answer.content == f"{REVISED}\n\nSources: [Starter care](/posts/{guide.hex_id})"
    [record] = run.details["events"]
    knowledge = record["knowledge"]
    assert knowledge["draft"] == DRAFT
    [step] = knowledge["rounds"]
    assert [r["postId"] for r in step["retrieved"]] == [guide.hex_id] and 0 < step["retrieved"][0][
        "score"
    ] <= 1
    assert step["revision"] == REVISED and knowledge["cited"] == [guide.hex_id]
    # The model was shown the draft and the knowledge post's text.
    [revise] = [r for r in model.chat_requests() if "## Task: revise" in r.prompt]
    assert DRAFT in revise.prompt and "about 24°C. A cold starter sulks for days." in revise.prompt
    tasks = list(LlmUsage.objects.filter(run=run).order_by("id").values_list("task", flat=True))
    assert tasks == ["respond", "revise"]
    # The revise call's prompt: every byte in a layer, the draft and the source among them.
    trace = LlmCallTrace.objects.get(run=run, task="revise")
    assert trace.unaccounted_bytes == 0
    assert {layer["name"] for layer in trace.layers if layer["kind"] == "input"} >= {
        "draft",
        "sources",
    }


def test_without_knowledge_the_answer_is_one_call_as_before(settings, model):
    assert settings.STGY_KNOWLEDGE_ACCOUNTS == [] and settings.STGY_KNOWLEDGE_TAGS == []
    book = make_user("Handbook", email=HANDBOOK_EMAIL)
    post_quietly(book, STARTER)
    ai, _, _, reply, _ = conversation(text=QUESTION)

    run = respond_run(ai.id)

    assert _answer(ai, reply).content == DRAFT
    assert list(LlmUsage.objects.filter(run=run).values_list("task", flat=True)) == ["respond"]
    run.refresh_from_db()
    assert run.llm_calls == 1 and "knowledge" not in run.details["events"][0]


@pytest.mark.parametrize("who_blocks", ["ai", "handbook"])
def test_a_knowledge_post_hidden_from_the_ai_user_is_never_retrieved(handbook, model, who_blocks):
    book, _ = handbook
    ai, _, _, reply, _ = conversation(text=QUESTION)
    if who_blocks == "ai":
        services.block_add(ai, book.id)
    else:
        services.block_add(book, ai.id)

    run = respond_run(ai.id)

    assert _answer(ai, reply).content == DRAFT
    assert run.details["events"][0]["knowledge"]["rounds"] == [{"retrieved": []}]
    assert list(LlmUsage.objects.filter(run=run).values_list("task", flat=True)) == ["respond"]


def test_a_tag_marks_knowledge_and_an_unrelated_answer_is_not_revised(settings, model):
    settings.STGY_KNOWLEDGE_TAGS = ["handbook"]
    author = make_user("Keeper")
    guide = post_quietly(author, STARTER, tags=["handbook"])
    post_quietly(author, "# Starter care, old\n\nKeep a rye starter warm in winter.")  # not tagged
    ai, _, _, reply, _ = conversation(text=QUESTION)
    run = respond_run(ai.id)
    assert (
        _answer(ai, reply).content == f"{REVISED}\n\nSources: [Starter care](/posts/{guide.hex_id})"
    )
    assert [
        r["postId"] for r in run.details["events"][0]["knowledge"]["rounds"][0]["retrieved"]
    ] == [guide.hex_id]

    # Nothing in the handbook about parcels: no revision, the draft as it was.
    _, _, _, other, _ = conversation(
        ai=ai, text="Did the parcel from Osaka arrive yesterday afternoon?"
    )
    model.push_chat(answer_json(content="The parcel came on Tuesday, Mina."))
    run = respond_run(ai.id)
    assert _answer(ai, other).content == "The parcel came on Tuesday, Mina."
    assert list(LlmUsage.objects.filter(run=run).values_list("task", flat=True)) == ["respond"]


def test_retrieval_is_one_query_whatever_the_knowledge_base_holds(
    handbook, django_assert_num_queries
):
    from agents.runs.knowledge import admin_sources, retrieve

    book, guide = handbook
    for i in range(5):
        post_quietly(book, f"# Note {i}\n\nA starter kept warm in winter rises; note {i}.")
    ai = conversation(text=QUESTION)[0]
    admin_sources()  # the sources marked in Django admin are read once and cached
    with django_assert_num_queries(1):
        hits = retrieve(ai, "How warm should a rye sourdough starter stay in winter?")
    assert hits[0]["id"] == guide.id and len(hits) == 3  # STGY_KNOWLEDGE_TOP_N


def test_a_publication_s_published_posts_are_knowledge_and_its_others_are_not(settings):
    from datetime import timedelta

    from django.utils import timezone

    from agents.runs.knowledge import retrieve

    settings.STGY_KNOWLEDGE_PUBLICATIONS = ["site@example.com"]
    owner = make_user("Site", email="site@example.com")
    published = post_quietly(owner, STARTER, published_at=timezone.now() - timedelta(days=1))
    post_quietly(owner, STARTER)  # an everyday post of the same account
    post_quietly(owner, STARTER, published_at=timezone.now() + timedelta(days=1))  # not yet public
    ai = conversation(text=QUESTION)[0]
    hits = retrieve(ai, "How warm should a rye sourdough starter stay in winter?")
    assert [h["id"] for h in hits] == [published.id]


def test_an_admin_marks_and_unmarks_a_source_in_django_admin(settings, django_assert_num_queries):
    from agents.models import KnowledgeSource
    from agents.runs.knowledge import knowledge_q, retrieve

    assert knowledge_q() is None  # nothing in the settings, nothing marked
    with django_assert_num_queries(0):
        assert knowledge_q() is None  # and a site without sources reads nothing again
    book = make_user("Handbook", email=HANDBOOK_EMAIL)
    guide = post_quietly(book, STARTER)
    ai = conversation(text=QUESTION)[0]
    admin = Client()
    admin.force_login(make_user("Root", is_admin=True))
    response = admin.post(
        "/admin/agents/knowledgesource/add/", {"kind": "account", "value": HANDBOOK_EMAIL, "note": ""}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    hits = retrieve(ai, "How warm should a rye sourdough starter stay in winter?")
    assert [h["id"] for h in hits] == [guide.id]

    source = KnowledgeSource.objects.get()
    response = admin.post(f"/admin/agents/knowledgesource/{source.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert knowledge_q() is None
