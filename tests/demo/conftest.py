from tests.browser.conftest import browser  # noqa: F401 - the Chromium fixture, shared
