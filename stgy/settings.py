"""STGY settings: every value is read here, once, through django-environ.

The defaults give the embedded mode (SQLite under var/, tasks run in-process, AI off
unless a provider is chosen). Production sets DATABASE_URL, REDIS_URL, SECRET_KEY and
DEBUG=false; `.env.example` lists every variable.
"""

import importlib.util
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("STGY_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")


def _num(name, default, cast=int):
    """An unset *or empty* numeric variable means the default (docs/differences.md item 10)."""
    raw = env.str(name, default="").strip()
    if raw == "":
        return default
    try:
        return cast(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc


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

MIDDLEWARE = [
    "stgy.security_headers.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "stgy.ops.middleware.RequestMetricsMiddleware",  # after static files: routes only
    "sns.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "sns.sessions.SlidingSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The API's hot reads answer here, after every middleware above (each leaves its mark
    # on their answers) and before every one below (none does); the rest go on
    # (sns/api/hot_reads.py, docs/architecture.md §9 "The lean path"). A middleware added
    # above costs every hot read: tests/sns/test_hot_reads_served.py lists those expected.
    "sns.api.hot_reads.HotReadsMiddleware",
    # The API at the root of the hosts in STGY_API_ROOT_HOSTS (stgy/api_root.py); the hot
    # reads' paths, under /api/ and /backend/, are the same views on those hosts.
    "stgy.api_root.ApiRootHostMiddleware",
    "sns.session_auth.SessionAuthenticationMiddleware",
    # The member's language of the interface (sns/web/language.py).
    "sns.web.language.InterfaceLanguageMiddleware",
    # Our pages for Django's own 405 and, under DEBUG, 404 (sns/web/error_pages.py): inside
    # the chain, after the user and the language are known.
    "sns.web.error_pages.ErrorPagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "sns.input_limits.InputLimitsMiddleware",
    "agents.llm.deadline.WebDeadlineMiddleware",
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

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'stgy.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded demo writes from the web thread and the agent thread at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
DATABASES["default"].setdefault("CONN_MAX_AGE", _num("CONN_MAX_AGE", 0))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "sns.User"
# Ours first; Django's stays listed so sessions it stamped remain valid.
AUTHENTICATION_BACKENDS = [
    "sns.auth_backend.UserBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "sns.passwords.NotBlankValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    # Django's UserAttributeSimilarityValidator, and no password built from these.
    {
        "NAME": "sns.passwords.PersonalInfoValidator",
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
SESSION_COOKIE_AGE = _num("STGY_SESSION_TTL", 604800)
# Sliding expiry (the original refreshed the TTL on read) by sns.sessions, which writes a
# used session at most once per refresh interval rather than on every request.
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Strict"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind TLS (compose.yaml turns both on): redirect plain HTTP, and tell browsers to use
# HTTPS only. Off by default so the embedded demo works on http://127.0.0.1.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = _num("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# How many reverse proxies in front of the site append to X-Forwarded-For. 0: the
# client address is the socket's, and a client cannot pick its own throttle bucket.
STGY_TRUSTED_PROXIES = _num("STGY_TRUSTED_PROXIES", 0)
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

# --- Redis: cache, broker, throttles. Absent -> in-process everything. ---
REDIS_URL = env.str("REDIS_URL", default="")
# Seconds a user's auth record (session hash, admin, frozen, locale) is kept in the
# shared cache (sns/session_auth.py); 0 reads it from the database on every request,
# the default without Redis, whose stand-in cache is per process.
STGY_AUTH_RECORD_TTL = _num("STGY_AUTH_RECORD_TTL", 300 if REDIS_URL else 0)
# Personal access tokens (sns/token_auth.py): a token's last use is written at most once
# per this many seconds, not on every request; a person holds at most this many tokens.
STGY_TOKEN_LAST_USED_STEP = _num("STGY_TOKEN_LAST_USED_STEP", 300)
STGY_TOKENS_PER_USER = _num("STGY_TOKENS_PER_USER", 20)
# The MCP server (docs/mcp.md): the token `manage.py mcp` acts with over stdio, and the
# site's address its answers' links start with (empty: site-relative links).
STGY_MCP_TOKEN = env.str("STGY_MCP_TOKEN", default="")
STGY_SITE_URL = env.str("STGY_SITE_URL", default="")
# Seconds to wait for Redis before a cache call or a task publish gives up, and how long
# a process then leaves it alone: the site keeps serving without Redis (stgy/cache.py,
# agents/runner.py, docs/operations.md).
STGY_REDIS_TIMEOUT = _num("STGY_REDIS_TIMEOUT", 1.0, float)
STGY_CACHE_RETRY_SECONDS = _num("STGY_CACHE_RETRY_SECONDS", 5.0, float)
STGY_BROKER_RETRY_SECONDS = _num("STGY_BROKER_RETRY_SECONDS", 5.0, float)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "stgy.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": STGY_REDIS_TIMEOUT,
                "socket_timeout": STGY_REDIS_TIMEOUT,
            },
        }
    }
    # Sessions read from the cache and fall back to the database when it is away.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "stgy"}}
    SESSION_ENGINE = "django.contrib.sessions.backends.db"

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = _num("CELERY_TASK_SOFT_TIME_LIMIT", 600)
CELERY_TASK_TIME_LIMIT = _num("CELERY_TASK_TIME_LIMIT", 720)
# Three durations must agree, whoever changes one of them (docs/agent-cycle.md §2.6;
# tests/stgy/test_task_durations.py checks the defaults):
# 1. CELERY_VISIBILITY_TIMEOUT (below) > the longest hard time limit of any task, this
#    default and every per-task limit: Redis hands a message not acknowledged within it
#    to another worker, so a live task would run twice. It is also longer than the
#    longest countdown (the summary task's retries, at most 480 s, agents/tasks.py).
# 2. It is how long a task whose worker was SIGKILLed waits to be delivered again,
#    so it is kept to minutes: 900 s.
# 3. STGY_AI_USER_LOCK_SECONDS > CELERY_VISIBILITY_TIMEOUT + a stage's hard time
#    limit: a killed stage comes back, and its cycle goes on, before its lease lapses
#    and the stale-lease sweep ends the run (agents/runs/stale.py).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing must not hang on a dead broker: a short connection timeout, one quick retry.
CELERY_BROKER_CONNECTION_TIMEOUT = STGY_REDIS_TIMEOUT * 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
}
# Stage tasks of running cycles have a queue of their own, listed first and consumed
# with priority: under a backlog of cycle_start tasks a started cycle still finishes
# in stage time instead of waiting behind the whole FIFO. A worker started without -Q
# consumes both queues; one started with -Q must name both.
STGY_CYCLE_STAGE_QUEUE = env.str("STGY_CYCLE_STAGE_QUEUE", default="stgy-stages")
# Answers to people who turned to an AI user (docs/respond-path.md) come before
# everything else: a person waits for them, nobody waits for a cycle stage.
STGY_RESPOND_QUEUE = env.str("STGY_RESPOND_QUEUE", default="stgy-respond")
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Each queue with an exchange and routing key of its own: queues left without one
# share the default exchange and key, and a stage message would reach both queues.
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)
    for name in (STGY_RESPOND_QUEUE, STGY_CYCLE_STAGE_QUEUE, CELERY_TASK_DEFAULT_QUEUE)
)
CELERY_TASK_ROUTES = {
    "agents.respond": {"queue": STGY_RESPOND_QUEUE},
    "agents.cycle_stage": {"queue": STGY_CYCLE_STAGE_QUEUE},
    "agents.cycle_finish": {"queue": STGY_CYCLE_STAGE_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _num("CELERY_VISIBILITY_TIMEOUT", 900),  # see the time limits above
    # Without these a publish to a broker that vanished without closing the connection
    # waits forever; the read timeout stays above kombu's one-second BRPOP.
    "socket_connect_timeout": STGY_REDIS_TIMEOUT * 2,
    "socket_timeout": max(3.0, STGY_REDIS_TIMEOUT * 3),
    # Redis: poll the queues in the order listed (answers, then stages), not round robin.
    "queue_order_strategy": "priority",
}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "agents-dispatch": {"task": "agents.dispatch_cycles", "schedule": timedelta(minutes=1)},
    "agents-summary-sweep": {"task": "agents.sweep_summaries", "schedule": timedelta(minutes=5)},
    # Sends nothing unless STGY_AI_BATCH is on (agents/summaries/batch.py,
    # agents/cycle/batches.py).
    "agents-summary-batches": {"task": "agents.summary_batches", "schedule": timedelta(minutes=1)},
    "agents-respond-sweep": {"task": "agents.sweep_respond", "schedule": timedelta(minutes=1)},
    "agents-stale-runs-sweep": {"task": "agents.sweep_stale_runs", "schedule": timedelta(minutes=1)},
    "agents-prune-call-traces": {"task": "agents.prune_call_traces", "schedule": timedelta(hours=1)},
    "sns-purge-notifications": {"task": "sns.purge_notifications", "schedule": timedelta(hours=6)},
    "agents-prune-memory-versions": {"task": "agents.prune_memory_versions", "schedule": timedelta(hours=6)},
    "sns-sweep-staged-media": {"task": "sns.sweep_staged_media", "schedule": timedelta(minutes=10)},
}

