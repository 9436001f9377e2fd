"""Writes of the public sites (docs/publication.md): a user's site settings, and the
count of a reader's view of a public post."""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from datetime import datetime, timezone as dt_timezone

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F

from ..core import throttle
from ..reads.access import access_user_self_or_admin, access_writable
from ..core.errors import InvalidInput
from ..models import Post, PostPubView, PubConfig, User
from ..core.textguard import clean_long_text, refuse_invalid, strip_invisible

_UNSET = object()
_THEME = re.compile(r"^[A-Za-z0-9_-]*$")
_WHOLE_NUMBER = re.compile(r"^-?\d+$", re.ASCII)
_INT32 = (-(2**31), 2**31 - 1)
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
# API name → (column, kind); the order is the order the checks run in.
FIELDS = {
    "siteName": ("site_name", "line"),
    "subtitle": ("subtitle", "line"),
    "author": ("author", "line"),
    "introduction": ("introduction", "text"),
    "designTheme": ("design_theme", "theme"),
    "showServiceHeader": ("show_service_header", "bool"),
    "showSiteName": ("show_site_name", "bool"),
    "showPagenation": ("show_pagenation", "bool"),
    "showSideProfile": ("show_side_profile", "bool"),
    "showSideRecent": ("show_side_recent", "count"),
    "showSidePopular": ("show_side_popular", "count"),
}


def _one_line(value: str, name: str) -> str:
    text = strip_invisible(unicodedata.normalize("NFC", refuse_invalid(value, name)))
    return " ".join(text.split())


def _multi_line(value: str, name: str) -> str:
    text = unicodedata.normalize("NFC", refuse_invalid(value, name))
    text = clean_long_text(text.replace("\r\n", "\n").replace("\r", "\n"), name)
    return re.sub(r" +\n", "\n", text).rstrip("\n")


def _string(value, name: str, kind: str, column: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    text = _multi_line(value, name) if kind == "text" else _one_line(value, name)
    if kind == "theme" and not _THEME.match(text):
        raise InvalidInput("invalid designTheme")
    if len(text) > PubConfig._meta.get_field(column).max_length:
        raise InvalidInput(f"{name} is too long")
    return text


def _boolean(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise InvalidInput(f"{name} must be a boolean")


def _sidebar_count(value, name: str) -> int:
    """The original's rule: a whole number, or a string of one, within 32 bits."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidInput("invalid sidebar count", field=name)
    if isinstance(value, str):
        if not _WHOLE_NUMBER.match(value.strip()):
            raise InvalidInput("invalid sidebar count", field=name)
        value = int(value.strip())
    elif isinstance(value, float):
        if not value.is_integer():
            raise InvalidInput("invalid sidebar count", field=name)
        value = int(value)
    if not _INT32[0] <= value <= _INT32[1]:
        raise InvalidInput("invalid sidebar count", field=name)
    return value


def pub_config_update(actor: User, user_id: int, changes: dict) -> PubConfig:
    """Apply the given fields (API names, see FIELDS) to the user's site settings; the
    rest keep their values. Only the user or an admin may; bad input changes nothing."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    values: dict = {}
    size = 0
    for name, (column, kind) in FIELDS.items():
        if name not in changes:
            continue
        value = changes[name]
        if kind in ("line", "text", "theme"):
            if value is None:  # the original leaves a field sent as null unchanged
                continue
            values[column] = _string(value, name, kind, column)
            size += len(values[column])
        elif kind == "bool":
            values[column] = _boolean(value, name)
        else:
            values[column] = _sidebar_count(value, name)
    throttle.throttle_check(actor, throttle.USER_UPDATES, size=size)
    with transaction.atomic():
        config, _ = PubConfig.objects.select_for_update().get_or_create(user=user)
        for column, value in values.items():
            setattr(config, column, value)
        config.save()
    return config


# ------------------------------------------------------------------------ page views

_BOT = re.compile(
    r"bot\b|crawler|spider|slurp|facebookexternalhit|bingpreview|google-inspection-tool|googleother",
    re.IGNORECASE,
)


def pub_view_fingerprint(client_address: str | None, user_agent: str = "") -> str | None:
    """Eight hex digits standing for one reader (a keyed hash of the address, so no
    address is stored); None for self-declared bots and unknown addresses."""
    if not client_address or _BOT.search(user_agent or ""):
        return None
    digest = hmac.new(settings.SECRET_KEY.encode(), client_address.encode(), hashlib.sha256)
    return digest.hexdigest()[:8]


def pub_view_signature(post_id: int, fingerprint: str) -> str:
    """What a trusted front end sends with a fingerprint so the API counts the view
    (the original's x-stgy-pub-view-signature), keyed by the site's secret."""
    message = f"{post_id:016X}\n{fingerprint}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


def pub_view_signature_valid(post_id: int, fingerprint: str, signature: str) -> bool:
    if not re.fullmatch(r"[0-9a-f]{8}", fingerprint or "", re.IGNORECASE):
        return False
    if not re.fullmatch(r"[0-9a-f]{64}", signature or "", re.IGNORECASE):
        return False
    return hmac.compare_digest(pub_view_signature(post_id, fingerprint.lower()), signature.lower())


def pub_view_record(post: Post, fingerprint: str) -> bool:
    """Count one view of a public post by the reader `fingerprint`, once per reader and
    post within the retention window (docs/publication.md §3). True if it counted."""
    days = settings.STGY_PUB_VIEW_RETENTION_DAYS
    seen_key = f"pub-view:{post.id}:{fingerprint.lower()}"
    if not cache.add(seen_key, 1, timeout=(days + 1) * 86400):
        return False
    today = datetime.now(dt_timezone.utc).date()
    rows = PostPubView.objects.filter(post_id=post.id, day=today)
    if not rows.update(count=F("count") + 1):
        try:
            with transaction.atomic():
                PostPubView.objects.create(post_id=post.id, owner_id=post.owner_id, day=today, count=1)
        except IntegrityError:  # another reader's first view of the day came first
            rows.update(count=F("count") + 1)
    _purge_old_views(today)
    return True


_last_purge = {"day": None}


def _purge_old_views(today) -> None:
    """Drop counts older than the window, once a day per process."""
    if _last_purge["day"] == today:
        return
    _last_purge["day"] = today
    from datetime import timedelta

    cutoff = today - timedelta(days=settings.STGY_PUB_VIEW_RETENTION_DAYS - 1)
    PostPubView.objects.filter(day__lt=cutoff).delete()
