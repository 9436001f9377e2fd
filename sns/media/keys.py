"""Object keys, laid out as the original lays them out (docs/media.md §2):

images bucket    staging/<user>/<uuid>.<ext>                 presigned upload target
                 <user>/masters/<revMM>/<rev8><hash8>.<ext>   finished image
                 <user>/thumbs/<revMM>/<rev8><hash8>_image.webp
profiles bucket  profiles-staging/<user>/<slot>/<uuid>.<ext>
                 <user>/masters/<slot>.<ext>
                 <user>/thumbs/<slot>_icon.webp
tracks bucket    tracks-staging/<user>/<uuid>.<fit|trjgz>
                 <user>/masters/<revMM>/<rev8><hash8>.<fit|trjgz>   the uploaded file
                 <user>/previews/<revMM>/<rev8><hash8>.trjgz        what maps draw

revMM is 999999 - yyyymm and rev8 the milliseconds left in the month, in hex, so a
plain key listing runs newest first.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone

_SEGMENT = re.compile(r"^[A-Za-z0-9_.-]+$")
EXTENSIONS = {"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp"}
ALIASES = {"image/jpeg": {"jpg", "jpeg"}, "image/png": {"png"}, "image/webp": {"webp"}}


def is_safe(key: str) -> bool:
    """Plain "/"-separated segments: no "..", no empty or dot segment, no backslash."""
    if not isinstance(key, str) or not key or len(key) > 512:
        return False
    return all(_SEGMENT.match(part) and part not in (".", "..") for part in key.split("/"))


def is_under(prefix: str, key: str) -> bool:
    """Strictly below `prefix` (the prefix itself names a folder, not an object)."""
    return is_safe(key) and key.startswith(prefix + "/")


def is_public(key: str, folders: tuple[str, ...] = ("masters", "thumbs")) -> bool:
    parts = key.split("/")
    return is_safe(key) and len(parts) >= 3 and parts[1] in folders


def mime_for_filename(filename: str) -> str | None:
    match = re.search(r"\.([A-Za-z0-9]+)$", filename or "")
    ext = match.group(1).lower() if match else ""
    for mime, names in ALIASES.items():
        if ext in names:
            return mime
    return None


def extension_in_key(key: str) -> str | None:
    match = re.search(r"\.([A-Za-z0-9]+)$", key)
    return match.group(1).lower() if match else None


def yyyymm(moment: datetime) -> str:
    return f"{moment.year:04d}{moment.month:02d}"


def rev_mm(year: int, month: int) -> str:
    return f"{999999 - (year * 100 + month):06d}"


def rev_hex_within_month(moment: datetime) -> str:
    start = datetime(moment.year, moment.month, 1, tzinfo=timezone.utc)
    nxt = datetime(moment.year + (moment.month == 12), moment.month % 12 + 1, 1, tzinfo=timezone.utc)
    span = int((nxt - start).total_seconds() * 1000)
    since = int((moment - start).total_seconds() * 1000)
    return format(max(0, span - 1 - since), "08x")


def master_key(user_hex: str, staging_key: str, extension: str, moment: datetime) -> str:
    hash8 = hashlib.md5(staging_key.encode()).hexdigest()[:8]
    return (f"{user_hex}/masters/{rev_mm(moment.year, moment.month)}/"
            f"{rev_hex_within_month(moment)}{hash8}{extension}")


def image_master_key(user_hex: str, staging_key: str, mime: str, moment: datetime) -> str:
    return master_key(user_hex, staging_key, EXTENSIONS[mime], moment)


def track_preview_key(master: str) -> str:
    user, _masters, rev, filename = master.split("/")
    return f"{user}/previews/{rev}/{filename.rsplit('.', 1)[0]}.trjgz"


def image_thumb_key(master_key: str) -> str:
    user, _masters, rev, filename = master_key.split("/")
    return f"{user}/thumbs/{rev}/{filename.rsplit('.', 1)[0]}_image.webp"


def profile_master_key(user_hex: str, slot: str, mime: str) -> str:
    return f"{user_hex}/masters/{slot}{EXTENSIONS[mime]}"


def profile_thumb_key(user_hex: str, slot: str) -> str:
    return f"{user_hex}/thumbs/{slot}_icon.webp"