# --- REST framework / OpenAPI ---
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["sns.api.authentication.SessionCookieAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["sns.api.permissions.LoginRequired"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    # DRF's JSON bytes, made by orjson where that gives the same bytes (sns/api/renderers.py).
    "DEFAULT_RENDERER_CLASSES": ["sns.api.renderers.FastJSONRenderer"],
    "EXCEPTION_HANDLER": "sns.api.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_RATES": {"login": env.str("STGY_LOGIN_RATE", default="10/min")},
    "NUM_PROXIES": STGY_TRUSTED_PROXIES,
}
# Input hardening of the API: one JSON parser with a depth limit and no unstorable
# characters; a schema class that documents the error answers every operation gives.
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = ["sns.api.parsers.BoundedJSONParser"]
REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] = "sns.api.schema.StgyAutoSchema"
# Request bodies (API and forms) above this many bytes are answered 413; JSON bodies
# nested deeper than STGY_JSON_MAX_DEPTH levels are refused with a 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = _num("STGY_MAX_BODY_BYTES", 2_621_440)
STGY_JSON_MAX_DEPTH = _num("STGY_JSON_MAX_DEPTH", 32)
SPECTACULAR_SETTINGS = {
    "TITLE": "STGY API",
    "DESCRIPTION": "JSON API of STGY, a social network where AI users live beside humans. "
    "Every operation also takes a personal access token, `Authorization: Bearer stgy_pat_…`, "
    "in place of the session cookie (docs/api.md, \"Personal access tokens\").",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "REDOC_DIST": "SIDECAR",
    # The /backend/ mount serves the same operations; the document lists them once.
    "PREPROCESSING_HOOKS": ["sns.api.schema.api_paths_only"],
}

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

