"""bench/respond_latency: how long a person waits for an AI user's answer.

Real Celery workers on Redis and PostgreSQL, the LLM stand-in server answering after
`--latency` seconds (2 s), AI-user cycles kept running beside it (`--cycles-inflight`,
the dispatcher's load), and `--conversations` people each in a conversation with an
AI user: a person replies to an AI user's root post through `sns.services.post_create`
(the real hook records the event and enqueues the respond task on commit), waits for
the answer, thinks for `--think` seconds, replies to the answer, and after `--turns`
exchanges starts over on another AI user's post. Latency is the event's `created_at`
(in the reply's transaction) to its `handled_at` (in the answer's transaction): reply
commit to answer commit. Reported: p50/p95/p99, and the share of events answered,
refused by each gate, failed, and still owed when the run ended.

    python -m bench.respond_latency --db stgy_bench_small_run --minutes 3 --conversations 100
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .cluster import Feeder, Pool, ai_user_ids, cluster
from .common import django_setup, exit_on_sigterm, loadavg, pct, redis_flush, write_json


@dataclass
class Conversation:
    person_id: int
    ai_id: int
    target: int  # the post the person answers next
    turns: int = 0
    waiting: int | None = None  # the person's reply whose answer is awaited
    resume_at: float = 0.0


@dataclass
class Driver:
    people: list[int]
    ai_posts: dict[int, list[int]]  # AI user id -> its root posts
    turns: int
    think: float
    rng: random.Random
    events: dict[int, float] = field(default_factory=dict)  # person's reply id -> sent at
    used: set[int] = field(default_factory=set)

    def fresh(self, person_id: int) -> Conversation:
        ai_ids = [a for a, posts in self.ai_posts.items() if posts]
        ai = self.rng.choice(ai_ids)
        posts = self.ai_posts[ai]
        target = posts.pop(self.rng.randrange(len(posts)))
        return Conversation(person_id=person_id, ai_id=ai, target=target)

    def send(self, conv: Conversation, now: float) -> None:
        from sns import services
        from sns.models import User

        person = User.objects.get(pk=conv.person_id)
        text = (f"Turn {conv.turns + 1}: thank you, that is interesting. How would you try it "
                f"at home, and what surprised you most about it?")
        reply = services.post_create(person, content=text, tags=[], reply_to=conv.target)
        conv.waiting = reply.id
        self.events[reply.id] = now


def _owned(users: list[int]) -> dict[int, list[int]]:
    from sns.models import Post

    out: dict[int, list[int]] = {u: [] for u in users}
    rows = Post.objects.filter(owner_id__in=users, reply_to__isnull=True, allow_replies=True)
    for pk, owner in rows.values_list("id", "owner_id"):
        out[owner].append(pk)
    return out


def measure(db: str, *, pool: Pool, latency: float, conversations: int, minutes: float,
            turns: int, think: float, cycles_inflight: int, drain: float, seed: int = 5,
            extra_env: dict[str, str] | None = None) -> dict:
    from agents.models import AttentionEvent
    from sns.models import User

    redis_flush()
    rng = random.Random(seed)
    ai_ids = ai_user_ids()
    people = list(User.objects.filter(ai_model__isnull=True, is_frozen=False, is_admin=False)
                  .order_by("id").values_list("id", flat=True)[: conversations])
    env = {"STGY_AI_CONCURRENCY": "200", **(extra_env or {})}
    with cluster(db, latency=latency, pool=pool, extra_env=env):
        feeder = Feeder(cycles_inflight, ai_ids) if cycles_inflight else None
        if feeder:
            feeder.start()
        driver = Driver(people=people, ai_posts=_owned(ai_ids), turns=turns, think=think, rng=rng)
        convs = [driver.fresh(p) for p in people]
        started = time.monotonic()
        for i, conv in enumerate(convs):  # people arrive over the first think time
            conv.resume_at = started + think * i / max(1, len(convs))
        load0 = loadavg()
        end = started + minutes * 60
        while time.monotonic() < end + drain:
            now = time.monotonic()
            if feeder:
                feeder.tick()
            waiting = {c.waiting: c for c in convs if c.waiting is not None}
            if waiting:
                done = AttentionEvent.objects.filter(post_id__in=list(waiting)).exclude(
                    status__in=("pending", "claimed")).values_list("post_id", "status", "outcome")
                for post_id, status, outcome in done:
                    conv = waiting[post_id]
                    conv.waiting, conv.turns = None, conv.turns + 1
                    conv.resume_at = now + think * rng.uniform(0.5, 1.5)
                    answer = outcome if status == "answered" else ""
                    if answer and conv.turns < turns:
                        from sns.core.ids import parse_id

                        conv.target = parse_id(answer)
                    else:
                        conv.turns = 0
                        convs[convs.index(conv)] = fresh = driver.fresh(conv.person_id)
                        fresh.resume_at = conv.resume_at
            if now < end:
                for conv in convs:
                    if conv.waiting is None and conv.resume_at <= now:
                        driver.send(conv, now)
            time.sleep(0.5)
        load1 = loadavg()
    redis_flush()
    events = list(AttentionEvent.objects.filter(post_id__in=list(driver.events)))
    by_result: Counter[str] = Counter()
    latencies = []
    for e in events:
        if e.status == "answered":
            by_result["answered"] += 1
            latencies.append((e.handled_at - e.created_at).total_seconds())
        elif e.status == "refused":
            by_result["refused: " + e.outcome.split(":", 1)[0]] += 1
        else:
            by_result[e.status] += 1  # failed, or still pending / claimed at the end
    total = len(driver.events)
    by_result["not recorded"] = total - len(events)
    return {
        "pool": pool.label(), "latency_s": latency, "conversations": len(convs), "minutes": minutes,
        "ai_users": len(ai_ids), "cycles_inflight": cycles_inflight,
        "cycles_finished": len(feeder.finished_runs) if feeder else 0,
        "events": total,
        "shares": {k: round(v / total, 3) for k, v in sorted(by_result.items()) if v} if total else {},
        "counts": {k: v for k, v in sorted(by_result.items()) if v},
        "answer_latency_s": {"p50": _r(latencies, 0.5), "p95": _r(latencies, 0.95),
                             "p99": _r(latencies, 0.99), "max": _r(latencies, 1.0)},
        "loadavg": [load0, load1],
    }


def _r(values: list[float], q: float) -> float | None:
    return round(pct(values, q), 2) if values else None


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--latency", type=float, default=2.0)
    parser.add_argument("--pool", default="threads:2x16")
    parser.add_argument("--conversations", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--turns", type=int, default=3, help="exchanges before a new conversation")
    parser.add_argument("--think", type=float, default=20.0, help="seconds a person takes to reply")
    parser.add_argument("--cycles-inflight", type=int, default=4)
    parser.add_argument("--drain", type=float, default=90.0, help="seconds to wait for owed answers")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    # The reply hook records events only while AI is on, as in the web processes.
    django_setup(args.db, STGY_AI_PROVIDER="openai", OPENAI_API_KEY="bench-standin", STGY_AI_SITE_DAILY_BUDGET="0")
    result = measure(args.db, pool=Pool.parse(args.pool), latency=args.latency,
                     conversations=args.conversations, minutes=args.minutes, turns=args.turns,
                     think=args.think, cycles_inflight=args.cycles_inflight, drain=args.drain)
    lat = result["answer_latency_s"]
    print(f"{result['events']} events from {result['conversations']} conversations with "
          f"{result['ai_users']} AI users: p50 {lat['p50']} s, p95 {lat['p95']} s, p99 {lat['p99']} s; "
          f"{result['shares']}", flush=True)
    write_json(args.json, {"bench": "respond_latency", "database": args.db, **result})
    return result


if __name__ == "__main__":
    main()
