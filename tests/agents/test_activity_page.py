import json

import pytest
from django.test import Client

from .conftest import logged_in


@pytest.mark.django_db
def test_admin_sees_runs_and_a_run_in_detail(admin, finished_run):
    page = logged_in(admin).get("/agents/activity")
    assert page.status_code == 200
    assert f"/agents/runs/{finished_run.pk}" in page.content.decode()
    detail = logged_in(admin).get(f"/agents/runs/{finished_run.pk}")
    body = detail.content.decode()
    assert detail.status_code == 200
    for stage in ("select_posts", "post_impressions", "interest_update", "follow_management"):
        assert stage in body
    assert "offline" in body  # the LLM calls are labelled with the stand-in provider


@pytest.mark.django_db
def test_activity_filter_by_user(admin, finished_run, ai_user):
    other = logged_in(admin).get("/agents/activity?user=0000000000000001")
    assert f"/agents/runs/{finished_run.pk}" not in other.content.decode()
    mine = logged_in(admin).get(f"/agents/activity?user={ai_user.hex_id}")
    assert f"/agents/runs/{finished_run.pk}" in mine.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["human", "ai_user"])
def test_nobody_else_sees_run_records(request, who, finished_run):
    user = request.getfixturevalue(who)
    assert logged_in(user).get("/agents/activity").status_code == 403
    assert logged_in(user).get(f"/agents/runs/{finished_run.pk}").status_code == 403


@pytest.mark.django_db
def test_anonymous_is_sent_to_login(finished_run):
    response = Client().get("/agents/activity")
    assert response.status_code == 302
    assert "/login" in response["Location"]


@pytest.mark.django_db
def test_admin_runs_a_real_health_check_from_the_activity_page(settings, admin, human, llm_server):
    llm_server.push_chat("ok", prompt_tokens=5, completion_tokens=1)
    client = logged_in(admin)
    response = client.post("/agents/llm-check", follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert "LLM answered" in body and "Last health check:</strong>\n    ok" in body
    assert len(llm_server.chat_requests()) == 1  # it really called the model
    assert logged_in(human).post("/agents/llm-check").status_code == 403


@pytest.mark.django_db
def test_the_run_detail_speaks_in_names(admin, finished_run, human, ai_user):
    body = logged_in(admin).get(f"/agents/runs/{finished_run.pk}").content.decode()
    read = finished_run.details["reads"][0]
    # The post read shows its opening words and its author's nickname; the id is on hover.
    assert f'title="{read["postId"]}"' in body and f">{read['postId']}<" not in body
    assert "“Fermentation of miso and koji" in body or "“Sourdough starters love rye" in body
    assert f'<a href="/users/{human.hex_id}" title="{human.hex_id}">{human.nickname}</a>' in body


@pytest.mark.django_db
def test_the_activity_page_explains_the_stage_chips(admin, finished_run):
    body = logged_in(admin).get("/agents/activity").content.decode()
    assert 'data-testid="stage-legend"' in body
    for meaning in ("ok", "skipped", "failed", "not run yet"):
        assert meaning in body


@pytest.mark.django_db
def test_a_refusal_is_a_styled_page_and_no_traceback(human, caplog):
    with caplog.at_level("WARNING", logger="django.request"):
        response = logged_in(human).get("/agents/activity")
    body = response.content.decode()
    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in body and "Admin only." in body
    assert 'class="nav' in body  # the site's own layout, not a bare page
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.getMessage() == "Forbidden (Permission denied): /agents/activity"
    assert record.exc_info is None


@pytest.mark.django_db
def test_an_unknown_page_is_a_styled_404(admin):
    response = logged_in(admin).get("/agents/runs/999999999")
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.content.decode()


@pytest.mark.django_db
def test_impressions_read_as_prose_in_django_admin(admin, finished_run, ai_user):
    from agents.models import PostImpression

    impression = PostImpression.objects.filter(user=ai_user).first()
    client = logged_in(admin)
    page = client.get(f"/admin/agents/postimpression/{impression.pk}/change/").content.decode()
    prose = json.loads(impression.payload)["impression"]
    assert prose[:30] in page and '"impression":' not in page
    listing = client.get(f"/admin/agents/postimpression/?user__id__exact={ai_user.id}")
    assert listing.status_code == 200 and prose[:30] in listing.content.decode()