# --- STGY domain limits (docs/agent-cycle.md §13 names) ---
STGY_ID_ISSUE_WORKER_ID = _num("STGY_ID_ISSUE_WORKER_ID", None)
STGY_MAX_PAGE_LIMIT = _num("STGY_MAX_PAGE_LIMIT", 100)
STGY_CONTENT_LENGTH_LIMIT = _num("STGY_CONTENT_LENGTH_LIMIT", 10000)
STGY_TAGS_NUMBER_LIMIT = _num("STGY_TAGS_NUMBER_LIMIT", 5)
STGY_INTRODUCTION_LENGTH_LIMIT = _num("STGY_INTRODUCTION_LENGTH_LIMIT", 2500)
STGY_AI_PERSONALITY_LENGTH_LIMIT = _num("STGY_AI_PERSONALITY_LENGTH_LIMIT", 2500)
STGY_HOURLY_POSTS_COUNT_LIMIT = _num("STGY_HOURLY_POSTS_COUNT_LIMIT", 60)
STGY_HOURLY_POSTS_SIZE_LIMIT = _num("STGY_HOURLY_POSTS_SIZE_LIMIT", 2_000_000)
STGY_HOURLY_LIKES_COUNT_LIMIT = _num("STGY_HOURLY_LIKES_COUNT_LIMIT", 60)
# Reposts and bookmarks per user and hour (docs/shares.md); quotes count as posts.
STGY_HOURLY_REPOSTS_COUNT_LIMIT = _num("STGY_HOURLY_REPOSTS_COUNT_LIMIT", 60)
STGY_HOURLY_BOOKMARKS_COUNT_LIMIT = _num("STGY_HOURLY_BOOKMARKS_COUNT_LIMIT", 300)
STGY_HOURLY_USER_UPDATES_COUNT_LIMIT = _num("STGY_HOURLY_USER_UPDATES_COUNT_LIMIT", 60)
STGY_HOURLY_USER_UPDATES_SIZE_LIMIT = _num("STGY_HOURLY_USER_UPDATES_SIZE_LIMIT", 1_000_000)
STGY_NOTIFICATION_SHOWN_RECORDS = _num("STGY_NOTIFICATION_SHOWN_RECORDS", 50)
STGY_NOTIFICATION_PAYLOAD_RECORDS = _num("STGY_NOTIFICATION_PAYLOAD_RECORDS", 10)
STGY_NOTIFICATION_RETENTION_DAYS = _num("STGY_NOTIFICATION_RETENTION_DAYS", 31)
STGY_NOTIFY_FROM_AI_USERS = env.bool("STGY_NOTIFY_FROM_AI_USERS", default=True)
# Direct messages and AI boundaries (docs/messages.md)
# How often open pages ask /live for new posts and unread counts (static/stgy.js).
STGY_LIVE_POLL_SECONDS = _num("STGY_LIVE_POLL_SECONDS", 30, float)
# How often an open post page or message thread asks whether an answer came (one cache
# read, sns/live_marks.py): every STGY_LIVE_THREAD_SECONDS for the first two minutes
# after the page was drawn or last changed, when an answer is most likely, then every
# STGY_LIVE_THREAD_IDLE_SECONDS (docs/pages.md §6).
STGY_LIVE_THREAD_SECONDS = _num("STGY_LIVE_THREAD_SECONDS", 4, float)
STGY_LIVE_THREAD_IDLE_SECONDS = _num("STGY_LIVE_THREAD_IDLE_SECONDS", 20, float)
STGY_MESSAGE_LENGTH_LIMIT = _num("STGY_MESSAGE_LENGTH_LIMIT", 10000)
STGY_HOURLY_MESSAGES_COUNT_LIMIT = _num("STGY_HOURLY_MESSAGES_COUNT_LIMIT", 60)
STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT = _num("STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT", 20)
STGY_MESSAGE_REPORT_REASON_LENGTH_LIMIT = _num("STGY_MESSAGE_REPORT_REASON_LENGTH_LIMIT", 1000)
STGY_AI_STOP_HOURS = _num("STGY_AI_STOP_HOURS", 48)
# Reports of posts and replies (docs/pages.md §3)
STGY_HOURLY_REPORTS_COUNT_LIMIT = _num("STGY_HOURLY_REPORTS_COUNT_LIMIT", 10)
STGY_REPORT_NOTE_LENGTH_LIMIT = _num("STGY_REPORT_NOTE_LENGTH_LIMIT", 1000)
# Search (docs/api.md, "Search")
STGY_SEARCH_LIMIT_MAX = _num("STGY_SEARCH_LIMIT_MAX", 1001)
STGY_SEARCH_QUERY_MAX_LENGTH = _num("STGY_SEARCH_QUERY_MAX_LENGTH", 1000)
STGY_SEARCH_MAX_TERMS = _num("STGY_SEARCH_MAX_TERMS", 32)
STGY_SEARCH_SHORT_TERM_SCAN = _num("STGY_SEARCH_SHORT_TERM_SCAN", 20000)

# --- AI: provider, models, budgets ---
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")
STGY_AI_PROVIDER = env.str(
    "STGY_AI_PROVIDER", default="openai" if (OPENAI_API_KEY or OPENAI_BASE_URL) else "none"
)
STGY_AI_MODEL_ADVANCED = env.str("STGY_AI_MODEL_ADVANCED", default="gpt-5.6-sol")
STGY_AI_MODEL_BALANCED = env.str("STGY_AI_MODEL_BALANCED", default="gpt-5.6-terra")
STGY_AI_MODEL_BASIC = env.str("STGY_AI_MODEL_BASIC", default="gpt-5.6-luna")
# The cascade (agents/llm/task_tiers.py, docs/agent-cycle.md "Which model does what"):
# judging tasks run on this tier ("own": the AI user's tier), writing tasks on the AI
# user's own; STGY_AI_TASK_TIERS overrides single tasks ("interest=own,reply-post=basic").
STGY_AI_JUDGING_TIER = env.str("STGY_AI_JUDGING_TIER", default="basic")
# Batch mode (agents/llm/batch.py): post summaries and the cycle's judging stages through the provider's batch
# interface, at about half the price, answered within 24 hours; `on` or `off`.
STGY_AI_BATCH = env.str("STGY_AI_BATCH", default="off")
# How long a cycle waits on its judging stage's batch before making the calls directly
# (agents/cycle/batches.py); the run keeps its lease that long.
STGY_AI_BATCH_WAIT_HOURS = _num("STGY_AI_BATCH_WAIT_HOURS", 24)
STGY_AI_TASK_TIERS = env.str("STGY_AI_TASK_TIERS", default="")
STGY_AI_RPC_TIMEOUT_MS = _num("STGY_AI_RPC_TIMEOUT_MS", 600000)
STGY_AI_MAX_RETRIES = _num("STGY_AI_MAX_RETRIES", 3)
STGY_AI_RETRY_BASE_DELAY = _num("STGY_AI_RETRY_BASE_DELAY", 1.0, float)
STGY_AI_RETRY_MAX_DELAY = _num("STGY_AI_RETRY_MAX_DELAY", 30.0, float)
STGY_AI_CONCURRENCY = _num("STGY_AI_CONCURRENCY", 16)
# Consecutive failed model calls that open the circuit breaker (0 = no breaker), and how
# long it then refuses calls before one probe call may go through.
STGY_AI_BREAKER_FAILURES = _num("STGY_AI_BREAKER_FAILURES", 5)
STGY_AI_BREAKER_COOLDOWN_SECONDS = _num("STGY_AI_BREAKER_COOLDOWN_SECONDS", 30.0, float)
# The whole time (attempts and backoff) a model call made inside a web request may take;
# 0 = no bound.
STGY_AI_WEB_DEADLINE_MS = _num("STGY_AI_WEB_DEADLINE_MS", 5000)
# Every model call's whole wall time, wherever it is made (a Celery worker above all):
# attempts, backoff and the wait for a slot; each attempt's socket calls stop at it too,
# so a model that sends a byte now and then cannot stretch it (agents/llm/http_deadline.py).
STGY_AI_CALL_DEADLINE_MS = _num("STGY_AI_CALL_DEADLINE_MS", 180000)
STGY_AI_SITE_DAILY_TOKEN_BUDGET = _num("STGY_AI_SITE_DAILY_TOKEN_BUDGET", 0)
STGY_AI_USER_DAILY_TOKEN_BUDGET = _num("STGY_AI_USER_DAILY_TOKEN_BUDGET", 0)
# Daily budgets in money (US dollars, as the price sheet; 0 = unlimited). Left empty with
# a real provider and no token budget, the site budget is STGY_AI_DEFAULT_SITE_DAILY_BUDGET
# (agents/budget.py, docs/operations.md "Prices and budgets").
STGY_AI_SITE_DAILY_BUDGET = env.str("STGY_AI_SITE_DAILY_BUDGET", default="")
STGY_AI_USER_DAILY_BUDGET = env.str("STGY_AI_USER_DAILY_BUDGET", default="")
STGY_AI_DEFAULT_SITE_DAILY_BUDGET = env.str("STGY_AI_DEFAULT_SITE_DAILY_BUDGET", default="5")
# What a prompt token served from the provider's cache counts in those budgets.
STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT = _num("STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT", 0.1, float)
# Price per million tokens: "model=input:cached_input:output,...", over the default sheet
# of agents/llm/usage.py (DEFAULT_PRICES)
STGY_AI_PRICES = env.str("STGY_AI_PRICES", default="")
# Days the trace of each model call (its messages, layers and answer) is kept; 0 = none
# are written (docs/prompts.md §5).
STGY_AI_TRACE_RETENTION_DAYS = _num("STGY_AI_TRACE_RETENTION_DAYS", 7)
STGY_EMBEDDING_PROVIDER = env.str("STGY_EMBEDDING_PROVIDER", default="hash")
STGY_EMBEDDING_OPENAI_MODEL = env.str("STGY_EMBEDDING_OPENAI_MODEL", default="text-embedding-3-small")
STGY_EMBEDDING_LOCAL_MODEL = env.str("STGY_EMBEDDING_LOCAL_MODEL", default="all-MiniLM-L6-v2")
STGY_PROMPT_DIR = Path(env.str("STGY_PROMPT_DIR", default=str(BASE_DIR / "prompts")))

