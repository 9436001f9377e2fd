"""bench/demo_quality: does the embedded demo converse without flooding?

Starts `manage.py demo` headless on a fresh STGY_VAR_DIR (SQLite, in-process tasks, the
offline stand-in) with the pacing of `bin/demo`, logs in as the seeded person through
the JSON API and, every `--interval` seconds, replies to the newest root post of an AI
user or, every third turn, sends it a direct message (each AI user in turn). At the end
it reads the database and prints: AI posts per hour (root posts and replies), the share
of new AI root posts whose title an earlier AI post already had, repeated sentences among
new AI posts and messages, the most frequent opening frame's share of them
(agents/recent_texts.py `opening_frame`), AI-to-AI replies beyond the depth
(STGY_AI_THREAD_AI_REPLIES_LIMIT, agents/runs/ai_thread.py), the share of AI cards on
page 1 of *Everyone* (the newest 20 posts, replayed from the database once a minute)
while people other than the bench's person had posted, and how many of the person's
replies and messages were answered and how fast (p50/p95, polled every 0.5 s).

    python -m bench.demo_quality --minutes 30 --port 8777 --var-dir /tmp/demo-quality
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PERSON = ("maya@demo.stgy.local", "stgy-demo")
# What the person says, in turn: ordinary replies, each about something of its own.
MESSAGES = (
    "Thanks for this! How would you start with it at home?",
    "I tried something similar with my sourdough starter last winter and it went sluggish.",
    "Interesting. Does the same hold for small bakeries, or only for big kitchens?",
    "My tomatoes never ripen before the autumn rain; any idea why?",
    "I read a mystery novel about this once, believe it or not.",
    "What would you measure first if you wanted to check it?",
)
_EXPORT_RE = re.compile(r'^export (STGY_[A-Z_]+)="\$\{\1:-([^}]*)\}"$', re.M)


def demo_pacing() -> dict[str, str]:
    """The demo's settings, as `bin/demo` exports them (one place for them)."""
    return dict(_EXPORT_RE.findall((ROOT / "bin" / "demo").read_text()))


def demo_env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(demo_pacing())
    env.update(
        DJANGO_SETTINGS_MODULE="stgy.settings",
        DEBUG="true",  # as bin/demo sets it
        STGY_VAR_DIR=str(var_dir),
        STGY_AI_PROVIDER="offline",
        STGY_EMBEDDING_PROVIDER="hash",
        PYTHONUNBUFFERED="1",
    )
    return env


class Api:
    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with self.opener.open(req, timeout=30) as resp:
            return json.loads(resp.read() or b"{}")


def _wait_up(api: Api, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            api.call("POST", "/api/auth", {"email": PERSON[0], "password": PERSON[1]})
            return
        except OSError:
            time.sleep(1)
    raise RuntimeError("the demo did not come up")


def _query(db: Path, sql: str, args: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute(sql, args).fetchall()


AI = "(SELECT id FROM sns_user WHERE ai_model IS NOT NULL)"


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))], 1)


def opening_frames(texts: list[str]) -> dict:
    """The most frequent opening frame among `texts` and its share."""
    sys.path.insert(0, str(ROOT))
    from collections import Counter

    from agents.recent_texts import opening_frame

    frames = Counter(opening_frame(t) for t in texts)
    if not frames:
        return {"top_opening_frame": None, "top_opening_frame_share": 0.0}
    frame, n = frames.most_common(1)[0]
    return {"top_opening_frame": frame, "top_opening_frame_share": round(n / len(texts), 3)}


