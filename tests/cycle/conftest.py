import pytest


@pytest.fixture(autouse=True)
def _cycle_settings(settings):
    """The deterministic stand-in model, and one LLM call at a time: inside a test's
    transaction a worker thread could not see the rows the test created."""
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    settings.STGY_AI_MAX_RETRIES = 0
    # The cycle tests create many users; password hashing is not what they test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def model_server(settings, llm_server):
    """The local OpenAI-compatible server as chat model and as embedder. Its embedding
    model declares no calibration, so the crafted cosines of tests.cycle.helpers are
    exactly the similarities the stages compare with their thresholds."""
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    # Its vectors are hashes of the text, unrelated to the crafted ones: the interest's
    # jump guard would refuse every update. The guard's own tests turn it back on.
    settings.STGY_AI_INTEREST_MIN_SIMILARITY = -1
    return llm_server