# --- AI-user cycle knobs (docs/agent-cycle.md §13) ---
STGY_AI_TAG_MAX_COUNT = _num("STGY_AI_TAG_MAX_COUNT", 5)
STGY_AI_TAG_MAX_LENGTH = _num("STGY_AI_TAG_MAX_LENGTH", 40)
STGY_AI_USER_LOOP_SLEEP_MS = _num("STGY_AI_USER_LOOP_SLEEP_MS", 43_200_000)
STGY_AI_USER_LOOP_JITTER = _num("STGY_AI_USER_LOOP_JITTER", 0.2, float)
STGY_AI_USER_STAGE_CONCURRENCY = _num("STGY_AI_USER_STAGE_CONCURRENCY", 10)
# A cycle's lease, renewed by every stage; longer than CELERY_VISIBILITY_TIMEOUT plus a
# stage's hard time limit (see the Celery time limits above).
STGY_AI_USER_LOCK_SECONDS = _num("STGY_AI_USER_LOCK_SECONDS", 1800)
STGY_AI_USER_FETCH_POST_LIMIT = _num("STGY_AI_USER_FETCH_POST_LIMIT", 30)
STGY_AI_USER_COMPARE_POST_LIMIT = _num("STGY_AI_USER_COMPARE_POST_LIMIT", 100)
STGY_AI_USER_READ_POST_LIMIT = _num("STGY_AI_USER_READ_POST_LIMIT", 10)
STGY_AI_USER_READ_PEER_POST_LIMIT = _num("STGY_AI_USER_READ_PEER_POST_LIMIT", 10)
STGY_AI_USER_READ_OWN_POST_LIMIT = _num("STGY_AI_USER_READ_OWN_POST_LIMIT", 10)
STGY_AI_USER_LIKE_MAX_INTEREST_RANK = _num("STGY_AI_USER_LIKE_MAX_INTEREST_RANK", 2)
STGY_AI_USER_LIKE_MIN_SIMILARITY = _num("STGY_AI_USER_LIKE_MIN_SIMILARITY", 0.5, float)
# Reposts by AI users (docs/agent-cycle.md §6, "Reposts"): the like gate, stricter.
STGY_AI_USER_REPOST_MAX_INTEREST_RANK = _num("STGY_AI_USER_REPOST_MAX_INTEREST_RANK", 1)
STGY_AI_USER_REPOST_MIN_SIMILARITY = _num("STGY_AI_USER_REPOST_MIN_SIMILARITY", 0.7, float)
STGY_AI_USER_REPOSTS_PER_CYCLE = _num("STGY_AI_USER_REPOSTS_PER_CYCLE", 1)
STGY_AI_USER_REPLY_MAX_INTEREST_RANK = _num("STGY_AI_USER_REPLY_MAX_INTEREST_RANK", 2)
STGY_AI_USER_REPLY_MIN_SIMILARITY = _num("STGY_AI_USER_REPLY_MIN_SIMILARITY", 0.6, float)
STGY_AI_USER_POST_TEXT_LIMIT = _num("STGY_AI_USER_POST_TEXT_LIMIT", 10000)
STGY_AI_USER_INTRO_TEXT_LIMIT = _num("STGY_AI_USER_INTRO_TEXT_LIMIT", 10000)
STGY_AI_USER_IMPRESSION_PEER_TEXT_LIMIT = _num("STGY_AI_USER_IMPRESSION_PEER_TEXT_LIMIT", 2000)
STGY_AI_USER_IMPRESSION_LENGTH = _num("STGY_AI_USER_IMPRESSION_LENGTH", 1000)
STGY_AI_USER_INTEREST_LENGTH = _num("STGY_AI_USER_INTEREST_LENGTH", 2000)
STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT = _num(
    "STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT", 0.5, float
)
STGY_AI_USER_NEW_POST_LENGTH = _num("STGY_AI_USER_NEW_POST_LENGTH", 2000)
STGY_AI_USER_REPLY_LENGTH = _num("STGY_AI_USER_REPLY_LENGTH", 1000)
# Knowledge grounding (agents/runs/knowledge.py, docs/agent-cycle.md §8.1): the accounts
# and publications (emails) and tags whose posts are knowledge; empty lists turn it off.
STGY_KNOWLEDGE_ACCOUNTS = env.list("STGY_KNOWLEDGE_ACCOUNTS", default=[])
STGY_KNOWLEDGE_PUBLICATIONS = env.list("STGY_KNOWLEDGE_PUBLICATIONS", default=[])
STGY_KNOWLEDGE_TAGS = env.list("STGY_KNOWLEDGE_TAGS", default=[])
STGY_KNOWLEDGE_TOP_N = _num("STGY_KNOWLEDGE_TOP_N", 3)
STGY_KNOWLEDGE_ROUNDS = _num("STGY_KNOWLEDGE_ROUNDS", 1)
STGY_KNOWLEDGE_MIN_SCORE = _num("STGY_KNOWLEDGE_MIN_SCORE", 0.3, float)
STGY_KNOWLEDGE_TEXT_LIMIT = _num("STGY_KNOWLEDGE_TEXT_LIMIT", 2000)
STGY_AI_USER_POST_LENGTH_FLUCTUATION_RATIO = _num(
    "STGY_AI_USER_POST_LENGTH_FLUCTUATION_RATIO", 2.0, float
)
STGY_AI_USER_NEW_POST_TAGS = _num("STGY_AI_USER_NEW_POST_TAGS", 3)
STGY_AI_USER_OUTPUT_TEXT_LIMIT = _num("STGY_AI_USER_OUTPUT_TEXT_LIMIT", 10000)
STGY_AI_USER_FOLLOWEES_LIMIT = _num("STGY_AI_USER_FOLLOWEES_LIMIT", 30)
STGY_AI_USER_FOLLOWEES_MAX_SWAP = _num("STGY_AI_USER_FOLLOWEES_MAX_SWAP", 3)
STGY_AI_USER_FOLLOWEES_UP_SIMILARITY = _num("STGY_AI_USER_FOLLOWEES_UP_SIMILARITY", 0.6, float)
STGY_AI_USER_FOLLOWEES_DOWN_SIMILARITY = _num("STGY_AI_USER_FOLLOWEES_DOWN_SIMILARITY", 0.4, float)
STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS = _num(
    "STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS", 0.0, float
)
STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS = _num("STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS", 0.0, float)
# Memory versions and guards (docs/data-model.md "Memory versions", docs/agent-cycle.md
# "Memory guards"): keep the newest KEEP versions of each memory and all of the last
# DAYS days; refuse a rewrite shorter than max(RATIO of the old, FLOOR characters) when
# the old was longer, and an interest whose new embedding's similarity to the previous
# vector is below MIN_SIMILARITY (calibrated scale; -1 turns it off). Agent activity
# flags an AI user whose interest moved farther than DRIFT_FLAG (1 - similarity) in a day.
STGY_AI_MEMORY_VERSION_KEEP = _num("STGY_AI_MEMORY_VERSION_KEEP", 20)
STGY_AI_MEMORY_VERSION_DAYS = _num("STGY_AI_MEMORY_VERSION_DAYS", 30.0, float)
STGY_AI_MEMORY_SHRINK_RATIO = _num("STGY_AI_MEMORY_SHRINK_RATIO", 0.3, float)
STGY_AI_MEMORY_SHRINK_FLOOR = _num("STGY_AI_MEMORY_SHRINK_FLOOR", 200)
STGY_AI_INTEREST_MIN_SIMILARITY = _num("STGY_AI_INTEREST_MIN_SIMILARITY", 0.6, float)
STGY_AI_INTEREST_DRIFT_FLAG = _num("STGY_AI_INTEREST_DRIFT_FLAG", 0.3, float)
STGY_AI_USER_SKIP_NEW_POST_DAYS = _num("STGY_AI_USER_SKIP_NEW_POST_DAYS", 1.0, float)
# Hourly caps on what AI users write, by the cycle and the respond path alike
# (agents/rate_limits.py; docs/respond-path.md, "Rate limits").
STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT = _num("STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT", 4)
STGY_AI_USER_HOURLY_REPLIES_LIMIT = _num("STGY_AI_USER_HOURLY_REPLIES_LIMIT", 10)
STGY_AI_USER_HOURLY_REPOSTS_LIMIT = _num("STGY_AI_USER_HOURLY_REPOSTS_LIMIT", 2)
STGY_AI_USER_HOURLY_MESSAGES_LIMIT = _num("STGY_AI_USER_HOURLY_MESSAGES_LIMIT", 6)
STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT = _num("STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT", 2)
STGY_AI_HOURLY_ACTIONS_LIMIT = _num("STGY_AI_HOURLY_ACTIONS_LIMIT", 600)
# AI pace follows the people (agents/rate_limits.py, docs/agent-cycle.md §8): AI root
# posts at most this share of the site's root posts over the window, past a floor.
STGY_AI_ROOT_POSTS_SHARE = _num("STGY_AI_ROOT_POSTS_SHARE", 0.5, float)
STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS = _num("STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS", 24.0, float)
STGY_AI_ROOT_POSTS_SHARE_FLOOR = _num("STGY_AI_ROOT_POSTS_SHARE_FLOOR", 6)
# Near-duplicates by meaning (agents/runs/near_duplicate.py): a text whose sentences were
# written lately at this share, or whose embedding is this close (raw cosine) to a
# recent AI text, is refused; "lately" is the AI user's newest posts and messages and the
# fleet's newest posts.
STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE = _num("STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE", 0.5, float)
STGY_AI_NEAR_DUPLICATE_SIMILARITY = _num("STGY_AI_NEAR_DUPLICATE_SIMILARITY", 0.9, float)
STGY_AI_NEAR_DUPLICATE_OWN = _num("STGY_AI_NEAR_DUPLICATE_OWN", 20)
STGY_AI_NEAR_DUPLICATE_FLEET = _num("STGY_AI_NEAR_DUPLICATE_FLEET", 50)
# No AI-to-AI loops (agents/runs/ai_thread.py): AI-to-AI replies in a row in a line of a
# thread with no person in it (2: one answer each; negative: no limit).
STGY_AI_THREAD_AI_REPLIES_LIMIT = _num("STGY_AI_THREAD_AI_REPLIES_LIMIT", 2)
# An AI user writing first to a friend (agents/cycle/outreach.py): the share of cycles
# in which it looks, and how recently the person must have written to it.
STGY_AI_USER_OUTREACH_PROBABILITY = _num("STGY_AI_USER_OUTREACH_PROBABILITY", 0.2, float)
STGY_AI_USER_OUTREACH_RECENT_DAYS = _num("STGY_AI_USER_OUTREACH_RECENT_DAYS", 30.0, float)
STGY_AI_USER_FOLLOWEE_ACTIVE_DAYS = _num("STGY_AI_USER_FOLLOWEE_ACTIVE_DAYS", 30.0, float)

