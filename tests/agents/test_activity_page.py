import pytest
from django.test import Client

from agents.cycle.run import run_cycle_sync
from tests.factories import make_post


@pytest.fixture
def finished_run(settings, human, ai_user):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    make_post(human, "Fermentation of miso and koji: a long weekend project.", tags=["food"])
    make_post(human, "Sourdough starters love rye flour and a warm kitchen.", tags=["bread"])
    run = run_cycle_sync(ai_user.id)
    assert run is not None
    return run


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_admin_sees_runs_and_a_run_in_detail(admin, finished_run):
    page = _client(admin).get("/agents/activity")
    assert page.status_code == 200
    assert f"/agents/runs/{finished_run.pk}" in page.content.decode()
    detail = _client(admin).get(f"/agents/runs/{finished_run.pk}")
    body = detail.content.decode()
    assert detail.status_code == 200
    for stage in ("select_posts", "post_impressions", "interest_update", "follow_management"):
        assert stage in body
    assert "offline" in body  # the LLM calls are labelled with the stand-in provider


@pytest.mark.django_db
def test_activity_filter_by_user(admin, finished_run, ai_user):
    other = _client(admin).get("/agents/activity?user=0000000000000001")
    assert f"/agents/runs/{finished_run.pk}" not in other.content.decode()
    mine = _client(admin).get(f"/agents/activity?user={ai_user.hex_id}")
    assert f"/agents/runs/{finished_run.pk}" in mine.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["human", "ai_user"])
def test_nobody_else_sees_run_records(request, who, finished_run):
    user = request.getfixturevalue(who)
    assert _client(user).get("/agents/activity").status_code == 403
    assert _client(user).get(f"/agents/runs/{finished_run.pk}").status_code == 403


@pytest.mark.django_db
def test_anonymous_is_sent_to_login(finished_run):
    response = Client().get("/agents/activity")
    assert response.status_code == 302
    assert "/login" in response["Location"]


@pytest.mark.django_db
def test_admin_runs_a_real_health_check_from_the_activity_page(settings, admin, human, llm_server):
    llm_server.push_chat("ok", prompt_tokens=5, completion_tokens=1)
    client = _client(admin)
    response = client.post("/agents/llm-check", follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert "LLM answered" in body and "Last health check:</strong>\n    ok" in body
    assert len(llm_server.chat_requests()) == 1  # it really called the model
    assert _client(human).post("/agents/llm-check").status_code == 403
