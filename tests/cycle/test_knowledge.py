"""Draft → retrieve → revise in the cycle (agents/runs/knowledge.py), through the real
gateway and the local model server: the reply and the new post are revised with the
knowledge post their drafts touch and cite it; the run record keeps the draft, the
posts retrieved with their scores, and the revision; without knowledge, the same calls
as before."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.test import override_settings

from agents.cycle.run import run_cycle_sync
from agents.models import LlmUsage
from sns.models import Post
from tests.factories import make_post, make_user

from .helpers import make_site, push_answers

pytestmark = pytest.mark.django_db

GUIDE = "# Starter temperature\n\nKeep the sourdough starter warm: how warm you keep it decides the rise. Lovely crumb follows."
REVISED = 'Lovely point; the handbook\'s "Starter temperature" says warmth decides the rise.'
# What push_answers scripts as the drafts (each its own, numbered).
DRAFT = re.compile(r"Note \d+: lovely point about the starter; how warm do you keep it\?")


def _tasks(run) -> Counter:
    return Counter(LlmUsage.objects.filter(run=run).values_list("task", flat=True))


def _site(settings, *, knowledge: bool):
    settings.STGY_AI_USER_SKIP_NEW_POST_DAYS = 0
    book = make_user("Handbook", email="handbook@example.com")
    with override_settings(STGY_AI_PROVIDER="none"):
        guide = make_post(book, GUIDE)
    if knowledge:
        settings.STGY_KNOWLEDGE_ACCOUNTS = ["handbook@example.com"]
    return make_site(cosines=(100,)), guide


def test_the_reply_and_the_new_post_cite_the_knowledge_post(settings, model_server):
    (ai, (post,)), guide = _site(settings, knowledge=True)
    # The one scripted revision serves both texts; the near-duplicate check, which would
    # refuse the second, is not what this test is about.
    settings.STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE = 2
    settings.STGY_AI_NEAR_DUPLICATE_SIMILARITY = 2
    push_answers(model_server)
    model_server.answer_when("## Task: revise", json.dumps({"content": REVISED, "tags": ["bread"]}))

    run = run_cycle_sync(ai.id)

    sources = f"Sources: [Starter temperature](/posts/{guide.hex_id})"
    [reply] = Post.objects.filter(owner=ai, reply_to=post.id)
    assert reply.content == f"{REVISED}\n\n{sources}"
    [root] = Post.objects.filter(owner=ai, reply_to__isnull=True)
    assert root.content == f"{REVISED}\n\n{sources}"
    [record] = run.details["replies"]
    for knowledge in (record["knowledge"], run.details["newPost"]["knowledge"]):
        assert DRAFT.fullmatch(knowledge["draft"])
        [step] = knowledge["rounds"]
        assert [r["postId"] for r in step["retrieved"]] == [guide.hex_id] and step["retrieved"][0][
            "score"
        ] == 1.0
        assert step["revision"] == REVISED and knowledge["cited"] == [guide.hex_id]
    revisions = [r for r in model_server.chat_requests() if "## Task: revise" in r.prompt]
    assert len(revisions) == 2
    drafts = [record["knowledge"]["draft"], run.details["newPost"]["knowledge"]["draft"]]
    assert all("Keep the sourdough starter warm" in r.prompt for r in revisions)
    assert sorted(d for d in drafts for r in revisions if d in r.prompt) == sorted(drafts)
    tasks = _tasks(run)
    assert (tasks["revise"], tasks["reply-post"], tasks["new-post"]) == (2, 1, 1)


def test_without_knowledge_the_cycle_makes_the_same_calls(settings, model_server):
    (ai, (post,)), _ = _site(settings, knowledge=False)
    push_answers(model_server)

    run = run_cycle_sync(ai.id)

    [reply] = Post.objects.filter(owner=ai, reply_to=post.id)
    assert DRAFT.fullmatch(reply.content)
    tasks = _tasks(run)
    assert "revise" not in tasks and (tasks["reply-post"], tasks["new-post"]) == (1, 1)
    assert (
        "knowledge" not in run.details["replies"][0] and "knowledge" not in run.details["newPost"]
    )
    assert not any("## Task: revise" in r.prompt for r in model_server.chat_requests())