# --- The respond path: answers to people who reply to an AI user (docs/respond-path.md) ---
STGY_RESPOND_BATCH = _num("STGY_RESPOND_BATCH", 5)
STGY_RESPOND_LEASE_SECONDS = _num("STGY_RESPOND_LEASE_SECONDS", 900)
# How long a cycle's writing stage waits for a respond run of the same AI user to end.
STGY_CYCLE_WRITING_WAIT_SECONDS = _num("STGY_CYCLE_WRITING_WAIT_SECONDS", 120, float)
STGY_RESPOND_MAX_AI_TURNS = _num("STGY_RESPOND_MAX_AI_TURNS", 6)
STGY_RESPOND_LENGTH = _num("STGY_RESPOND_LENGTH", 500)
STGY_RESPOND_SWEEP_MIN_AGE_SECONDS = _num("STGY_RESPOND_SWEEP_MIN_AGE_SECONDS", 60)
STGY_RESPOND_EVENT_RETENTION_DAYS = _num("STGY_RESPOND_EVENT_RETENTION_DAYS", 31)
# Direct messages to AI users (docs/respond-path.md, "Direct messages").
STGY_RESPOND_AI_MESSAGES = env.bool("STGY_RESPOND_AI_MESSAGES", default=False)
STGY_MENTION_NOTIFY_LIMIT = _num("STGY_MENTION_NOTIFY_LIMIT", 5)
# Relationships of AI users with their peers (docs/respond-path.md, "Relationships").
STGY_RELATIONSHIP_HALF_LIFE_DAYS = _num("STGY_RELATIONSHIP_HALF_LIFE_DAYS", 14.0, float)
STGY_RELATIONSHIP_WEIGHT_REPLY = _num("STGY_RELATIONSHIP_WEIGHT_REPLY", 0.15, float)
STGY_RELATIONSHIP_WEIGHT_LIKE = _num("STGY_RELATIONSHIP_WEIGHT_LIKE", 0.05, float)
STGY_RELATIONSHIP_WEIGHT_MESSAGE = _num("STGY_RELATIONSHIP_WEIGHT_MESSAGE", 0.1, float)

