"""Celery: the broker, time limits, queues and routes, the beat schedule; and how the
embedded mode runs tasks without a broker."""

from datetime import timedelta

from kombu import Exchange, Queue

from .data import REDIS_URL, STGY_REDIS_TIMEOUT
from .environment import env, num

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = num("CELERY_TASK_SOFT_TIME_LIMIT", 600)
CELERY_TASK_TIME_LIMIT = num("CELERY_TASK_TIME_LIMIT", 720)
# Three durations must agree, whoever changes one of them (docs/agent-cycle.md §2.6;
# tests/stgy/test_task_durations.py checks the defaults):
# 1. CELERY_VISIBILITY_TIMEOUT (below) > the longest hard time limit of any task, this
#    default and every per-task limit: Redis hands a message not acknowledged within it
#    to another worker, so a live task would run twice. It is also longer than the
#    longest countdown (the summary task's retries, at most 480 s, agents/tasks.py).
# 2. It is how long a task whose worker was SIGKILLed waits to be delivered again,
#    so it is kept to minutes: 900 s.
# 3. STGY_AI_USER_LOCK_SECONDS > CELERY_VISIBILITY_TIMEOUT + a stage's hard time
#    limit: a killed stage comes back, and its cycle goes on, before its lease lapses
#    and the stale-lease sweep ends the run (agents/runs/stale.py).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing must not hang on a dead broker: a short connection timeout, one quick retry.
CELERY_BROKER_CONNECTION_TIMEOUT = STGY_REDIS_TIMEOUT * 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
}
# Stage tasks of running cycles have a queue of their own, listed first and consumed
# with priority: under a backlog of cycle_start tasks a started cycle still finishes
# in stage time instead of waiting behind the whole FIFO. A worker started without -Q
# consumes both queues; one started with -Q must name both.
STGY_CYCLE_STAGE_QUEUE = env.str("STGY_CYCLE_STAGE_QUEUE", default="stgy-stages")
# Answers to people who turned to an AI user (docs/respond-path.md) come before
# everything else: a person waits for them, nobody waits for a cycle stage.
STGY_RESPOND_QUEUE = env.str("STGY_RESPOND_QUEUE", default="stgy-respond")
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Each queue with an exchange and routing key of its own: queues left without one
# share the default exchange and key, and a stage message would reach both queues.
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in (STGY_RESPOND_QUEUE, STGY_CYCLE_STAGE_QUEUE, CELERY_TASK_DEFAULT_QUEUE)
)
CELERY_TASK_ROUTES = {
    "agents.respond": {"queue": STGY_RESPOND_QUEUE},
    "agents.cycle_stage": {"queue": STGY_CYCLE_STAGE_QUEUE},
    "agents.cycle_finish": {"queue": STGY_CYCLE_STAGE_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": num("CELERY_VISIBILITY_TIMEOUT", 900),  # see the time limits above
    # Without these a publish to a broker that vanished without closing the connection
    # waits forever; the read timeout stays above kombu's one-second BRPOP.
    "socket_connect_timeout": STGY_REDIS_TIMEOUT * 2,
    "socket_timeout": max(3.0, STGY_REDIS_TIMEOUT * 3),
    # Redis: poll the queues in the order listed (answers, then stages), not round robin.
    "queue_order_strategy": "priority",
}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "agents-dispatch": {"task": "agents.dispatch_cycles", "schedule": timedelta(minutes=1)},
    "agents-summary-sweep": {"task": "agents.sweep_summaries", "schedule": timedelta(minutes=5)},
    # Sends nothing unless STGY_AI_BATCH is on (agents/summaries/batch.py,
    # agents/cycle/batches.py).
    "agents-summary-batches": {"task": "agents.summary_batches", "schedule": timedelta(minutes=1)},
    "agents-respond-sweep": {"task": "agents.sweep_respond", "schedule": timedelta(minutes=1)},
    "agents-stale-runs-sweep": {"task": "agents.sweep_stale_runs", "schedule": timedelta(minutes=1)},
    "agents-prune-call-traces": {"task": "agents.prune_call_traces", "schedule": timedelta(hours=1)},
    "sns-purge-notifications": {"task": "sns.purge_notifications", "schedule": timedelta(hours=6)},
    "agents-prune-memory-versions": {"task": "agents.prune_memory_versions", "schedule": timedelta(hours=6)},
    "sns-sweep-staged-media": {"task": "sns.sweep_staged_media", "schedule": timedelta(minutes=10)},
}

# Embedded mode runs tasks, and every mode sends mail (sns/core/mailer.py), on background
# threads; tests set this to run both inline.
STGY_EAGER_TASKS_INLINE = env.bool("STGY_EAGER_TASKS_INLINE", default=False)
