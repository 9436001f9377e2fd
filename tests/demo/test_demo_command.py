"""The README's first command, headless: `manage.py demo` in a temporary directory
with short pacing, until the community shows AI users reading, liking, replying and
posting; then a restart continues the same community."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STAGE_COUNT = 7


def demo_env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="stgy.settings",
        DEBUG="true",  # as bin/demo sets it
        STGY_VAR_DIR=str(var_dir),
        STGY_AI_PROVIDER="offline",
        STGY_EMBEDDING_PROVIDER="hash",
        STGY_AI_USER_LOOP_SLEEP_MS="4000",
        STGY_AI_USER_LOOP_JITTER="0.5",
        STGY_AI_USER_SKIP_NEW_POST_DAYS="0.0002",
        STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS="1",
        PASSWORD_HASHERS="django.contrib.auth.hashers.MD5PasswordHasher",
        PYTHONUNBUFFERED="1",
    )
    return env


def start_demo(var_dir: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "demo", "--tick", "0.5", *extra],
        cwd=ROOT,
        env=demo_env(var_dir),
        stdout=open(var_dir / "demo.log", "ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_demo(process: subprocess.Popen) -> int:
    """Ctrl-C, as a person would; the demo must stop cleanly on its own."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        return process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise


def community(db: Path) -> dict[str, int]:
    with sqlite3.connect(db, timeout=30) as conn:
        one = lambda sql: conn.execute(sql).fetchone()[0]
        ai = "(SELECT id FROM sns_user WHERE ai_model IS NOT NULL)"
        return {
            "users": one("SELECT COUNT(*) FROM sns_user"),
            "impressions": one("SELECT COUNT(*) FROM agents_postimpression"),
            # every impression written keeps its version, on SQLite too (agents/memory_versions.py)
            "impression_versions": one("SELECT COUNT(*) FROM agents_memoryversion WHERE kind = 'post'"),
            "likes": one(f"SELECT COUNT(*) FROM sns_like WHERE liked_by IN {ai}"),
            "replies": one(f"SELECT COUNT(*) FROM sns_post WHERE owned_by IN {ai} AND reply_to IS NOT NULL"),
            "posts": one(f"SELECT COUNT(*) FROM sns_post WHERE owned_by IN {ai} AND reply_to IS NULL"),
            "runs": one("SELECT COUNT(*) FROM agents_cyclerun"),
            # the welcome posts of agents/demo/welcome.py, 0000000000010001 and ...20001
            "welcome": one("SELECT COUNT(*) FROM sns_post WHERE id IN (65537, 131073) AND allow_replies = 0"),
        }


def finished_runs_complete(db: Path) -> tuple[int, int]:
    import json

    with sqlite3.connect(db, timeout=30) as conn:
        rows = conn.execute(
            "SELECT stages FROM agents_cyclerun WHERE status != 'running' AND kind = 'cycle'"
        ).fetchall()
    complete = sum(1 for (stages,) in rows if len(json.loads(stages)) == STAGE_COUNT)
    return complete, len(rows)


def wait_for(db: Path, predicate, timeout: float) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    counts: dict[str, int] = {}
    while time.monotonic() < deadline:
        if db.exists():
            try:
                counts = community(db)
            except sqlite3.OperationalError:
                counts = {}
            if counts and predicate(counts):
                return counts
        time.sleep(1)
    return counts


def test_demo_brings_a_living_community_and_restarts_idempotently(tmp_path):
    db = tmp_path / "stgy.sqlite3"
    process = start_demo(tmp_path, "--no-serve")
    try:
        counts = wait_for(
            db,
            lambda c: c["impressions"] > 0 and c["likes"] >= 1 and c["replies"] >= 1 and c["posts"] >= 1,
            timeout=300,  # replies are the rarest; a slow machine needs the time
        )
    finally:
        code = stop_demo(process)
    log = (tmp_path / "demo.log").read_text(errors="replace")
    assert code == 0, log[-3000:]
    assert counts.get("impressions", 0) > 0, (counts, log[-3000:])
    assert community(db)["impression_versions"] >= community(db)["impressions"], counts
    assert counts["likes"] >= 1, counts
    assert counts["replies"] >= 1, counts
    assert counts["posts"] >= 1, counts
    complete, finished = finished_runs_complete(db)
    assert finished > 0 and complete == finished, (complete, finished)
    first_token = demo_mcp_token(log, db)

    before = community(db)
    process = start_demo(tmp_path, "--no-serve")
    try:
        after = wait_for(db, lambda c: c["runs"] > before["runs"], timeout=60)
    finally:
        assert stop_demo(process) == 0
    assert after["users"] == before["users"]  # no second seeding
    assert before["welcome"] == after["welcome"] == 2
    assert after["runs"] > before["runs"]  # the same community goes on living
    # Each start prints a fresh token for an MCP client and revokes the previous one.
    second_token = demo_mcp_token((tmp_path / "demo.log").read_text(errors="replace"), db)
    assert second_token != first_token


def demo_mcp_token(log: str, db: Path) -> str:
    """The token of the newest MCP hint the demo printed: in a desktop assistant's
    stdio config for `manage.py mcp`, and the demo's only token in the database."""
    import hashlib
    import json

    line = [line for line in log.splitlines() if '"mcpServers"' in line][-1]
    server = json.loads(line.strip())["mcpServers"]["stgy"]
    assert server["args"][-2:] == [str(ROOT / "manage.py"), "mcp"]
    secret = server["env"]["STGY_MCP_TOKEN"]
    assert f"Authorization: Bearer {secret}" in log
    with sqlite3.connect(db, timeout=30) as conn:
        digests = [
            row[0]
            for row in conn.execute("SELECT digest FROM sns_accesstoken WHERE name = 'bin/demo'")
        ]
    assert digests == [hashlib.sha256(secret.encode()).hexdigest()]
    return secret