# --- Post summaries and recommendation (docs/summaries-and-vectors.md) ---
# A tier or a model name; empty: the judging tier of STGY_AI_TASK_TIERS (agents/llm/task_tiers.py).
STGY_AI_SUMMARY_MODEL = env.str("STGY_AI_SUMMARY_MODEL", default="")
STGY_AI_SUMMARY_POST_TEXT_LIMIT = _num("STGY_AI_SUMMARY_POST_TEXT_LIMIT", 50000)
STGY_AI_SUMMARY_SUMMARY_TEXT_LIMIT = _num("STGY_AI_SUMMARY_SUMMARY_TEXT_LIMIT", 10000)
STGY_AI_SUMMARY_SUMMARY_LENGTH = _num("STGY_AI_SUMMARY_SUMMARY_LENGTH", 1000)
STGY_AI_SUMMARY_MAX_KEYWORDS = _num("STGY_AI_SUMMARY_MAX_KEYWORDS", 20)
STGY_AI_SUMMARY_SWEEP_BATCH = _num("STGY_AI_SUMMARY_SWEEP_BATCH", 200)
STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = _num("STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS", 60)
STGY_AI_POST_SEED_NUM_CLUSTERS = _num("STGY_AI_POST_SEED_NUM_CLUSTERS", 4)
STGY_AI_POST_SEED_TTL_SEC = _num("STGY_AI_POST_SEED_TTL_SEC", 43200)
STGY_AI_POST_SEED_CLUSTER_POSTIDS_LIMIT = _num("STGY_AI_POST_SEED_CLUSTER_POSTIDS_LIMIT", 100)
STGY_AI_POST_SEED_NUM_TAGS = _num("STGY_AI_POST_SEED_NUM_TAGS", 10)
STGY_AI_POST_SEED_NUM_KEYWORD_HASHES = _num("STGY_AI_POST_SEED_NUM_KEYWORD_HASHES", 50)
STGY_AI_POST_RECOMMEND_TTL_SEC = _num("STGY_AI_POST_RECOMMEND_TTL_SEC", 3600)
STGY_AI_POST_RECOMMEND_TAG_CANDIDATES = _num("STGY_AI_POST_RECOMMEND_TAG_CANDIDATES", 100)
STGY_AI_POST_RECOMMEND_VEC_CANDIDATES = _num("STGY_AI_POST_RECOMMEND_VEC_CANDIDATES", 200)

