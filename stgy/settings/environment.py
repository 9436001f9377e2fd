"""Where the settings come from: the project's folders, the environment (and a .env
file beside manage.py when there is one), and `num`, the reader of numeric variables."""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("STGY_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")


def num(name, default, cast=int):
    """An unset *or empty* numeric variable means the default (docs/differences.md item 10)."""
    raw = env.str(name, default="").strip()
    if raw == "":
        return default
    try:
        return cast(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc
