"""Images and avatars (docs/media.md): presigned upload, finalize, list, quota, read and
delete, with the original's limits, key layout and error texts. Every refusal is a 400
`{error}` as in the original, except "forbidden" and the throttle (403)."""

from __future__ import annotations

import logging
import math
import re
import uuid
from datetime import UTC, datetime

from django.conf import settings
from django.utils import timezone as dj_timezone

from ..core import throttle
from ..core.errors import Forbidden, InvalidInput
from ..core.ids import id_to_hex
from ..media import images, keys, remote, signing, storage
from ..models import User
from ..models.media import MediaImage
from ..reads.access import access_user_self_or_admin, access_writable
from . import media_usage

log = logging.getLogger(__name__)
IMAGE_POSTS = throttle.Limit("image-posts", "STGY_HOURLY_IMAGE_POSTS_COUNT_LIMIT", None, "too often image posts")
SLOTS = ("avatar",)
_YYYYMM = re.compile(r"^\d{6}$")


def _target(actor: User, user_id: int, *, write: bool) -> User:
    if write:
        access_writable(actor)
    return access_user_self_or_admin(actor, user_id)


def _skips_byte_limits(actor: User, target: User) -> bool:
    return target.is_admin  # the original: the path user's admin flag (the actor's, if self)


def _check_slot(slot: str) -> None:
    if slot not in SLOTS:
        raise InvalidInput("invalid slot")


def _upload_quota(actor: User, target: User) -> dict | None:
    """What the local store's upload endpoint checks again when the bytes arrive (many
    presigned URLs asked for at once each saw the quota before any upload)."""
    limit = settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH
    if not limit or _skips_byte_limits(actor, target):
        return None
    return {"kind": media_usage.IMAGES, "user": id_to_hex(target.id), "limit": limit}


def _valid_size(size_bytes) -> int:
    try:
        number = float(size_bytes if size_bytes is not None else 0)
    except (TypeError, ValueError):
        raise InvalidInput("invalid sizeBytes") from None
    if not number > 0 or math.isnan(number) or math.isinf(number):
        raise InvalidInput("invalid sizeBytes")
    return int(number)


def _meta(bucket: str, key: str, size: int, mime: str, width: int, height: int) -> dict:
    return {
        "bucket": bucket, "key": key, "size": size, "contentType": mime,
        "lastModified": dj_timezone.now().isoformat(),
        "metadata": {"image-width": str(width), "image-height": str(height)},
        "publicUrl": storage.public_url(bucket, key),
    }


# --- images ---

def image_presign(actor: User, user_id: int, filename, size_bytes, site_url: str = "") -> dict:
    target = _target(actor, user_id, write=True)
    size = _valid_size(size_bytes)
    skip = _skips_byte_limits(actor, target)
    limit_single = settings.STGY_MEDIA_IMAGE_BYTE_LIMIT or None
    if limit_single and not skip and size > limit_single:
        raise InvalidInput("file too large")
    mime = keys.mime_for_filename(filename if isinstance(filename, str) else "")
    if mime is None:
        raise InvalidInput("unsupported content type")
    if settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH and not skip:
        used = image_quota(actor, user_id)["bytesTotal"]
        if used + size > settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH:
            raise InvalidInput("monthly quota exceeded")
    key = f"staging/{id_to_hex(target.id)}/{uuid.uuid4()}{keys.EXTENSIONS[mime]}"
    return signing.presign(storage.images_bucket(), key, mime, None if skip else limit_single, site_url,
                           quota=_upload_quota(actor, target))


def _load_staged(bucket: str, key: str, size_limit: int | None) -> tuple[bytes, str]:
    """The staged bytes and their sniffed type; a staged object that fails any check is
    deleted, as the original does, so nothing of a refused upload stays behind."""
    data = storage.read(bucket, key)
    if not data:
        raise InvalidInput("not found")
    try:
        if size_limit and len(data) > size_limit:
            raise InvalidInput("file too large")
        mime, _w, _h = images.sniff(data)
        ext = keys.extension_in_key(key)
        if not ext:
            raise InvalidInput("file extension required")
        if ext not in keys.ALIASES[mime]:
            raise InvalidInput("file extension mismatch")
    except InvalidInput:
        storage.delete(bucket, key)
        raise
    return data, mime


