import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """The cast is built with real passwords; a cheap hasher keeps these tests quick
    (hash strength is Django's business, not the rulebook's)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