def ai_replies_beyond_depth(db: Path, first_new_id: int, limit: int) -> dict:
    """New AI replies that answered an AI-written post ending a run of more than `limit`
    AI-written posts with no person in it (the rule of agents/runs/ai_thread.py)."""
    rows = _query(db, "SELECT p.id, p.reply_to, u.ai_model IS NOT NULL FROM sns_post p JOIN sns_user u ON u.id = p.owned_by")
    parent = {pid: reply_to for pid, reply_to, _ in rows}
    is_ai = {pid: bool(ai) for pid, _, ai in rows}
    ai_to_ai = beyond = 0
    for pid, reply_to, ai in rows:
        if pid < first_new_id or not ai or reply_to is None or not is_ai.get(reply_to):
            continue
        ai_to_ai += 1
        run, at = 0, reply_to
        while at is not None and is_ai.get(at) and run <= limit:
            run, at = run + 1, parent.get(at)
        beyond += run > limit
    return {"ai_to_ai_replies": ai_to_ai, "ai_to_ai_replies_beyond_depth": beyond}


def _page_merge(db: Path):
    """The pages' merge of people's and AI users' posts (sns/selectors/authors.py
    `interleave`, with the site's STGY_TIMELINE_AI_SHARE and _PEOPLE_WINDOW_HOURS), so the
    replay shows page 1 as the *Everyone* tab draws it, not the plain newest posts."""
    from datetime import timedelta

    from .common import django_setup

    if "DJANGO_SETTINGS_MODULE" not in os.environ:
        django_setup(
            DJANGO_SETTINGS_MODULE="stgy.settings", DATABASE_URL=f"sqlite:///{db}",
            SECRET_KEY="bench-not-secret", DEBUG="false",
        )
    from django.conf import settings

    from sns.selectors.authors import interleave

    window = timedelta(hours=settings.STGY_TIMELINE_PEOPLE_WINDOW_HOURS)

    def page_one(people: list[int], ai: list[int], page: int) -> list[int]:
        return interleave(
            [(-pid, pid) for pid in people[:page]], [(-pid, pid) for pid in ai[:page]],
            block=page, share=settings.STGY_TIMELINE_AI_SHARE, window=window, count=page,
        )

    return page_one


def everyone_share(db: Path, person_id: int, started_ms: int, ended_ms: int, page: int = 20) -> dict:
    """Page 1 of *Everyone* (the demo's person sees every post) as it stood once a minute,
    replayed from the database (ids carry their creation time) through the pages' merge:
    the share of AI cards on it, at every minute and at the minutes when people other
    than the bench's person had posted during the run."""
    rows = _query(db, "SELECT p.id, u.ai_model IS NOT NULL, p.owned_by FROM sns_post p JOIN sns_user u ON u.id = p.owned_by ORDER BY p.id")
    page_one = _page_merge(db)
    every, with_people = [], []
    for at in range(started_ms + 60_000, ended_ms + 1, 60_000):
        before = [(pid, ai, owner) for pid, ai, owner in rows if pid >> 20 <= at]
        if not before:
            continue
        people = [pid for pid, ai, _ in reversed(before) if not ai]
        ai_posts = [pid for pid, ai, _ in reversed(before) if ai]
        shown = page_one(people, ai_posts, page)
        ai_ids = set(ai_posts[:page])
        share = sum(1 for pid in shown if pid in ai_ids) / len(shown)
        every.append(share)
        if any(not ai and owner != person_id and pid >> 20 >= started_ms for pid, ai, owner in before):
            with_people.append(share)

    def mean(values):
        return round(sum(values) / len(values), 3) if values else None

    return {
        "everyone_page1_ai_share_mean": mean(every),
        "everyone_page1_ai_share_max": round(max(every), 3) if every else None,
        "everyone_page1_ai_share_mean_while_people_posted": mean(with_people),
        "everyone_minutes_while_people_posted": len(with_people),
    }


