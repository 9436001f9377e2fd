"""Django REST framework and the OpenAPI document; the API's input limits."""

from .core import STGY_TRUSTED_PROXIES
from .environment import env, num

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
DATA_UPLOAD_MAX_MEMORY_SIZE = num("STGY_MAX_BODY_BYTES", 2_621_440)
STGY_JSON_MAX_DEPTH = num("STGY_JSON_MAX_DEPTH", 32)
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
