import pytest

from tests.cycle.conftest import model_server  # noqa: F401  (the model server as embedder too)


@pytest.fixture(autouse=True)
def _respond_settings(settings):
    """The deterministic stand-in model, one call at a time, no retries."""
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    settings.STGY_AI_MAX_RETRIES = 0
