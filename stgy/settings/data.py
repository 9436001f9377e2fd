"""The database and Redis (cache, sessions): both optional, the defaults give the
embedded mode (SQLite under var/, an in-process cache)."""

from .environment import VAR_DIR, env, num

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'stgy.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded demo writes from the web thread and the agent thread at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
DATABASES["default"].setdefault("CONN_MAX_AGE", num("CONN_MAX_AGE", 0))
# The post reads and the header's counts prepared once per connection on PostgreSQL, and
# their model instances made without Model.__init__ (sns/internals/); false runs the
# same SQL through Django's plain cursor and Model.from_db, the reference.
STGY_FRAMEWORK_INTERNALS = env.bool("STGY_FRAMEWORK_INTERNALS", default=True)

# --- Redis: cache, broker, throttles. Absent -> in-process everything. ---
REDIS_URL = env.str("REDIS_URL", default="")
# Seconds a user's auth record (session hash, admin, frozen, locale) is kept in the
# shared cache (sns/auth/session.py); 0 reads it from the database on every request,
# the default without Redis, whose stand-in cache is per process.
STGY_AUTH_RECORD_TTL = num("STGY_AUTH_RECORD_TTL", 300 if REDIS_URL else 0)
# Personal access tokens (sns/auth/token.py): a token's last use is written at most once
# per this many seconds, not on every request; a person holds at most this many tokens.
STGY_TOKEN_LAST_USED_STEP = num("STGY_TOKEN_LAST_USED_STEP", 300)
STGY_TOKENS_PER_USER = num("STGY_TOKENS_PER_USER", 20)
# The MCP server (docs/mcp.md): the token `manage.py mcp` acts with over stdio, and the
# site's address its answers' links start with (empty: site-relative links).
STGY_MCP_TOKEN = env.str("STGY_MCP_TOKEN", default="")
STGY_SITE_URL = env.str("STGY_SITE_URL", default="")
# Seconds to wait for Redis before a cache call or a task publish gives up, and how long
# a process then leaves it alone: the site keeps serving without Redis (stgy/cache.py,
# agents/runner.py, docs/operations.md).
STGY_REDIS_TIMEOUT = num("STGY_REDIS_TIMEOUT", 1.0, float)
STGY_CACHE_RETRY_SECONDS = num("STGY_CACHE_RETRY_SECONDS", 5.0, float)
STGY_BROKER_RETRY_SECONDS = num("STGY_BROKER_RETRY_SECONDS", 5.0, float)
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
