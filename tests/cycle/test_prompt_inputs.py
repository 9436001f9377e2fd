"""What the stages put into their prompts, read off the requests the local
OpenAI-compatible server received: the profile prefix in the AI user's own language,
summaries only beside cut content, no locale that repeats the task's."""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings

from agents import prompts
from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from tests.factories import make_post, make_user

from .helpers import make_site, push_answers, summarise, vector_with_cosine

pytestmark = pytest.mark.django_db


def requests_of(server, task_heading: str) -> list:
    """The requests asking the task: its heading opens their user message (the system
    message lists every cycle task's instructions under their headings)."""
    return [r for r in server.chat_requests() if r.body["messages"][-1]["content"].startswith(task_heading + "\n")]


def prompts_of(server, task_heading: str) -> list[str]:
    return [r.prompt for r in requests_of(server, task_heading)]


def payload_of(prompt: str, label: str) -> dict:
    """The one-line JSON document on the line after `label` (the template's input label)."""
    lines = prompt.splitlines()
    return json.loads(lines[lines.index(label) + 1])


def run_until(ai, stage: str):
    run = cycle_begin(ai.id)
    for name in ("select_posts", "post_impressions", "peer_impressions"):
        stage_execute(run.pk, name)
        if name == stage:
            break
    return run


def test_a_summary_is_sent_only_beside_cut_content(model_server, settings):
    settings.STGY_AI_USER_POST_TEXT_LIMIT = 40
    ai, (short,) = make_site(cosines=(100,))
    with override_settings(STGY_AI_PROVIDER="none"):
        long = make_post(make_user("Writer"), "Sourdough bread notes. " * 20)
    summarise(long, vector_with_cosine(100), text="A long sourdough diary, condensed.")
    push_answers(model_server)
    run_until(ai, "post_impressions")

    posts = {}
    (text,) = prompts_of(model_server, "## Task: impressions of posts")
    for item in payload_of(text, "Posts:")["posts"]:
        posts[item["post"]["author"]] = item["post"]
    assert posts["Person0"]["content"] == short.content
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\dZ", posts["Person0"]["createdAt"])  # to the minute
    assert "summary" not in posts["Person0"]  # the whole text is there: no summary
    assert posts["Writer"]["content"].endswith("…")
    assert posts["Writer"]["summary"] == "A long sourdough diary, condensed."


def test_the_profile_prefix_follows_the_ai_user_not_the_post(model_server):
    ai, (post,) = make_site(cosines=(100,))
    ai.locale = "ja-JP"
    ai.save(update_fields=["locale"])
    post.locale = "en-US"
    post.save(update_fields=["locale"])
    push_answers(model_server)
    run_until(ai, "post_impressions")

    (text,) = prompts_of(model_server, "## タスク: 複数の投稿への感想")  # in its own language
    assert text.startswith(prompts.common_instructions("ja"))  # the Japanese user's own profile text
    assert "English (en-US)" in text  # while the impression is asked in the post's language


def test_a_locale_is_sent_only_where_it_differs_from_the_tasks(model_server):
    ai, (post,) = make_site(cosines=(100,))
    author = post.owner
    author.locale = "en-US"
    author.save(update_fields=["locale"])
    with override_settings(STGY_AI_PROVIDER="none"):
        make_post(author, "Ein Brot aus Roggen.", locale="de-DE")
    push_answers(model_server)
    run_until(ai, "peer_impressions")

    (text,) = prompts_of(model_server, "## Task: impressions of users")
    (peer,) = payload_of(text, "Users:")["users"]
    assert "English (en-US)" in text and "locale" not in peer  # {{LOCALE}} says it already
    assert peer["nickname"] == author.nickname and "userId" not in peer
    assert [p.get("locale") for p in peer["posts"]] == ["de-DE", None]


def test_the_interest_input_links_users_and_posts_by_nickname(model_server):
    ai, posts = make_site(cosines=(100, 90))
    push_answers(model_server)
    run_cycle_sync(ai.id)

    (request,) = requests_of(model_server, "## Task: current interests")
    read = payload_of(request.prompt, "Read:")
    assert {u["nickname"] for u in read["users"]} == {p.owner.nickname for p in posts}
    assert {p["authorNickname"] for p in read["posts"]} == {p.owner.nickname for p in posts}
    assert all("userId" not in u for u in read["users"])
    assert all("authorId" not in p for p in read["posts"])
    profile = json.loads(request.body["messages"][0]["content"].rsplit("\n", 1)[1])
    assert profile["nickname"] == ai.nickname and profile["currentInterest"] == "Fermentation and bread"
    assert "userId" not in profile and "currentInterestTags" not in profile


def test_every_call_of_a_cycle_opens_with_one_system_message(model_server):
    """The cacheable prefix as the provider receives it: each request of the cycle
    starts with the same system message (common instructions + this user's profile)
    and carries the task in the user message after it (docs/prompts.md §2)."""
    ai, _posts = make_site(cosines=(100, 90))
    push_answers(model_server)
    run_cycle_sync(ai.id)

    requests = model_server.chat_requests()
    tasks = {r.body["messages"][1]["content"].split("\n", 1)[0] for r in requests}
    assert {"## Task: impressions of posts", "## Task: impressions of users", "## Task: current interests"} <= tasks
    firsts = [r.body["messages"][0] for r in requests]
    assert all(m["role"] == "system" for m in firsts)
    assert all([m["role"] for m in r.body["messages"]] == ["system", "user"] for r in requests)
    # The interest stage writes a new interest, so the calls after it (the new post)
    # carry the new profile; every call before it shares one system message.
    interest_at = next(i for i, r in enumerate(requests) if r.body["messages"][1]["content"].startswith("## Task: current interests"))
    before_interest = firsts[: interest_at + 1]
    assert len({m["content"] for m in before_interest}) == 1
    common = prompts.common_instructions(ai.locale)
    assert all(m["content"].startswith(common) for m in firsts)


def test_a_cycle_reply_is_asked_in_the_language_the_post_is_written_in(model_server):
    from sns.models import Post

    ai, (post,) = make_site(cosines=(100,))
    assert post.owner.locale == "en-US" and post.locale is None
    Post.objects.filter(pk=post.pk).update(content="ライ麦のサワー種がやっと一晩で二倍に膨らみました。")
    push_answers(model_server)
    run_cycle_sync(ai.id)

    # The AI user's own (English) instructions, asking for Japanese: the post's language,
    # though its author's account says en-US.
    [request] = requests_of(model_server, "## Task: reply")
    task = request.body["messages"][-1]["content"]
    assert "日本語（ja）" in task and "English (en-US)" not in task, task
