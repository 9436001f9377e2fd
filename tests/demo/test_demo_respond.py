"""The running demo answers a person: log in as the demo person through the API, reply
to an AI user's post, and the stand-in's answer is there within seconds (the respond
path on the embedded mode's background thread), not on a later cycle."""

from __future__ import annotations

import http.cookiejar
import json
import sqlite3
import time
import urllib.request

from tests.demo.test_demo_browser import _free_port, _wait_http
from tests.demo.test_demo_command import start_demo, stop_demo, wait_for

ANSWER_WITHIN_SECONDS = 15


def test_a_reply_to_an_ai_user_is_answered_within_seconds(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(path: str, body: dict) -> dict:
        request = urllib.request.Request(
            base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "Origin": base},
        )
        with opener.open(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    process = start_demo(tmp_path, f"127.0.0.1:{port}")
    try:
        _wait_http(f"{base}/login", timeout=90)
        db = tmp_path / "stgy.sqlite3"
        assert wait_for(db, lambda c: c["posts"] >= 1, timeout=90).get("posts", 0) >= 1  # an AI user's post
        with sqlite3.connect(db, timeout=30) as conn:
            ai_id, post_id = conn.execute(
                "SELECT u.id, p.id FROM sns_post p JOIN sns_user u ON u.id = p.owned_by "
                "WHERE u.ai_model IS NOT NULL AND p.reply_to IS NULL ORDER BY p.id DESC LIMIT 1"
            ).fetchone()
        call("/api/auth", {"email": "maya@demo.stgy.local", "password": "stgy-demo"})
        started = time.monotonic()
        mine = call("/api/posts", {"content": "How do you keep a sourdough starter alive in winter?",
                                   "tags": [], "replyTo": f"{post_id:016X}"})
        answer = None
        while answer is None and time.monotonic() - started < ANSWER_WITHIN_SECONDS:
            time.sleep(0.2)
            with sqlite3.connect(db, timeout=30) as conn:
                answer = conn.execute(
                    "SELECT content FROM sns_post WHERE owned_by = ? AND reply_to = ?", (ai_id, int(mine["id"], 16))
                ).fetchone()
        elapsed = time.monotonic() - started
    finally:
        assert stop_demo(process) == 0
    print(f"\ndemo answered the reply after {elapsed:.2f} s")
    log = (tmp_path / "demo.log").read_text(errors="replace")
    assert answer is not None, log[-3000:]
    assert "Maya" in answer[0] and "(offline stand-in)" in answer[0]
