"""A newcomer's view of the running demo: open it in Chromium, log in as the demo
person, and see a post an AI user wrote, with its AI badge."""

from __future__ import annotations

import socket
import sqlite3
import time
import urllib.request

import pytest

from tests.browser.conftest import screenshot_dir
from tests.demo.test_demo_command import start_demo, stop_demo, wait_for


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_http(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {timeout}s")


@pytest.mark.browser
def test_running_demo_shows_an_ai_post_with_its_badge(tmp_path, browser):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_demo(tmp_path, f"127.0.0.1:{port}")
    try:
        _wait_http(f"{base}/login", timeout=90)
        counts = wait_for(tmp_path / "stgy.sqlite3", lambda c: c["posts"] >= 1, timeout=90)
        assert counts.get("posts", 0) >= 1, counts
        with sqlite3.connect(tmp_path / "stgy.sqlite3") as conn:
            post_hex, nickname = conn.execute(
                "SELECT printf('%016X', p.id), u.nickname FROM sns_post p JOIN sns_user u ON u.id = p.owned_by "
                "WHERE u.ai_model IS NOT NULL AND p.reply_to IS NULL ORDER BY p.id DESC LIMIT 1"
            ).fetchone()

        context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto("/login")
        page.fill("input[name=email]", "maya@demo.stgy.local")
        page.fill("input[name=password]", "stgy-demo")
        page.click("button[type=submit]")
        page.goto("/?tab=everyone")
        card = page.locator(f"article[data-post-id='{post_hex}']")
        if card.count() == 0:  # newer posts may have pushed it off the first page
            page.goto(f"/posts/{post_hex}")
            card = page.locator(f"article[data-post-id='{post_hex}']")
        card.first.wait_for()
        assert nickname in card.first.inner_text()
        assert card.first.locator(".badge.ai").count() == 1
        page.screenshot(path=str(screenshot_dir() / "demo-everyone.png"), full_page=False)
        context.close()
    finally:
        assert stop_demo(process) == 0
