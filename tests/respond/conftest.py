import pytest


@pytest.fixture(autouse=True)
def _respond_settings(settings):
    """The deterministic stand-in model, one call at a time, no retries."""
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    settings.STGY_AI_MAX_RETRIES = 0
