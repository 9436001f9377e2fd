"""Cost per AI user per day and the chart of the last 14 days on the Agent activity
page (agents/usage_report.py, agents/web/usage_chart.py): sums made in the database, a
bounded number of queries, cached tokens at the cached price, admins only."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from agents.llm.usage import usage_record
from agents.models import LlmUsage
from agents.usage_report import DAYS, ai_user_daily_cost, usage_by_day, usage_by_task_model, usage_by_user
from agents.web.usage_chart import usage_panels
from tests.factories import make_ai_user

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 6, 15, 12, 0, tzinfo=timezone.utc)
PRICES = "chat-model=2:0.5:8"  # per million tokens: fresh input, cached input, output


def spend(user, *, days_ago=0, prompt=1000, cached=0, completion=100, hour=10, now=NOW):
    row = usage_record(provider="openai", model="chat-model", outcome="ok", task="post-impression",
                       user_id=user.id if user else None, prompt_tokens=prompt, cached_tokens=cached,
                       completion_tokens=completion)
    moment = (now - timedelta(days=days_ago)).replace(hour=hour, minute=0)
    LlmUsage.objects.filter(pk=row.pk).update(created_at=moment)
    return row


@pytest.fixture
def priced(settings):
    settings.STGY_AI_PRICES = PRICES


def test_cached_tokens_cost_the_cached_price(priced, ai_user):
    row = spend(ai_user, prompt=10_000, cached=8_000, completion=500)
    # 2,000 fresh × 2 + 8,000 cached × 0.5 + 500 out × 8, per million tokens
    assert row.cost == Decimal("0.012000")
    assert spend(ai_user, prompt=10_000, cached=0, completion=500).cost == Decimal("0.024000")


def test_days_are_summed_in_the_database_with_empty_days_as_zeros(priced, ai_user, django_assert_num_queries):
    spend(ai_user, days_ago=0, cached=600)
    spend(ai_user, days_ago=0, hour=23)
    spend(ai_user, days_ago=2)
    spend(ai_user, days_ago=DAYS)  # one day too old
    other = make_ai_user("Mina")
    spend(other, days_ago=0)
    with django_assert_num_queries(1):
        site = usage_by_day(now=NOW)
    assert len(site) == DAYS and site[-1].day == NOW.date() and site[0].day == (NOW - timedelta(days=DAYS - 1)).date()
    assert [d.calls for d in site[-3:]] == [1, 0, 3]
    today = site[-1]
    assert (today.prompt_tokens, today.cached_tokens, today.completion_tokens) == (3000, 600, 300)
    assert today.fresh_tokens == 2400 and today.cost == sum(
        r.cost for r in LlmUsage.objects.filter(created_at__gte=NOW.replace(hour=0)))
    with django_assert_num_queries(1):
        mine = usage_by_day(user_id=ai_user.id, now=NOW)
    assert [d.calls for d in mine[-3:]] == [1, 0, 2]
    assert sum(d.calls for d in mine) == 3


def test_cost_per_ai_user_ranks_by_cost_with_today_and_per_day(priced, ai_user, human, django_assert_num_queries):
    big = make_ai_user("Big spender")
    for days_ago in (0, 1, 5):
        spend(big, days_ago=days_ago, prompt=20_000, cached=15_000)
    spend(ai_user, days_ago=3)
    spend(human, days_ago=0, prompt=50_000)  # a person's /ai-users/chat calls: not an AI user
    spend(None, days_ago=0, prompt=50_000)  # a summary: no user
    with django_assert_num_queries(1):
        users = usage_by_user(now=NOW)
    assert [u.nickname for u in users] == ["Big spender", "Aiko"]
    top = users[0]
    per_call = Decimal("0.010000") + Decimal("0.007500") + Decimal("0.000800")  # 5k fresh, 15k cached, 100 out
    assert top.cost == 3 * per_call and top.cost_today == per_call
    # Per day since its first call in the window (5 days ago: 6 days, today included).
    assert top.days == 6 and top.cost_per_day == (3 * per_call / 6).quantize(Decimal("0.000001"))
    assert top.calls == 3 and top.cached_percent == 75 and top.hex_id == big.hex_id
    assert users[1].cost_today == 0 and users[1].days == 4


def test_panels_stack_cached_fresh_and_completion_tokens():
    spend_days = usage_by_day(now=NOW)  # all zeros
    panels = usage_panels(spend_days)
    assert [p.key for p in panels] == ["tokens", "cost", "calls"]
    assert all(p.bars == [] and p.peak == "0" for p in panels)
    assert panels[0].ticks[-1][1] == NOW.strftime("%m-%d")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page_queries(client, url) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_the_activity_page_draws_the_site_and_one_user(priced, admin, ai_user):
    now = datetime.now(timezone.utc)
    spend(ai_user, days_ago=0, prompt=4000, cached=3000, now=now)
    spend(ai_user, days_ago=1, prompt=2000, now=now)
    client = _client(admin)
    _page_queries(client, "/agents/activity")  # the first request also fills per-process caches
    queries_small, body = _page_queries(client, "/agents/activity")
    for key in ("tokens", "cost", "calls"):
        svg = re.search(rf'<svg class="chart chart-{key}".*?</svg>', body, re.S).group(0)
        assert 'role="img"' in svg and f'aria-labelledby="chart-{key}-title chart-{key}-desc"' in svg
        assert f'<title id="chart-{key}-title">' in svg and f'<desc id="chart-{key}-desc">' in svg
        assert "<rect" in svg and "style=" not in svg  # coloured by classes: CSP has no inline styles
    assert 'class="bar-cached"' in body and 'class="bar-fresh"' in body
    table = re.search(r'<table class="visually-hidden" data-testid="usage-table">.*?</table>', body, re.S).group(0)
    assert table.count("<tr>") == DAYS + 1
    assert "<td>3,000</td>" in table  # today's cached prompt tokens
    users = re.search(r'data-testid="usage-users">.*?</table>', body, re.S).group(0)
    assert f'href="?user={ai_user.hex_id}"' in users and "Aiko" in users
    assert "<td>6,000 (50 %)</td>" in users  # 3,000 of its 6,000 prompt tokens were cached
    # More AI users and more rows: the same number of queries.
    for i in range(6):
        other = make_ai_user(f"AI {i}")
        for days_ago in range(4):
            spend(other, days_ago=days_ago, now=now)
    queries_large, body = _page_queries(client, "/agents/activity")
    assert queries_large == queries_small
    assert body.count('href="?user=') >= 7
    queries_user, body = _page_queries(client, f"/agents/activity?user={ai_user.hex_id}")
    assert "Model use, last 14 days (UTC): Aiko" in body and 'data-testid="usage-users"' not in body
    assert queries_user <= queries_small


@pytest.mark.parametrize("who", ["human", "ai_user"])
def test_the_chart_is_for_admins_only(request, who, ai_user):
    spend(ai_user, now=datetime.now(timezone.utc))
    user = request.getfixturevalue(who)
    for url in ("/agents/activity", f"/agents/activity?user={ai_user.hex_id}"):
        response = _client(user).get(url)
        assert response.status_code == 403
        assert b"chart-tokens" not in response.content


def test_the_median_ai_users_cost_a_day_and_the_dearest_ten(priced, human, django_assert_num_queries):
    users = [make_ai_user(f"Ai{i:02d}") for i in range(12)]
    for i, user in enumerate(users):
        for days_ago in (0, 1):  # two days each: the cost a day is half the total
            spend(user, days_ago=days_ago, prompt=1000 * (i + 1), completion=0)
    spend(human, prompt=10**6)  # a person's chat calls are not an AI user's cost
    with django_assert_num_queries(2):
        daily = ai_user_daily_cost(now=NOW)
    assert daily.users == 12
    # AI user i costs (i + 1) × 1000 × 2 / 10^6 a call day, 0.002 × (i + 1); median of 1..12 is 6.5
    assert daily.median == Decimal("0.013000")
    assert [u.nickname for u in daily.top] == [f"Ai{i:02d}" for i in range(11, 1, -1)]
    assert daily.top[0].cost_per_day == Decimal("0.024000") and daily.top[0].days == 2


def test_which_model_did_what(priced, ai_user):
    spend(ai_user, now=datetime.now(timezone.utc))
    usage_record(provider="openai", model="chat-model", outcome="ok", task="reply-post", user_id=ai_user.id,
                 prompt_tokens=10, completion_tokens=1)
    found = {(u.task, u.model): u.calls for u in usage_by_task_model()}
    assert found == {("post-impression", "chat-model"): 1, ("reply-post", "chat-model"): 1}


def test_the_activity_page_shows_the_median_the_top_ten_and_the_models(priced, admin, ai_user):
    spend(ai_user, now=datetime.now(timezone.utc))
    client = Client()
    client.force_login(admin)
    page = client.get("/agents/activity").content.decode()
    assert 'data-testid="usage-daily-cost"' in page and "Median AI user" in page
    assert 'data-testid="usage-daily-top"' in page and ai_user.nickname in page
    assert 'data-testid="usage-models"' in page and "chat-model" in page