def _store_finished(bucket: str, master_key: str, thumb_key: str,
                    clean: images.CleanImage) -> None:
    try:
        storage.write(bucket, master_key, clean.data, clean.mime)
        storage.write(bucket, thumb_key, clean.thumb, "image/webp")
    except Exception:
        for key in (master_key, thumb_key):
            storage.delete(bucket, key)
        raise


def staged_upload_key(actor: User, user_id: int, staging_key, prefix: str,
                      limit: throttle.Limit) -> tuple[User, str, str]:
    """A finalize's target user, their hex id and the staging key, once the key names a
    file right under `<prefix>/<user hex>/`; every finalize naming a well-formed key
    counts against the hourly `limit`, refused later or not (images and tracks alike)."""
    target = _target(actor, user_id, write=True)
    user_hex = id_to_hex(target.id)
    key = staging_key if isinstance(staging_key, str) else ""
    if not keys.is_under(f"{prefix}/{user_hex}", key) or key.count("/") != 2:
        raise InvalidInput("invalid key")
    throttle.throttle_check(actor, limit)
    return target, user_hex, key


def image_finalize(actor: User, user_id: int, staging_key) -> dict:
    target, user_hex, key = staged_upload_key(actor, user_id, staging_key, "staging", IMAGE_POSTS)
    bucket = storage.images_bucket()
    skip = _skips_byte_limits(actor, target)
    data, mime = _load_staged(bucket, key, None if skip else settings.STGY_MEDIA_IMAGE_BYTE_LIMIT)
    try:
        clean = images.clean(data, mime, settings.STGY_MEDIA_THUMB_MAX_PIXELS_IMAGE)
        limit_monthly = settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH
        if limit_monthly and not skip:
            # The staged upload counts in `used` already (docs/media.md §2); it becomes these.
            used = media_usage.used_bytes(media_usage.IMAGES, user_hex) - len(data)
            if used + len(clean.data) + len(clean.thumb) > limit_monthly:
                raise InvalidInput("monthly quota exceeded")
    except InvalidInput:
        storage.delete(bucket, key)
        raise
    master_key = keys.image_master_key(user_hex, key, mime, datetime.now(UTC))
    _store_finished(bucket, master_key, keys.image_thumb_key(master_key), clean)
    storage.delete(bucket, key)
    MediaImage.objects.update_or_create(
        key=master_key,
        defaults={"owner": target, "width": clean.width, "height": clean.height, "size": len(clean.data)},
    )
    return _meta(bucket, master_key, len(clean.data), mime, clean.width, clean.height)


def image_import(actor: User, user_id: int, url, site_host: str) -> tuple[bytes, str]:
    """An admin's fetch of a remote image for the editor (sns/media/remote.py): the bytes
    go back to the admin's browser, which uploads them through the presigned flow."""
    access_writable(actor)
    if not actor.is_admin:
        raise Forbidden("admin only")
    if actor.id != user_id:
        raise Forbidden("forbidden")
    return remote.fetch(url, site_host=site_host, max_bytes=settings.STGY_MEDIA_IMAGE_BYTE_LIMIT)


def masters_page(target: User, bucket: str, offset: int, limit: int, after: str | None) -> list[dict]:
    """One page of a user's `masters/` objects in a bucket, newest first (the keys sort
    so), as the original lists images and tracks."""
    prefix = f"{id_to_hex(target.id)}/masters/"
    if after and offset:
        raise InvalidInput("after requires offset=0")
    if after and not after.startswith(prefix):
        raise InvalidInput("invalid after")
    objects = [o for o in storage.list_objects(bucket, prefix) if not after or o.key > after]
    return [
        {"bucket": o.bucket, "key": o.key, "size": o.size,
         "lastModified": o.last_modified.isoformat() if o.last_modified else None,
         "publicUrl": storage.public_url(o.bucket, o.key)}
        for o in objects[offset:offset + limit]
    ]


def image_list(actor: User, user_id: int, offset: int, limit: int, after: str | None) -> list[dict]:
    target = _target(actor, user_id, write=False)
    return masters_page(target, storage.images_bucket(), offset, limit, after)


