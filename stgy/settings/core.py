"""Django itself: debug and the secret key, hosts, apps, templates, authentication,
sessions and HTTPS, languages, static files and logging."""

import importlib.util
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .environment import BASE_DIR, VAR_DIR, env, num

# Off unless asked for: a deployment that forgets a variable must not run with debug
# pages and a fixed key. bin/demo and the test settings (tests/settings.py) turn it on.
DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    SECRET_KEY = "insecure-embedded-demo-key-do-not-use-in-production"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the API reference's renderer, served from our static files
    "sns",
    "agents",
    "mcp_server",  # manage.py mcp (docs/mcp.md)
]

ROOT_URLCONF = "stgy.urls"
CSRF_FAILURE_VIEW = "sns.web.error_pages.csrf_failure"
WSGI_APPLICATION = "stgy.wsgi.application"

TEMPLATES = [
    {
        # Django's, letting go of a render's context without the garbage collector.
        "BACKEND": "stgy.template_backend.DjangoTemplates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "sns.web.card_forms.csrf_context",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "sns.User"
# Ours first; Django's stays listed so sessions it stamped remain valid.
AUTHENTICATION_BACKENDS = [
    "sns.auth.backend.UserBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "sns.auth.passwords.NotBlankValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    # Django's UserAttributeSimilarityValidator, and no password built from these.
    {
        "NAME": "sns.auth.passwords.PersonalInfoValidator",
        "OPTIONS": {"user_attributes": ("email", "nickname")},
    },
]
PASSWORD_HASHERS = env.list(
    "PASSWORD_HASHERS",
    default=[
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.ScryptPasswordHasher",
    ],
)
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:login"

# Sessions: one session system for pages and the JSON API, cookie named as the
# original's. SameSite=Strict keeps the cookie off every cross-site request.
SESSION_COOKIE_NAME = "session_id"
SESSION_COOKIE_SAMESITE = "Strict"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = num("STGY_SESSION_TTL", 604800)
# Sliding expiry (the original refreshed the TTL on read) by sns.auth.sliding, which writes a
# used session at most once per refresh interval rather than on every request.
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Strict"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind TLS (compose.yaml turns both on): redirect plain HTTP, and tell browsers to use
# HTTPS only. Off by default so the embedded demo works on http://127.0.0.1.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = num("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# How many reverse proxies in front of the site append to X-Forwarded-For. 0: the
# client address is the socket's, and a client cannot pick its own throttle bucket.
STGY_TRUSTED_PROXIES = num("STGY_TRUSTED_PROXIES", 0)
# Frontend origins (scheme://host[:port]) allowed to call the API from another origin,
# e.g. the original STGY's web frontend on its own port; empty = none (sns/api/cors.py).
STGY_CORS_ALLOWED_ORIGINS = env.list("STGY_CORS_ALLOWED_ORIGINS", default=[])
# Hosts (host:port as sent in Host) that serve the API at the root and no pages, for the
# original's scripts, which address the API there (stgy/api_root.py); empty = none.
STGY_API_ROOT_HOSTS = [h.strip().lower() for h in env.list("STGY_API_ROOT_HOSTS", default=[]) if h.strip()]

LANGUAGE_CODE = "en-us"
# The interface's languages (sns/web/language.py); the Japanese catalogue is
# locale/ja/LC_MESSAGES/django.po, compiled to the django.mo beside it.
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
# Leaflet for maps in posts, as the django-leaflet package ships it (static/leaflet/...).
# Only its static folder is used: as an app its admin module needs GDAL, which we lack.
STATICFILES_DIRS.append(Path(importlib.util.find_spec("leaflet").submodule_search_locations[0]) / "static")
# gunicorn serves no static files; WhiteNoise does, from STATIC_ROOT after collectstatic
# (and straight from the app directories when DEBUG is on or in tests).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {
        "plain_refusals": {"()": "stgy.log_filters.PlainRefusals"},
        "secrets_redacted": {"()": "stgy.log_filters.SecretsRedacted"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["secrets_redacted"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "django.request": {"filters": ["plain_refusals"]},
        # One line per LLM HTTP request drowns everything else; usage rows record them.
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        "celery.app.trace": {"level": env.str("CELERY_TRACE_LOG_LEVEL", default="WARNING")},
    },
}
