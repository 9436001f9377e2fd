"""Real-browser tests: Playwright for Python driving Debian's headless Chromium against
pytest-django's live server. No browser is ever downloaded; without /usr/bin/chromium
the tests skip with the reason shown (and CI, which installs it, turns a skip into a
failure)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections

from tests.factories import PASSWORD

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def screenshot_dir() -> Path:
    path = Path(settings.BASE_DIR) / "artifacts" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (a launch is about a second of CPU); every test still
    gets fresh contexts (`open_session`), so no cookie or storage crosses tests."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API keeps an asyncio loop running on the test thread, which
    # makes Django take the test's own ORM calls for async code. The test thread is
    # not async code; the server under test runs in its own thread, unaffected. The
    # loop runs until the module's last test, so the setting lasts as long.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            try:
                yield chromium
            finally:
                chromium.close()
                connections.close_all()


@pytest.fixture(autouse=True)
def _test_connections_closed():
    """While Playwright's loop runs, Django's per-context connection storage hands the
    test's ORM calls a connection of their own; close it after each test, or it would
    outlive the test (and at the end block dropping the test database)."""
    yield
    connections.close_all()


class Session:
    """One browser context (one person's cookies) against the live server."""

    def __init__(self, browser, base_url: str, viewport=DESKTOP, bypass_csp: bool = False):
        self.context = browser.new_context(
            base_url=base_url, viewport=viewport, locale="en-US", bypass_csp=bypass_csp
        )
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def login(self, user, password: str = PASSWORD):
        page = self.page
        page.goto("/login")
        page.fill("input[name=email]", user.email)
        page.fill("input[name=password]", password)
        page.click("button:has-text('Log in')")
        page.wait_for_url("**/")
        return page


@pytest.fixture
def open_session(browser, live_server):
    sessions: list[Session] = []

    def open_(user=None, viewport=DESKTOP, bypass_csp: bool = False) -> Session:
        session = Session(browser, live_server.url, viewport, bypass_csp)
        sessions.append(session)
        if user is not None:
            session.login(user)
        return session

    yield open_
    for session in sessions:
        session.context.close()