def image_quota(actor: User, user_id: int, yyyymm: str | None = None) -> dict:
    target = _target(actor, user_id, write=False)
    if yyyymm:
        if not _YYYYMM.match(yyyymm):
            raise InvalidInput("invalid yyyymm")
        if not (int(yyyymm[:4]) >= 1970 and 1 <= int(yyyymm[4:]) <= 12):
            raise InvalidInput("invalid month")
    else:
        yyyymm = media_usage.this_month()
    user_hex = id_to_hex(target.id)
    masters, thumbs = media_usage.month_bytes(media_usage.IMAGES, user_hex, yyyymm)
    staged = media_usage.staged_bytes(media_usage.IMAGES, user_hex) if yyyymm == media_usage.this_month() else 0
    skip = _skips_byte_limits(actor, target)
    return {
        "userId": user_hex, "yyyymm": yyyymm, "bytesMasters": masters, "bytesThumbs": thumbs,
        "bytesStaged": staged, "bytesTotal": masters + thumbs + staged,
        "limitSingleBytes": None if skip else (settings.STGY_MEDIA_IMAGE_BYTE_LIMIT or None),
        "limitMonthlyBytes": None if skip else (settings.STGY_MEDIA_IMAGE_BYTE_LIMIT_PER_MONTH or None),
    }


def _user_key(target: User, rest: str) -> str:
    return f"{id_to_hex(target.id)}/{(rest or '').lstrip('/')}"


def read_user_object(target: User, bucket: str, rest: str, folders: tuple[str, ...]) -> tuple[str, bytes]:
    """The key and bytes of `<user>/<rest>`, which must lie in one of the user's `folders`."""
    full, user_hex = _user_key(target, rest), id_to_hex(target.id)
    if not any(keys.is_under(f"{user_hex}/{folder}", full) for folder in folders):
        raise InvalidInput("invalid key")
    data = storage.read(bucket, full)
    if data is None:
        raise InvalidInput("not found")
    return full, data


def image_bytes(actor: User, user_id: int, rest: str) -> tuple[bytes, str]:
    target = _target(actor, user_id, write=False)
    full, data = read_user_object(target, storage.images_bucket(), rest, ("masters", "thumbs"))
    return data, _content_type(full)


def deletable_master_key(target: User, rest: str) -> str:
    """`<user>/masters/<rev>/<file>` named by `rest`: the only keys a delete may name
    (images and tracks alike); anything else is 400."""
    full = _user_key(target, rest)
    if not keys.is_under(f"{id_to_hex(target.id)}/masters", full) or full.count("/") != 3:
        raise InvalidInput("invalid key (must be masters/)")
    return full


def image_delete(actor: User, user_id: int, rest: str) -> None:
    target = _target(actor, user_id, write=True)
    full, user_hex = deletable_master_key(target, rest), id_to_hex(target.id)
    bucket = storage.images_bucket()
    storage.delete(bucket, full)
    _user, _masters, rev, filename = full.split("/")
    for thumb in storage.list_objects(bucket, f"{user_hex}/thumbs/{rev}/{filename.rsplit('.', 1)[0]}_"):
        storage.delete(bucket, thumb.key)
    MediaImage.objects.filter(key=full).delete()


def _content_type(key: str) -> str:
    ext = keys.extension_in_key(key) or ""
    return next((mime for mime, names in keys.ALIASES.items() if ext in names), "application/octet-stream")


# --- profile images (the avatar slot) ---

def profile_presign(actor: User, user_id: int, slot: str, filename, size_bytes, site_url: str = "") -> dict:
    target = _target(actor, user_id, write=True)
    _check_slot(slot)
    size = _valid_size(size_bytes)
    limit = settings.STGY_MEDIA_AVATAR_BYTE_LIMIT
    if limit and size > limit:
        raise InvalidInput("file too large")
    mime = keys.mime_for_filename(filename if isinstance(filename, str) else "")
    if mime is None:
        raise InvalidInput("unsupported content type")
    quota = _upload_quota(actor, target)
    if quota and media_usage.used_bytes(media_usage.IMAGES, quota["user"]) + size > quota["limit"]:
        raise InvalidInput("monthly quota exceeded")  # a staged avatar counts as an image does
    key = f"profiles-staging/{id_to_hex(target.id)}/{slot}/{uuid.uuid4()}{keys.EXTENSIONS[mime]}"
    return signing.presign(storage.profiles_bucket(), key, mime, limit or None, site_url, quota=quota)


