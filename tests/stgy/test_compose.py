"""compose.yaml as docker compose renders it (its `${VAR:-default}` filled in): the app
trusts a proxy's X-Forwarded-For only where nothing but that proxy can reach it, and
answers to people have a worker pool of their own that no cycle task can occupy."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"
_VARIABLE = re.compile(r"\$\{(\w+)(?::?([-?])([^}]*))?\}")


def _render(value, env: dict):
    """docker compose's interpolation, for the forms compose.yaml uses."""
    if isinstance(value, dict):
        return {k: _render(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def fill(match: re.Match) -> str:
        name, kind, default = match.groups()
        if env.get(name):
            return env[name]
        if kind == "?":
            raise ValueError(f"{name} is required")
        return default or ""

    return _VARIABLE.sub(fill, value.replace("$$", "\0")).replace("\0", "$")


def services(**env) -> dict:
    rendered = _render(yaml.safe_load(COMPOSE.read_text()), {"SECRET_KEY": "x", **env})
    return rendered["services"]


def _published_hosts(service: dict) -> list[str]:
    """The host address each published port listens on ("" = every interface)."""
    hosts = []
    for port in service.get("ports", []):
        parts = str(port).rsplit(":", 2)
        hosts.append(parts[0].strip("[]") if len(parts) == 3 else "")
    return hosts


def forged_address_reachable(service: dict) -> bool:
    """True when the service trusts X-Forwarded-For and listens where more than the
    local proxy can connect, so a direct client can write its own address."""
    if int(service.get("environment", {}).get("STGY_TRUSTED_PROXIES") or 0) == 0:
        return False
    return any(
        not host or not ipaddress.ip_address(host).is_loopback for host in _published_hosts(service)
    )


def test_the_app_trusting_a_proxy_listens_on_loopback_only():
    web = services()["web"]
    assert int(web["environment"]["STGY_TRUSTED_PROXIES"]) == 1
    assert _published_hosts(web) == ["127.0.0.1"]
    assert not any(forged_address_reachable(s) for s in services().values())


def test_publishing_on_every_interface_goes_with_trusting_no_proxy():
    # The unsafe combination is what the check catches ...
    assert forged_address_reachable(services(STGY_WEB_BIND="0.0.0.0")["web"])
    # ... and the documented way to publish without a proxy is safe.
    web = services(STGY_WEB_BIND="0.0.0.0", STGY_TRUSTED_PROXIES="0")["web"]
    assert _published_hosts(web) == ["0.0.0.0"] and not forged_address_reachable(web)


def _consumed_queues(service: dict) -> set[str] | None:
    command = service.get("command") or []
    if command[:4] != ["celery", "-A", "stgy", "worker"]:
        return None
    if "-Q" not in command:
        return {q.name for q in settings.CELERY_TASK_QUEUES}
    return set(command[command.index("-Q") + 1].split(","))


def test_answers_to_people_have_a_worker_pool_of_their_own():
    pools = {name: q for name, s in services().items() if (q := _consumed_queues(s)) is not None}
    respond = settings.STGY_RESPOND_QUEUE
    assert [name for name, queues in pools.items() if respond in queues] == ["respond"]
    assert pools["respond"] == {respond}
    every_queue = {q.name for q in settings.CELERY_TASK_QUEUES}
    assert set().union(*pools.values()) == every_queue, "a queue no worker consumes"


@pytest.mark.parametrize("service", ["web", "worker", "respond", "beat", "migrate"])
def test_every_app_service_runs_the_same_image(service):
    assert services()[service]["image"] == "stgy:latest"
