"""DEBUG is off unless asked for, and then a SECRET_KEY is required: a deployment that
forgets one variable fails to start instead of serving debug pages with a known key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"


def settings_in_subprocess(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    clean.update(DJANGO_SETTINGS_MODULE="stgy.settings", **env)
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def test_without_debug_or_key_the_settings_refuse_to_load():
    done = settings_in_subprocess()
    assert done.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in done.stderr


def test_with_a_key_debug_is_off():
    done = settings_in_subprocess(SECRET_KEY="a-real-secret")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_debug_on_when_asked():
    done = settings_in_subprocess(DEBUG="true")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