def _delete_profile_objects(bucket: str, user_hex: str, slot: str) -> None:
    for prefix in (f"{user_hex}/masters/{slot}.", f"{user_hex}/thumbs/{slot}_"):
        for obj in storage.list_objects(bucket, prefix):
            storage.delete(bucket, obj.key)


def profile_finalize(actor: User, user_id: int, slot: str, staging_key) -> dict:
    target = _target(actor, user_id, write=True)
    _check_slot(slot)
    user_hex = id_to_hex(target.id)
    key = staging_key if isinstance(staging_key, str) else ""
    if not keys.is_under(f"profiles-staging/{user_hex}/{slot}", key) or key.count("/") != 3:
        raise InvalidInput("invalid key")
    throttle.throttle_check(actor, IMAGE_POSTS)
    bucket = storage.profiles_bucket()
    data, mime = _load_staged(bucket, key, settings.STGY_MEDIA_AVATAR_BYTE_LIMIT or None)
    try:
        clean = images.clean(data, mime, settings.STGY_MEDIA_THUMB_MAX_PIXELS_ICON)
    except InvalidInput:
        storage.delete(bucket, key)
        raise
    _delete_profile_objects(bucket, user_hex, slot)
    master_key = keys.profile_master_key(user_hex, slot, mime)
    _store_finished(bucket, master_key, keys.profile_thumb_key(user_hex, slot), clean)
    storage.delete(bucket, key)
    User.objects.filter(pk=target.pk).update(avatar=f"{bucket}/{master_key}", updated_at=dj_timezone.now())
    return _meta(bucket, master_key, len(clean.data), mime, clean.width, clean.height)


def _profile_master(bucket: str, user_hex: str, slot: str) -> str | None:
    pattern = re.compile(rf"^{user_hex}/masters/{slot}\.[A-Za-z0-9]+$")
    return next((o.key for o in storage.list_objects(bucket, f"{user_hex}/masters/{slot}.")
                 if pattern.match(o.key)), None)


def profile_bytes(actor: User, user_id: int, slot: str) -> tuple[bytes, str]:
    target = _target(actor, user_id, write=False)
    _check_slot(slot)
    bucket = storage.profiles_bucket()
    key = _profile_master(bucket, id_to_hex(target.id), slot)
    data = storage.read(bucket, key) if key else None
    if data is None:
        raise InvalidInput("not found")
    return data, _content_type(key)


def profile_delete(actor: User, user_id: int, slot: str) -> None:
    target = _target(actor, user_id, write=True)
    _check_slot(slot)
    _delete_profile_objects(storage.profiles_bucket(), id_to_hex(target.id), slot)
    User.objects.filter(pk=target.pk).update(avatar=None, updated_at=dj_timezone.now())


def avatar_thumb_url(avatar: str | None) -> str | None:
    """The icon thumbnail's public URL for a User.avatar of "<bucket>/<user>/masters/<slot>.<ext>"
    (what profile_finalize stores), or None for anything else: pages then show the initial."""
    if not avatar or "/" not in avatar:
        return None
    bucket, key = avatar.split("/", 1)
    parts = key.split("/")
    if bucket != storage.profiles_bucket() or len(parts) != 3 or parts[1] != "masters" or not keys.is_safe(key):
        return None
    slot = parts[2].rsplit(".", 1)[0]
    return storage.public_url(bucket, keys.profile_thumb_key(parts[0], slot))


def media_delete_all(user_hex: str) -> None:
    """Every stored object of a deleted account (the original's deleteAllImagesAndProfiles
    and deleteAllTracks).
    A store that fails here leaves files behind, never a failed account deletion."""
    targets = ((storage.images_bucket(), (f"{user_hex}/masters/", f"{user_hex}/thumbs/", f"staging/{user_hex}/")),
               (storage.profiles_bucket(), (f"{user_hex}/masters/", f"{user_hex}/thumbs/",
                                            f"profiles-staging/{user_hex}/")),
               (storage.tracks_bucket(), (f"{user_hex}/masters/", f"{user_hex}/previews/",
                                          f"tracks-staging/{user_hex}/")))
    try:
        for bucket, prefixes in targets:
            for prefix in prefixes:
                for obj in storage.list_objects(bucket, prefix):
                    storage.delete(bucket, obj.key)
    except Exception:
        log.exception("could not delete the stored media of %s", user_hex)