def text_quality(rows: list[tuple[int, str, int | None]], first_new_id: int) -> dict:
    """Duplicate titles among new root posts and repeated sentences among new posts,
    each compared with every earlier AI post (seeded ones included)."""
    sys.path.insert(0, str(ROOT))
    from agents.recent_texts import sentence_keys, title_of

    titles: set[str] = set()
    seen: set[str] = set()
    new_roots = dup_titles = new_sentences = repeated = 0
    for post_id, content, reply_to in sorted(rows):
        title, keys = title_of(content), sentence_keys(content)
        if post_id >= first_new_id:
            if reply_to is None:
                new_roots += 1
                dup_titles += title in titles
            new_sentences += len(keys)
            repeated += sum(1 for k in keys if k in seen)
        if reply_to is None:
            titles.add(title)
        seen.update(keys)
    return {
        "new_root_posts": new_roots,
        "duplicate_titles": dup_titles,
        "duplicate_title_share": dup_titles / new_roots if new_roots else 0.0,
        "new_sentences": new_sentences,
        "repeated_sentences": repeated,
        "repeated_sentence_share": repeated / new_sentences if new_sentences else 0.0,
    }


def run(minutes: float, port: int, var_dir: Path, interval: float) -> dict:
    shutil.rmtree(var_dir, ignore_errors=True)
    var_dir.mkdir(parents=True)
    db = var_dir / "stgy.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "demo", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=demo_env(var_dir),
        stdout=open(var_dir / "demo.log", "ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    replies: dict[int, dict] = {}
    sent: dict[int, dict] = {}
    try:
        api = Api(f"http://127.0.0.1:{port}")
        _wait_up(api)
        first_new_id = _query(db, "SELECT COALESCE(MAX(id), 0) + 1 FROM sns_post")[0][0]
        ai_users = [
            r[0]
            for r in _query(db, "SELECT id FROM sns_user WHERE ai_model IS NOT NULL ORDER BY id")
        ]
        started, started_ms = time.monotonic(), int(time.time() * 1000)
        next_reply, turn = started + 30, 0
        while time.monotonic() - started < minutes * 60:
            now = time.monotonic()
            if now >= next_reply:
                next_reply += interval
                ai = ai_users[turn % len(ai_users)]
                turn += 1
                text = MESSAGES[(turn - 1) % len(MESSAGES)]
                if turn % 3 == 0:  # every third turn a direct message
                    body = api.call("POST", f"/api/messages/conversations/{ai:016X}", {"content": text})
                    sent[int(body["id"], 16)] = {"ai": ai, "at": time.monotonic(), "answered": None}
                else:
                    target = _query(
                        db,
                        "SELECT id FROM sns_post WHERE owned_by = ? AND reply_to IS NULL "
                        "ORDER BY id DESC LIMIT 1",
                        (ai,),
                    )
                    if target:
                        body = api.call(
                            "POST",
                            "/api/posts",
                            {"content": text, "tags": [], "replyTo": f"{target[0][0]:016X}"},
                        )
                        replies[int(body["id"], 16)] = {
                            "ai": ai,
                            "at": time.monotonic(),
                            "answered": None,
                        }
            for rid, r in replies.items():
                if r["answered"] is None and _query(
                    db, "SELECT 1 FROM sns_post WHERE reply_to = ? AND owned_by = ?", (rid, r["ai"])
                ):
                    r["answered"] = time.monotonic() - r["at"]
            for mid, m in sent.items():
                if m["answered"] is None and _query(
                    db,
                    "SELECT 1 FROM sns_message a JOIN sns_message q ON q.conversation_id = a.conversation_id "
                    "WHERE q.id = ? AND a.sender_id = ? AND a.id > q.id",
                    (mid, m["ai"]),
                ):
                    m["answered"] = time.monotonic() - m["at"]
            time.sleep(0.5)
        elapsed_h = (time.monotonic() - started) / 3600
        ended_ms = int(time.time() * 1000)
        bounds = {"first_new_id": first_new_id, "started_ms": started_ms, "ended_ms": ended_ms}
        (var_dir / "run.json").write_text(json.dumps(bounds))
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    latencies = [r["answered"] for r in [*replies.values(), *sent.values()] if r["answered"] is not None]
    return {
        "minutes": round(elapsed_h * 60, 1),
        **figures(db, first_new_id, started_ms, ended_ms),
        "person_replies": len(replies),
        "person_messages": len(sent),
        "answered": len(latencies),
        "answered_share": round(len(latencies) / (len(replies) + len(sent)), 3) if replies or sent else None,
        "latency_s": {
            "p50": pct(latencies, 50),
            "p95": pct(latencies, 95),
            "max": pct(latencies, 100),
        },
        "pacing": demo_pacing(),
    }


def figures(db: Path, first_new_id: int, started_ms: int, ended_ms: int) -> dict:
    """What the database says of the run: every figure but the person's answers."""
    hours = (ended_ms - started_ms) / 3_600_000
    rows = _query(db, f"SELECT id, content, reply_to FROM sns_post WHERE owned_by IN {AI}")
    # Messages count as texts (never as root posts): their sentences and openings too.
    messages = _query(db, f"SELECT id, content, 'message' FROM sns_message WHERE sender_id IN {AI}")
    new = [r for r in rows if r[0] >= first_new_id]
    new_texts = [r[1] for r in new + messages if r[0] >= first_new_id]
    person = _query(db, "SELECT id FROM sns_user WHERE email = ?", (PERSON[0],))[0][0]
    limit = int(os.environ.get("STGY_AI_THREAD_AI_REPLIES_LIMIT", "2"))
    return {
        "ai_posts_per_hour": round(len(new) / hours, 1),
        "ai_root_posts_per_hour": round(sum(1 for r in new if r[2] is None) / hours, 1),
        "ai_replies_per_hour": round(sum(1 for r in new if r[2] is not None) / hours, 1),
        "people_posts": _query(
            db,
            "SELECT COUNT(*) FROM sns_post p JOIN sns_user u ON u.id = p.owned_by "
            "WHERE u.ai_model IS NULL AND p.owned_by <> ? AND p.id >= ?",
            (person, first_new_id),
        )[0][0],
        **text_quality(rows + messages, first_new_id),
        "new_ai_texts": len(new_texts),
        **opening_frames(new_texts),
        **ai_replies_beyond_depth(db, first_new_id, limit),
        **everyone_share(db, person, started_ms, ended_ms),
    }


def analyse(var_dir: Path) -> dict:
    """The figures of an earlier run's database: its bounds from the run.json the run
    wrote, or for an older run (before run.json), its start read from the end of the
    seed's burst of posts (the first gap of over 5 s after it) and its end from the
    newest post."""
    db = var_dir / "stgy.sqlite3"
    saved = var_dir / "run.json"
    if saved.exists():
        bounds = json.loads(saved.read_text())
    else:
        # The welcome posts carry fixed ids of long ago; the seed's are of its start.
        ids = [r[0] for r in _query(db, "SELECT id FROM sns_post WHERE id >= ? ORDER BY id", (1 << 60,))]
        first = next(b for a, b in zip(ids, ids[1:]) if (b >> 20) - (a >> 20) > 5_000)
        bounds = {"first_new_id": first, "started_ms": first >> 20, "ended_ms": ids[-1] >> 20}
    minutes = (bounds["ended_ms"] - bounds["started_ms"]) / 60_000
    return {"minutes": round(minutes, 1), **figures(db, **bounds)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--port", type=int, default=8777)
    parser.add_argument("--var-dir", default="/tmp/demo-quality")
    parser.add_argument(
        "--interval", type=float, default=60, help="seconds between the person's replies"
    )
    parser.add_argument("--json")
    parser.add_argument("--analyse", action="store_true", help="only read the figures of --var-dir's last run")
    args = parser.parse_args(argv)
    if args.analyse:
        result = analyse(Path(args.var_dir))
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return result
    # Started in the background, Python ignores SIGINT; SIGTERM must still stop the demo.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    result = run(args.minutes, args.port, Path(args.var_dir), args.interval)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False))
    return result


if __name__ == "__main__":
    main()
