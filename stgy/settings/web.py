"""Features of the pages and the API beyond posts: geocoding, public sites, link previews,
the pages' fragment cache and the timelines' mix of people and AI users."""

from .environment import BASE_DIR, env, num

# --- Geocoding: /geo/encode, /geo/decode (docs/api.md, "Geo") ---
# NDJSON place files in the original's format; the default is a small sample of a few
# places around Tokyo. Point it at the original's generated geo-japan.ndjson for Japan.
STGY_GEO_STATIC_JSON_FILES = env.list("STGY_GEO_STATIC_JSON_FILE", default=[]) or [
    str(BASE_DIR / "sns" / "geo" / "sample.ndjson")
]
# Geocoder time per user and day (admins unlimited), the day counted in this zone.
STGY_DAILY_GEO_TIMER_LIMIT_MS = num("STGY_DAILY_GEO_TIMER_LIMIT_MS", 120_000)
STGY_DEFAULT_TIMEZONE = env.str("STGY_DEFAULT_TIMEZONE", default="Asia/Tokyo")

# --- Public sites (docs/publication.md) ---
# Days of page views that pub-ranking and pub-stats count (the original's default).
STGY_PUB_VIEW_RETENTION_DAYS = max(1, num("STGY_PUB_VIEW_RETENTION_DAYS", 15))
# --- Link previews: POST /link-snippets/resolve and the cards in posts (docs/api.md) ---
STGY_LINK_SNIPPET_TTL_SEC = num("STGY_LINK_SNIPPET_TTL_SEC", 24 * 3600)
STGY_LINK_SNIPPET_STALE_TTL_SEC = num("STGY_LINK_SNIPPET_STALE_TTL_SEC", 30 * 24 * 3600)
STGY_LINK_SNIPPET_FAILURE_TTL_SEC = num("STGY_LINK_SNIPPET_FAILURE_TTL_SEC", 30 * 60)
STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS = num("STGY_LINK_SNIPPET_FETCH_TIMEOUT_MS", 10 * 1000)
# How long POST /link-snippets/resolve waits for a fetch it started (a task) before it
# answers "pending"; the caller asks again (docs/api.md, "Link previews").
STGY_LINK_SNIPPET_WAIT_MS = num("STGY_LINK_SNIPPET_WAIT_MS", 1000)
STGY_LINK_SNIPPET_MAX_HTML_BYTES = num("STGY_LINK_SNIPPET_MAX_HTML_BYTES", 512 * 1024)
STGY_LINK_SNIPPET_MAX_REDIRECTS = num("STGY_LINK_SNIPPET_MAX_REDIRECTS", 3)
STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT = num("STGY_LINK_SNIPPET_TITLE_LENGTH_LIMIT", 120)
STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT = num(
    "STGY_LINK_SNIPPET_DESCRIPTION_LENGTH_LIMIT", 240
)
STGY_LINK_SNIPPET_SITE_NAME_LENGTH_LIMIT = num("STGY_LINK_SNIPPET_SITE_NAME_LENGTH_LIMIT", 80)
STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR = num(
    "STGY_LINK_SNIPPET_CLIENT_FETCH_LIMIT_PER_HOUR", 60
)
STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN = num(
    "STGY_LINK_SNIPPET_GLOBAL_FETCH_LIMIT_PER_MIN", 120
)
STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN = num("STGY_LINK_SNIPPET_HOST_FETCH_LIMIT_PER_MIN", 10)
STGY_LINK_SNIPPET_ADDRESS_FETCH_LIMIT_PER_MIN = num(
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
