"""Operator endpoints (docs/operations.md)."""

from .environment import env

# --- Operator endpoints: /health, /metrics, /db-stats (docs/operations.md) ---
# Who may read /metrics besides an admin's session: a scraper sending
# "Authorization: Bearer <token>", or a client from these networks.
STGY_METRICS_TOKEN = env.str("STGY_METRICS_TOKEN", default="")
STGY_METRICS_ALLOWED_NETWORKS = env.list(
    "STGY_METRICS_ALLOWED_NETWORKS", default=["127.0.0.0/8", "::1/128"]
)
# The private API roots of every web backend, for /metrics/aggregation (empty: this one).
STGY_BACKEND_API_PRIVATE_URL_LIST = env.list("STGY_BACKEND_API_PRIVATE_URL_LIST", default=[])
