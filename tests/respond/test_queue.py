"""The respond task has a queue of its own, listed (and so polled) before the cycle's
stage queue and the default queue, bound to nothing else."""

from stgy.celery import app


def test_respond_tasks_go_to_their_own_queue_polled_first(settings):
    router = app.amqp.router
    queue = router.route({}, "agents.respond")["queue"]
    assert queue.name == settings.STGY_RESPOND_QUEUE == "stgy-respond"
    assert (queue.exchange.name, queue.routing_key) == (queue.name, queue.name)
    assert next(q.name for q in app.conf.task_queues) == settings.STGY_RESPOND_QUEUE
    assert app.conf.broker_transport_options["queue_order_strategy"] == "priority"
    bindings = [(q.exchange.name, q.routing_key) for q in app.amqp.queues.values()]
    assert len(set(bindings)) == len(bindings)


def test_compose_workers_consume_every_queue():
    """A worker started without -Q consumes every queue of CELERY_TASK_QUEUES; one that
    names queues must name the respond queue too."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "compose.yaml").read_text()
    for line in text.splitlines():
        if "celery" in line and "worker" in line and "-Q" in line:
            assert "stgy-respond" in line, line
