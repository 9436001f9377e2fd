"""Summaries through a real Redis broker and a real Celery worker process
(tests/integration/worker.py)."""

from __future__ import annotations


import pytest

from agents.embeddings import model_name
from agents.models import PostSummary
from agents.summaries.sweep import summaries_sweep
from tests.conftest import login_client, requires_postgres, requires_redis
from tests.integration.worker import celery_worker, sending_to, wait_for

pytestmark = [requires_postgres, requires_redis, pytest.mark.celery_worker]

RESULT_TIMEOUT = 60
CLOSED_BROKER = "redis://127.0.0.1:1/0"
CONTENT = (
    "Our allotment tomatoes split after the storm. Deep watering twice a week and a thick "
    "straw mulch kept the soil moist, and the next truss ripened without cracks."
)


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    """A solo-pool worker on the test database for the module; yields its log path."""
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with celery_worker(log_path, "--pool=solo", STGY_AI_PROVIDER="offline"):
        yield log_path


def _summary(post_id: int):
    return PostSummary.objects.filter(post_id=post_id, summary__isnull=False).first()


@pytest.mark.django_db(transaction=True)
def test_post_created_through_the_api_is_summarised_by_the_worker(worker, human, settings):
    settings.STGY_AI_PROVIDER = "offline"
    client = login_client(human)
    with sending_to():
        response = client.post(
            "/api/posts", {"content": CONTENT, "tags": ["Garden"]}, format="json"
        )
    assert response.status_code == 201, response.content
    post_id = int(response.json()["id"], 16)
    row = wait_for(
        lambda: _summary(post_id), RESULT_TIMEOUT, f"the summary\n{worker.read_text()[-3000:]}"
    )
    assert "tomato" in row.summary.lower()
    assert len(bytes(row.features)) == 512 and row.embedding_model == model_name()
    assert row.post.ai_tags.exists()
    assert "agents.summarize_post" in worker.read_text()  # the worker did it, not this process


@pytest.mark.django_db(transaction=True)
def test_post_written_while_the_broker_is_down_is_recovered_by_the_sweep(worker, human, settings):
    settings.STGY_AI_PROVIDER = "offline"
    client = login_client(human)
    with sending_to(CLOSED_BROKER):
        response = client.post("/api/posts", {"content": CONTENT, "tags": []}, format="json")
    assert response.status_code == 201, response.content
    post_id = int(response.json()["id"], 16)
    assert PostSummary.objects.get(post_id=post_id).summary is None

    settings.STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = 0
    with sending_to():
        assert summaries_sweep() == 1  # the broker is back: the sweep queues it
    row = wait_for(
        lambda: _summary(post_id), RESULT_TIMEOUT, f"the summary\n{worker.read_text()[-3000:]}"
    )
    assert row.features and row.summarized_at
