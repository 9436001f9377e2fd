"""The test run's settings: the project's own, on a developer's footing — DEBUG on (the
fixed demo key, static files straight from the apps) unless the environment says
otherwise. Production leaves DEBUG off by default (stgy/settings/core.py)."""

import os

os.environ.setdefault("DEBUG", "true")

from stgy.settings import *  # noqa: E402,F401,F403
