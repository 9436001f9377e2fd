"""Queue depths for /metrics: the length of each Celery queue in the Redis broker,
read at scrape time (a gauge nobody has to keep up to date)."""

from __future__ import annotations

import logging

from django.conf import settings
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)


def queue_names() -> list[str]:
    return [queue.name for queue in settings.CELERY_TASK_QUEUES]


def broker_client():
    """A Redis client on the broker with the site's short timeouts, or None when tasks
    run in-process (no REDIS_URL)."""
    if not settings.REDIS_URL:
        return None
    import redis

    timeout = float(settings.STGY_REDIS_TIMEOUT)
    return redis.Redis.from_url(
        settings.CELERY_BROKER_URL, socket_timeout=timeout, socket_connect_timeout=timeout
    )


def queue_depths() -> dict[str, int] | None:
    """{queue: waiting messages}; None without a broker or when it does not answer."""
    client = broker_client()
    if client is None:
        return None
    try:
        with client.pipeline(transaction=False) as pipe:
            for name in queue_names():
                pipe.llen(name)
            lengths = pipe.execute()
    except Exception as exc:  # the broker is away: the scrape still answers
        log.info("queue depths unavailable: %s", exc)
        return None
    finally:
        client.close()
    return dict(zip(queue_names(), (int(n) for n in lengths)))


class QueueDepthCollector:
    def collect(self):
        family = GaugeMetricFamily(
            "stgy_queue_depth", "Messages waiting in each Celery queue of the broker", labels=["queue"]
        )
        for name, depth in (queue_depths() or {}).items():
            family.add_metric([name], depth)
        yield family

    def describe(self):
        return []
