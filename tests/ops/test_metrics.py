"""GET /api/metrics in Prometheus text (parsed with prometheus_client's own parser), who
may read it, the LLM counters fed by the gateway, and the aggregation/clear routes."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from prometheus_client.parser import text_string_to_metric_families

from agents.llm import gateway
from tests.clients import APIClient
from tests.conftest import login_client
from tests.llm_down import HELLO
from tests.redis_server import own_redis, requires_redis_server  # noqa: F401

pytestmark = pytest.mark.django_db


def scrape(client=None, **extra) -> dict:
    response = (client or APIClient()).get("/api/metrics", **extra)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return {family.name: family for family in text_string_to_metric_families(response.content.decode())}


def sample(families: dict, name: str, sample_name: str, **labels) -> float:
    family = families.get(name)
    if family is None:
        return 0.0
    return sum(
        s.value for s in family.samples
        if s.name == sample_name and all(s.labels.get(k) == v for k, v in labels.items())
    )


def request_count(families, path: str, status: str = "200") -> float:
    return sample(families, "http_request_duration_seconds", "http_request_duration_seconds_count",
                  method="GET", path=path, status_code=status)


def test_request_counter_by_route_increases(human):
    client = login_client(human)
    before = request_count(scrape(), "/api/posts/<str:post_id>", "404")
    for _ in range(3):
        assert client.get("/api/posts/00000000000000AB").status_code == 404
    families = scrape()
    assert request_count(families, "/api/posts/<str:post_id>", "404") == before + 3
    # One series for the route, not one per id; process metrics as the original had.
    assert not any("00000000000000AB" in str(s.labels) for s in
                   families["http_request_duration_seconds"].samples)
    assert "process_cpu_seconds" in families


def test_unmatched_paths_share_one_series():
    before = request_count(scrape(), "unmatched", "404")
    APIClient().get("/api/no-such-route-1")
    APIClient().get("/api/no-such-route-2")
    assert request_count(scrape(), "unmatched", "404") == before + 2


def test_llm_calls_and_tokens_are_counted(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_PRICES = f"{settings.STGY_AI_MODEL_BASIC}=1000000:0:1000000"
    model = settings.STGY_AI_MODEL_BASIC
    before = scrape()
    response = gateway.chat(messages=HELLO, tier="basic", task="chat")
    after = scrape()
    calls = ("stgy_llm_calls", "stgy_llm_calls_total")
    assert sample(after, *calls, task="chat", outcome="ok", model=model) == \
        sample(before, *calls, task="chat", outcome="ok", model=model) + 1
    tokens = ("stgy_llm_tokens", "stgy_llm_tokens_total")
    grew = sample(after, *tokens, kind="prompt", model=model) - sample(before, *tokens, kind="prompt", model=model)
    assert grew == response.prompt_tokens > 0
    cost = ("stgy_llm_cost", "stgy_llm_cost_total")
    assert sample(after, *cost, model=model) - sample(before, *cost, model=model) == pytest.approx(
        response.prompt_tokens + response.completion_tokens
    )


def test_who_may_read_the_metrics(settings, human, admin):
    settings.STGY_METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    settings.STGY_METRICS_TOKEN = "s3cret"
    refused = APIClient().get("/api/metrics")  # the test client's address is 127.0.0.1
    assert refused.status_code == 403 and refused.json() == {"error": "admin only"}
    assert login_client(human).get("/api/metrics").status_code == 403
    assert APIClient().get("/api/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert APIClient().get("/api/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200
    assert login_client(admin).get("/api/metrics").status_code == 200
    assert APIClient().get("/api/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200


def test_behind_a_proxy_the_forwarded_address_counts(settings):
    settings.STGY_METRICS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    far = APIClient().get("/api/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert far.status_code == 403


def test_clear_is_for_admins_and_resets_the_counters(human, admin):
    APIClient().get("/api/health")
    assert request_count(scrape(), "/api/health") >= 1
    for client in (APIClient(), login_client(human)):
        response = client.post("/api/metrics/clear")
        assert response.status_code == 403 and response.json() == {"error": "admin only"}
    assert request_count(scrape(), "/api/health") >= 1
    response = login_client(admin).post("/api/metrics/clear")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    assert request_count(scrape(), "/api/health") == 0


def test_aggregation_is_for_admins_and_without_a_list_is_this_process(human, admin):
    for client in (APIClient(), login_client(human)):
        for method, path in (("get", "/api/metrics/aggregation"), ("post", "/api/metrics/aggregation/clear")):
            response = getattr(client, method)(path)
            assert response.status_code == 403 and response.json() == {"error": "admin only"}
    body = login_client(admin).get("/api/metrics/aggregation").json()
    assert list(body) == ["local"] and "# HELP process_cpu_seconds_total" in body["local"]
    assert login_client(admin).post("/api/metrics/aggregation/clear").json() == {"local": "ok"}


class _Backend(BaseHTTPRequestHandler):
    seen: list = []

    def do_GET(self):  # noqa: N802
        self._answer()

    def do_POST(self):  # noqa: N802
        self._answer()

    def _answer(self):
        type(self).seen.append((self.command, self.path, self.headers.get("Cookie", "")))
        body = b"# HELP up fake\nup 1\n" if self.command == "GET" else b'{"result": "ok"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def backend():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Backend)
    _Backend.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api"
    server.shutdown()
    server.server_close()


def test_aggregation_fetches_every_listed_backend(settings, admin, backend):
    from tests.llm_down import closed_port

    dead = f"http://127.0.0.1:{closed_port()}/api/"
    settings.STGY_BACKEND_API_PRIVATE_URL_LIST = [backend, dead]
    client = login_client(admin)
    body = client.get("/api/metrics/aggregation").json()
    assert body[backend] == "# HELP up fake\nup 1\n"
    assert body[dead].startswith("ERROR: ")
    cleared = client.post("/api/metrics/aggregation/clear").json()
    assert cleared[backend] == "ok" and cleared[dead].startswith("ERROR: ")
    assert [(m, p) for m, p, _ in _Backend.seen] == [("GET", "/api/metrics"), ("POST", "/api/metrics/clear")]
    # The admin's session goes along, so the backend's own admin check lets it in.
    assert all("session_id=" in cookie for _, _, cookie in _Backend.seen)


@requires_redis_server
def test_queue_depths_come_from_the_broker(settings, own_redis):  # noqa: F811
    settings.REDIS_URL = settings.CELERY_BROKER_URL = own_redis.url
    own_redis.client().lpush(settings.STGY_RESPOND_QUEUE, "a", "b", "c")
    families = scrape()
    depths = {s.labels["queue"]: s.value for s in families["stgy_queue_depth"].samples}
    assert depths == {settings.STGY_RESPOND_QUEUE: 3, settings.STGY_CYCLE_STAGE_QUEUE: 0, "celery": 0}
    own_redis.stop()
    # A broker that is away leaves the gauge empty; the scrape still answers.
    assert scrape()["stgy_queue_depth"].samples == []


def test_no_client_address_is_refused_not_an_error():
    response = APIClient().get("/api/metrics", REMOTE_ADDR=None)
    assert response.status_code == 403 and response.json() == {"error": "admin only"}