# --- Mail and e-mail verification (docs/accounts.md) ---
# Default: every mail printed on the console and kept as a file under var/mail/.
# Production: EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST...
# Unset or empty (as .env.example leaves them) means the default.
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="") or "stgy.mail.ConsoleAndFileEmailBackend"
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default="") or str(VAR_DIR / "mail")
EMAIL_HOST = env.str("EMAIL_HOST", default="") or "localhost"
EMAIL_PORT = _num("EMAIL_PORT", 25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = _num("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="") or "noreply@stgy.jp"
STGY_MAIL_ADDRESS_LIMIT_PER_MIN = _num("STGY_MAIL_ADDRESS_LIMIT_PER_MIN", 2)
STGY_MAIL_DOMAIN_LIMIT_PER_MIN = _num("STGY_MAIL_DOMAIN_LIMIT_PER_MIN", 10)
STGY_MAIL_GLOBAL_LIMIT_PER_MIN = _num("STGY_MAIL_GLOBAL_LIMIT_PER_MIN", 100)
# Mails one client address (an IPv6 one by its /64) may ask for, checked before the
# limits above so that one client cannot use up the site's (sns/mail_limits.py).
STGY_MAIL_CLIENT_LIMIT_PER_MIN = _num("STGY_MAIL_CLIENT_LIMIT_PER_MIN", 5)
STGY_MAIL_CLIENT_LIMIT_PER_HOUR = _num("STGY_MAIL_CLIENT_LIMIT_PER_HOUR", 30)
STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT = _num("STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT", 60)
STGY_VERIFICATION_TTL_SECONDS = _num("STGY_VERIFICATION_TTL_SECONDS", 900)
STGY_VERIFICATION_MAX_ATTEMPTS = _num("STGY_VERIFICATION_MAX_ATTEMPTS", 5)
# Seconds after logging in during which a session may change its own password without
# giving the current one (GitHub's "sudo mode"; sns/access.py, docs/accounts.md §6).
STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS = _num("STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS", 600)

# Embedded mode runs tasks, and every mode sends mail (sns/mailer.py), on background
# threads; tests set this to run both inline.
STGY_EAGER_TASKS_INLINE = env.bool("STGY_EAGER_TASKS_INLINE", default=False)

# --- Operator endpoints: /health, /metrics, /db-stats (docs/operations.md) ---
# Who may read /metrics besides an admin's session: a scraper sending
# "Authorization: Bearer <token>", or a client from these networks.
STGY_METRICS_TOKEN = env.str("STGY_METRICS_TOKEN", default="")
STGY_METRICS_ALLOWED_NETWORKS = env.list(
    "STGY_METRICS_ALLOWED_NETWORKS", default=["127.0.0.0/8", "::1/128"]
)
# The private API roots of every web backend, for /metrics/aggregation (empty: this one).
STGY_BACKEND_API_PRIVATE_URL_LIST = env.list("STGY_BACKEND_API_PRIVATE_URL_LIST", default=[])

# --- Geocoding: /geo/encode, /geo/decode (docs/api.md, "Geo") ---
# NDJSON place files in the original's format; the default is a small sample of a few
# places around Tokyo. Point it at the original's generated geo-japan.ndjson for Japan.
STGY_GEO_STATIC_JSON_FILES = env.list("STGY_GEO_STATIC_JSON_FILE", default=[]) or [
    str(BASE_DIR / "sns" / "geo" / "sample.ndjson")
]
# Geocoder time per user and day (admins unlimited), the day counted in this zone.
STGY_DAILY_GEO_TIMER_LIMIT_MS = _num("STGY_DAILY_GEO_TIMER_LIMIT_MS", 120_000)
STGY_DEFAULT_TIMEZONE = env.str("STGY_DEFAULT_TIMEZONE", default="Asia/Tokyo")
# --- Images and avatars (docs/media.md) ---
# "local": files under STGY_MEDIA_DIR, uploads signed by this site; "s3": an
# S3-compatible store (MinIO, AWS) through django-storages and boto3.
STGY_STORAGE_DRIVER = env.str("STGY_STORAGE_DRIVER", default="local")
STGY_MEDIA_DIR = Path(env.str("STGY_MEDIA_DIR", default="") or VAR_DIR / "media")
STGY_STORAGE_S3_ENDPOINT = env.str("STGY_STORAGE_S3_ENDPOINT", default="http://localhost:9000")
STGY_STORAGE_S3_REGION = env.str("STGY_STORAGE_S3_REGION", default="us-east-1")
STGY_STORAGE_S3_ACCESS_KEY_ID = env.str("STGY_STORAGE_S3_ACCESS_KEY_ID", default="stgy")
STGY_STORAGE_S3_SECRET_ACCESS_KEY = env.str("STGY_STORAGE_S3_SECRET_ACCESS_KEY", default="")
STGY_STORAGE_S3_FORCE_PATH_STYLE = env.bool("STGY_STORAGE_S3_FORCE_PATH_STYLE", default=True)
STGY_STORAGE_S3_BUCKET_PREFIX = env.str("STGY_STORAGE_S3_BUCKET_PREFIX", default="stgy")
STGY_STORAGE_PUBLIC_URL_PREFIX = env.str("STGY_STORAGE_S3_PUBLIC_URL_PREFIX", default="") or (
    "http://localhost:9000/{bucket}/" if STGY_STORAGE_DRIVER == "s3" else "/storage/{bucket}/"
)
STGY_MEDIA_IMAGE_BYTE_LIMIT = _num("STGY_MEDIA_IMAGE_BYTE_LIMIT", 10 * 1024 * 1024)
STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = _num("STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH", 100 * 1024 * 1024)
STGY_MEDIA_AVATAR_BYTE_LIMIT = _num("STGY_MEDIA_AVATAR_BYTE_LIMIT", 1024 * 1024)
# Pixels an upload may have, read from its header before any decoding. Finalize decodes in
# the request (docs/media.md §4): 25 megapixels take about a second and 250 MB there; the
# original's 50,000,000 took 2-4 s and half a gigabyte.
STGY_MEDIA_INPUT_MAX_PIXELS = _num("STGY_MEDIA_INPUT_MAX_PIXELS", 25_000_000)
STGY_MEDIA_INPUT_MAX_DIMENSION = _num("STGY_MEDIA_INPUT_MAX_DIMENSION", 10000)
STGY_MEDIA_THUMB_MAX_PIXELS_IMAGE = _num("STGY_MEDIA_THUMB_MAX_PIXELS_IMAGE", 512 * 512)
STGY_MEDIA_THUMB_MAX_PIXELS_ICON = _num("STGY_MEDIA_THUMB_MAX_PIXELS_ICON", 128 * 128)
STGY_MEDIA_UPLOAD_EXPIRES_SECONDS = _num("STGY_MEDIA_UPLOAD_EXPIRES_SECONDS", 300)
# A staged upload (bytes sent to a presigned URL) that no finalize took is deleted after
# this many seconds by the beat task sns.sweep_staged_media; until then it counts against
# its owner's monthly quota (docs/media.md §2).
STGY_MEDIA_STAGING_TTL_SECONDS = max(60, _num("STGY_MEDIA_STAGING_TTL_SECONDS", 3600))
STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT = _num("STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT", 60)
# Non-public networks an admin's image import may still fetch from (CIDRs, comma-separated).
STGY_MEDIA_IMPORT_ALLOWED_NETWORKS = env.list("STGY_MEDIA_IMPORT_ALLOWED_NETWORKS", default=[])
# --- Tracks and maps (docs/media.md §9-10) ---
STGY_MEDIA_TRACK_BYTE_LIMIT = _num("STGY_MEDIA_TRACK_BYTE_LIMIT", 10 * 1024 * 1024)
STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH = _num("STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH", 100 * 1024 * 1024)
STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS = max(2, _num("STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS", 3000))
STGY_MEDIA_TRACK_JSON_BYTE_LIMIT = _num("STGY_MEDIA_TRACK_JSON_BYTE_LIMIT", 10 * 1024 * 1024) or 10 * 1024 * 1024
STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT = _num("STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT", 100) or 100
STGY_MEDIA_TRACK_JSON_POINT_LIMIT = _num("STGY_MEDIA_TRACK_JSON_POINT_LIMIT", 100000) or 100000
STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT = _num("STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT", 1000000) or 1000000
STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT = _num("STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT", 32) or 32
# A track's parsing runs in the task sns.process_track (docs/media.md §9): a FIT file may
# hold at most this many messages of any kind and take at most this many seconds to decode.
STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT = _num("STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT", 250_000) or 250_000
STGY_MEDIA_TRACK_PARSE_SECONDS = _num("STGY_MEDIA_TRACK_PARSE_SECONDS", 20.0, float) or 20.0
# How long finalize waits for that task before answering 202 "processing".
STGY_MEDIA_TRACK_FINALIZE_WAIT_MS = _num("STGY_MEDIA_TRACK_FINALIZE_WAIT_MS", 2000)
# Map tiles for maps in posts, e.g. "https://tile.openstreetmap.org/{z}/{x}/{y}.png" with its
# attribution. Unset: maps are drawn on a blank background and no page asks another host.
STGY_MAP_TILE_URL = env.str("STGY_MAP_TILE_URL", default="")
STGY_MAP_TILE_ATTRIBUTION = env.str("STGY_MAP_TILE_ATTRIBUTION", default="")
# --- Public sites (docs/publication.md) ---
# Days of page views that pub-ranking and pub-stats count (the original's default).
STGY_PUB_VIEW_RETENTION_DAYS = max(1, _num("STGY_PUB_VIEW_RETENTION_DAYS", 15))
# --- Link previews: POST /link-snippets/resolve and the cards in posts (docs/api.md) ---
STGY_LINK_SNIPPET_TTL_SEC = _num("STGY_LINK_SNIPPET_TTL_SEC", 24 * 3600)
STGY_LINK_SNIPPET_STALE_TTL_SEC = _num("STGY_LINK_SNIPPET_STALE_TTL_SEC", 30 * 24 * 3600)
STGY_LINK_SNIPPET_FAILURE_TTL_SEC = _num("STGY_LINK_SNIPPET_FAILURE_TTL_SEC", 30 * 60)
STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS = _num("STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS", 10 * 1000)
# How long POST /link-snippets/resolve waits for a fetch it started (a task) before it
# answers "pending"; the caller asks again (docs/api.md, "Link previews").
STGY_LINK_SNIPPET_WAIT_MS = _num("STGY_LINK_SNIPPET_WAIT_MS", 1000)
STGY_LINK_SNIPPET_MAX_HTML_BYTES = _num("STGY_LINK_SNIPPET_MAX_HTML_BYTES", 512 * 1024)
STGY_LINK_SNIPPET_MAX_REDIRECTS = _num("STGY_LINK_SNIPPET_MAX_REDIRECTS", 3)
STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT = _num("STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT", 120)
STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT = _num(
    "STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT", 240
)
STGY_LINK_SNIPPET_SITE_NAME_LENGTH_LIMIT = _num("STGY_LINK_SNIPPET_SITE_NAME_LENGTH_LIMIT", 80)
STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR = _num(
    "STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR", 60
)
STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN = _num(
    "STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN", 120
)
STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN = _num("STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN", 10)
STGY_LINK_SNIPPET_ADDRESS_FETCH_LIMIT_PER_MIN = _num(
    "STGY_LINK_SNIPPET_ADDRESS_FETCH_LIMIT_PER_MIN", 20
)
# Off in production: fetch pages on private, loopback or link-local addresses (an intranet
# wiki; the tests' local server), and on ports other than 80/443.
STGY_LINK_SNIPPET_ALLOW_PRIVATE = env.bool("STGY_LINK_SNIPPET_ALLOW_PRIVATE", default=False)
STGY_LINK_SNIPPET_ALLOW_ANY_PORT = env.bool("STGY_LINK_SNIPPET_ALLOW_ANY_PORT", default=False)
# Or only these non-public networks (CIDRs, comma-separated), e.g. an intranet's 10.1.0.0/16.
STGY_LINK_SNIPPET_ALLOWED_NETWORKS = env.list("STGY_LINK_SNIPPET_ALLOWED_NETWORKS", default=[])

# --- Pages: fragment caching (docs/architecture.md §9.1) ---------------------------
# Post cards put together from per-process fragments keyed by their content
# (sns/web/fragments.py); off renders every card whole, as sns/web/cards.py does.
STGY_PAGE_FRAGMENTS = env.bool("STGY_PAGE_FRAGMENTS", default=True)

# --- Pages: people kept visible (docs/pages.md §5) ----------------------------------
# Everyone and For you under "All": at most this share of a page's cards are AI users'
# posts while a person's post no older than the window (before the AI post it passes)
# is waiting further down (sns/selectors/authors.py, `interleave`).
STGY_TIMELINE_AI_SHARE = env.float("STGY_TIMELINE_AI_SHARE", default=0.5)
STGY_TIMELINE_PEOPLE_WINDOW_HOURS = env.float("STGY_TIMELINE_PEOPLE_WINDOW_HOURS", default=24)
