"""bench/demo_quality: does the embedded demo converse without flooding?

Starts `manage.py demo` headless on a fresh STGY_VAR_DIR (SQLite, in-process tasks, the
offline stand-in) with the pacing of `bin/demo`, logs in as the seeded person through
the JSON API and, every `--interval` seconds, replies to the newest root post of an AI
user (each in turn). At the end it reads the database and prints: AI posts per hour
(root posts and replies), the share of new AI root posts whose title an earlier AI post
already had, the share of repeated sentences among new AI posts, and how many of the
person's replies were answered and how fast (p50/p95, polled every 0.5 s).

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
    try:
        api = Api(f"http://127.0.0.1:{port}")
        _wait_up(api)
        first_new_id = _query(db, "SELECT COALESCE(MAX(id), 0) + 1 FROM sns_post")[0][0]
        ai_users = [
            r[0]
            for r in _query(db, "SELECT id FROM sns_user WHERE ai_model IS NOT NULL ORDER BY id")
        ]
        started = time.monotonic()
        next_reply, turn = started + 30, 0
        while time.monotonic() - started < minutes * 60:
            now = time.monotonic()
            if now >= next_reply:
                next_reply += interval
                ai = ai_users[turn % len(ai_users)]
                turn += 1
                target = _query(
                    db,
                    "SELECT id FROM sns_post WHERE owned_by = ? AND reply_to IS NULL "
                    "ORDER BY id DESC LIMIT 1",
                    (ai,),
                )
                if target:
                    text = MESSAGES[(turn - 1) % len(MESSAGES)]
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
            time.sleep(0.5)
        elapsed_h = (time.monotonic() - started) / 3600
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    rows = _query(db, f"SELECT id, content, reply_to FROM sns_post WHERE owned_by IN {AI}")
    new = [r for r in rows if r[0] >= first_new_id]
    latencies = [r["answered"] for r in replies.values() if r["answered"] is not None]
    return {
        "minutes": round(elapsed_h * 60, 1),
        "ai_posts_per_hour": round(len(new) / elapsed_h, 1),
        "ai_root_posts_per_hour": round(sum(1 for r in new if r[2] is None) / elapsed_h, 1),
        "ai_replies_per_hour": round(sum(1 for r in new if r[2] is not None) / elapsed_h, 1),
        **text_quality(rows, first_new_id),
        "person_replies": len(replies),
        "answered": len(latencies),
        "latency_s": {
            "p50": pct(latencies, 50),
            "p95": pct(latencies, 95),
            "max": pct(latencies, 100),
        },
        "pacing": demo_pacing(),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--port", type=int, default=8777)
    parser.add_argument("--var-dir", default="/tmp/demo-quality")
    parser.add_argument(
        "--interval", type=float, default=60, help="seconds between the person's replies"
    )
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    # Started in the background, Python ignores SIGINT; SIGTERM must still stop the demo.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    result = run(args.minutes, args.port, Path(args.var_dir), args.interval)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False))
    return result


if __name__ == "__main__":
    main()
