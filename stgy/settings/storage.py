"""Images, avatars, tracks and maps: where files are kept and their limits (docs/media.md)."""

from pathlib import Path

from .environment import VAR_DIR, env, num

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
STGY_MEDIA_IMAGE_BYTE_LIMIT = num("STGY_MEDIA_IMAGE_BYTE_LIMIT", 10 * 1024 * 1024)
STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH = num("STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH", 100 * 1024 * 1024)
STGY_MEDIA_AVATAR_BYTE_LIMIT = num("STGY_MEDIA_AVATAR_BYTE_LIMIT", 1024 * 1024)
# Pixels an upload may have, read from its header before any decoding. Finalize decodes in
# the request (docs/media.md §4): 25 megapixels take about a second and 250 MB there; the
# original's 50,000,000 took 2-4 s and half a gigabyte.
STGY_MEDIA_INPUT_MAX_PIXELS = num("STGY_MEDIA_INPUT_MAX_PIXELS", 25_000_000)
STGY_MEDIA_INPUT_MAX_DIMENSION = num("STGY_MEDIA_INPUT_MAX_DIMENSION", 10000)
STGY_MEDIA_THUMB_MAX_PIXELS_IMAGE = num("STGY_MEDIA_THUMB_MAX_PIXELS_IMAGE", 512 * 512)
STGY_MEDIA_THUMB_MAX_PIXELS_ICON = num("STGY_MEDIA_THUMB_MAX_PIXELS_ICON", 128 * 128)
STGY_MEDIA_UPLOAD_EXPIRES_SECONDS = num("STGY_MEDIA_UPLOAD_EXPIRES_SECONDS", 300)
# A staged upload (bytes sent to a presigned URL) that no finalize took is deleted after
# this many seconds by the beat task sns.sweep_staged_media; until then it counts against
# its owner's monthly quota (docs/media.md §2).
STGY_MEDIA_STAGING_TTL_SECONDS = max(60, num("STGY_MEDIA_STAGING_TTL_SECONDS", 3600))
STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT = num("STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT", 60)
# Non-public networks an admin's image import may still fetch from (CIDRs, comma-separated).
STGY_MEDIA_IMPORT_ALLOWED_NETWORKS = env.list("STGY_MEDIA_IMPORT_ALLOWED_NETWORKS", default=[])
# --- Tracks and maps (docs/media.md §9-10) ---
STGY_MEDIA_TRACK_BYTE_LIMIT = num("STGY_MEDIA_TRACK_BYTE_LIMIT", 10 * 1024 * 1024)
STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH = num("STGY_MEDIA_TRACK_BYTE_LIMIT_PER_MONTH", 100 * 1024 * 1024)
STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS = max(2, num("STGY_MEDIA_TRACK_PREVIEW_MAX_POINTS", 3000))
STGY_MEDIA_TRACK_JSON_BYTE_LIMIT = num("STGY_MEDIA_TRACK_JSON_BYTE_LIMIT", 10 * 1024 * 1024) or 10 * 1024 * 1024
STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT = num("STGY_MEDIA_TRACK_JSON_FEATURE_LIMIT", 100) or 100
STGY_MEDIA_TRACK_JSON_POINT_LIMIT = num("STGY_MEDIA_TRACK_JSON_POINT_LIMIT", 100000) or 100000
STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT = num("STGY_MEDIA_TRACK_JSON_PROPERTY_VALUE_LIMIT", 1000000) or 1000000
STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT = num("STGY_MEDIA_TRACK_JSON_DEPTH_LIMIT", 32) or 32
# A track's parsing runs in the task sns.process_track (docs/media.md §9): a FIT file may
# hold at most this many messages of any kind and take at most this many seconds to decode.
STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT = num("STGY_MEDIA_TRACK_FIT_MESSAGE_LIMIT", 250_000) or 250_000
STGY_MEDIA_TRACK_PARSE_SECONDS = num("STGY_MEDIA_TRACK_PARSE_SECONDS", 20.0, float) or 20.0
# How long finalize waits for that task before answering 202 "processing".
STGY_MEDIA_TRACK_FINALIZE_WAIT_MS = num("STGY_MEDIA_TRACK_FINALIZE_WAIT_MS", 2000)
# Map tiles for maps in posts, e.g. "https://tile.openstreetmap.org/{z}/{x}/{y}.png" with its
# attribution. Unset: maps are drawn on a blank background and no page asks another host.
STGY_MAP_TILE_URL = env.str("STGY_MAP_TILE_URL", default="")
STGY_MAP_TILE_ATTRIBUTION = env.str("STGY_MAP_TILE_ATTRIBUTION", default="")
