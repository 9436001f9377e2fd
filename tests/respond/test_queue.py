"""The respond task has a queue of its own, listed (and so polled) before the cycle's
stage queue and the default queue, bound to nothing else (compose.yaml's pool for it: tests/stgy/test_compose.py)."""

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
